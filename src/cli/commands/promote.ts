// `lore promote KEY`: a person lets a quarantined record into recall. It asks on an interactive
// terminal and refuses otherwise: an agent or script must never be able to do this.

import { LoreError, type GetResult, type LifecycleResult } from '../../engine';
import { cliActor, type Command } from '../command';

export const promoteCommand: Command = {
  name: 'promote',
  summary: 'let a quarantined memory into recall (asks you to confirm; interactive terminals only)',
  usage: 'lore promote KEY',
  options: {},
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, _v, [key]) {
    if (!ctx.interactive) {
      throw new LoreError(
        'HUMAN_ONLY',
        'promote asks a person to confirm, and this is not an interactive terminal',
        `run \`lore promote ${key}\` yourself in a terminal`,
      );
    }
    const shown = await ctx.withEngine((engine) => engine.get(key));
    const answer = await ctx.ask(describe(shown) + `\nPromote ${key} from quarantine into recall? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) {
      ctx.print({ promoted: false, key }, () => 'not promoted');
      return 1;
    }
    const result = await ctx.withEngine((engine) => engine.promote(cliActor(true), key));
    ctx.print({ promoted: true, ...result }, (r: LifecycleResult) => `${r.key}: ${r.previous_status} → ${r.status}`);
    return 0;
  },
};

function describe({ memory: m }: GetResult): string {
  return [
    `${m.key} (v${m.version}, ${m.status}; source ` +
      `${m.provenance.source}${m.provenance.client ? `, ${m.provenance.client}` : ''})`,
    `  ${m.title}`,
    `  ${m.description}`,
  ].join('\n');
}
