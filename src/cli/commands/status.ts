// `lore deprecate|dispute|retract KEY --reason S`: lifecycle changes that keep the record and say why.

import type { LifecycleResult, StatusChange } from '../../engine';
import type { Command } from '../command';
import { requiredOption } from '../parse';

function statusCommand(name: 'deprecate' | 'dispute' | 'retract', status: StatusChange, summary: string): Command {
  return {
    name,
    summary,
    usage: `lore ${name} KEY --reason S`,
    options: { reason: { type: 'string' } },
    positionals: { min: 1, max: 1, names: 'KEY' },
    async run(ctx, v, [key]) {
      const reason = requiredOption(name, 'reason', v.reason);
      const result = await ctx.withEngine((engine) => engine.setStatus(ctx.actor(), key, status, reason));
      ctx.print(result, (r: LifecycleResult) => `${r.key}: ${r.previous_status} → ${r.status}`);
      return 0;
    },
  };
}

export const deprecateCommand = statusCommand(
  'deprecate',
  'deprecated',
  'mark a memory deprecated (still recalled, ranked lower, with the reason)',
);
export const disputeCommand = statusCommand(
  'dispute',
  'disputed',
  'mark a memory disputed (still recalled, ranked lower, with the reason)',
);
export const retractCommand = statusCommand(
  'retract',
  'retracted',
  'retract a memory: a tombstone that is never recalled again',
);
