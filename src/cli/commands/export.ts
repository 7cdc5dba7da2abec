// `lore export [--out F] [--type T]... [--status S]... [--basis B]...`: write a signed bundle of the
// current records (each keeps its author's signature; this machine signs the whole).
// `lore export instructions --format F`: agent instructions from what still holds (./exportInstructions.ts).

import { writeFileSync } from 'node:fs';
import type { Bundle } from '../../engine';
import { machineLabel, type Command } from '../command';
import { listOption, stringOption, UsageError } from '../parse';
import { EXPORT_INSTRUCTIONS_USAGE, exportInstructions } from './exportInstructions';

export const exportCommand: Command = {
  name: 'export',
  summary:
    'write a signed bundle of memories (to a file with --out, else to stdout); `export instructions` writes ' +
    'what still holds into AGENTS.md, CLAUDE.md or a Cursor rule',
  usage:
    'lore export [--out FILE] [--type T]... [--status S]... [--basis ' +
    'B]...   (default: every status but retracted and quarantined)\n       ' +
    EXPORT_INSTRUCTIONS_USAGE,
  options: {
    out: { type: 'string', short: 'o' },
    type: { type: 'string', multiple: true },
    status: { type: 'string', multiple: true },
    basis: { type: 'string', multiple: true },
    format: { type: 'string', multiple: true },
  },
  positionals: { min: 0, max: 1, names: '[instructions]' },
  async run(ctx, v, [what]) {
    if (what !== undefined && what !== 'instructions')
      throw new UsageError(
        `lore export takes no argument but "instructions"; got "${what}"`,
        EXPORT_INSTRUCTIONS_USAGE,
      );
    if (what === 'instructions') {
      const stray = ['out', 'type', 'status', 'basis'].filter((o) => v[o] !== undefined);
      if (stray.length)
        throw new UsageError(`lore export instructions takes no --${stray.join(', --')}`, EXPORT_INSTRUCTIONS_USAGE);
      return exportInstructions(ctx, v);
    }
    if (v.format !== undefined)
      throw new UsageError('--format belongs to lore export instructions', EXPORT_INSTRUCTIONS_USAGE);
    const filter = { types: listOption(v.type), statuses: listOption(v.status), bases: listOption(v.basis) };
    const label = machineLabel();
    const bundle = await ctx.withEngine((engine) => engine.exportBundle(filter, { label }));
    const text = JSON.stringify(bundle, null, 2) + '\n';
    const out = stringOption(v.out);
    if (out === undefined || out === '-') {
      process.stdout.write(text);
      return 0;
    }
    try {
      writeFileSync(out, text);
    } catch (error) {
      throw new UsageError(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    ctx.print({ out, records: bundle.records.length, signer: bundle.signer, store_id: bundle.store_id }, (r) =>
      renderExport(r, bundle),
    );
    return 0;
  },
};

function renderExport(r: { out: string; records: number; signer: string }, bundle: Bundle): string {
  const types = [...new Set(bundle.records.map((x) => x.type))].join(', ');
  return (
    `exported ${r.records} record(s)${types ? ` (${types})` : ''} to ` +
    `${r.out}, signed by ${r.signer}\nteammates import it with: lore ` +
    `import ${r.out}`
  );
}
