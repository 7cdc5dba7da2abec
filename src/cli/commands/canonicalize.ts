// `lore canonicalize KEY [--as adr|record]`: promote a record to the repository — a decision as an
// ADR in the repository's own convention, or any record as a signed `.lore/` file — to share
// through a normal pull request.

import type { CanonicalizeResult } from '../../engine';
import { machineLabel, type Command } from '../command';
import { stringOption, UsageError } from '../parse';

export const canonicalizeCommand: Command = {
  name: 'canonicalize',
  summary:
    "write a record into the repository: a decision as an ADR (the repo's own convention) or a signed .lore/ record",
  usage:
    'lore canonicalize KEY [--as adr|record]   (default: an ADR for a ' +
    'decision when the repository keeps ADRs, else a record)',
  options: { as: { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, v, [key]) {
    const as = stringOption(v.as);
    if (as !== undefined && as !== 'adr' && as !== 'record')
      throw new UsageError(`--as must be adr or record; got ${JSON.stringify(as)}`);
    const label = machineLabel();
    const result = await ctx.withEngine((engine) => engine.canonicalize(ctx.actor(), key, { as, label }));
    ctx.print(result, render);
    return 0;
  },
};

function render(r: CanonicalizeResult): string {
  const what =
    r.as === 'adr'
      ? `an ADR (${r.convention === 'default' ? 'new docs/adr folder, Nygard format' : `${r.convention} convention`})`
      : 'a signed record';
  return (
    `${r.replaced ? 'rewrote' : 'wrote'} ${r.key} v${r.version} as ` +
    `${what}: ${r.path}\ncommit it through a pull request; teammates' ` +
    `Lore picks it up when it indexes`
  );
}
