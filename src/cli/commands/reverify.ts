// `lore reverify KEY`: a person checked a memory against the code it is anchored to and it still
// holds — its references' fingerprints are refreshed and its basis becomes verified (audited).

import type { ReverifyResult } from '../../engine';
import type { Command } from '../command';

export const reverifyCommand: Command = {
  name: 'reverify',
  summary: 'mark a memory checked against its anchors: refresh their fingerprints, basis → verified',
  usage: 'lore reverify KEY',
  options: {},
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, _v, [key]) {
    const result = await ctx.withEngine((engine) => engine.reverify(ctx.actor(), key));
    ctx.print(
      result,
      (r: ReverifyResult) =>
        `${r.key} v${r.version} re-verified: ${r.references} reference(s) fingerprinted, basis verified` +
        r.moved.map((m) => `\n  anchor moved: ${m.from} → ${m.to}`).join(''),
    );
    return 0;
  },
};
