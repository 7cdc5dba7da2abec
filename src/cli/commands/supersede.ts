// `lore supersede OLD --by NEW`: OLD stops being valid when NEW takes over.

import type { SupersedeResult } from '../../engine';
import type { Command } from '../command';
import { requiredOption, stringOption } from '../parse';

export const supersedeCommand: Command = {
  name: 'supersede',
  summary: 'mark a memory superseded by another, from a point in time',
  usage: 'lore supersede OLD --by NEW [--valid-from ISO]',
  options: { by: { type: 'string' }, 'valid-from': { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'OLD' },
  async run(ctx, v, [oldKey]) {
    const by = requiredOption('supersede', 'by', v.by);
    const result = await ctx.withEngine((engine) =>
      engine.supersede(ctx.actor(), oldKey, by, stringOption(v['valid-from'])),
    );
    ctx.print(result, (r: SupersedeResult) => `${r.key} is superseded by ${r.superseded_by} from ${r.valid_from}`);
    return 0;
  },
};
