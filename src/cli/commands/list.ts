// `lore list`: pages of memory summaries, newest change first.

import type { ListResult } from '../../engine';
import type { Command } from '../command';
import { integerOption, listOption } from '../parse';

export const listCommand: Command = {
  name: 'list',
  summary: 'list memories (50 a page by default, 200 at most)',
  usage: 'lore list [--type T]... [--status S]... [--offset N] [--limit N]',
  options: {
    type: { type: 'string', multiple: true },
    status: { type: 'string', multiple: true },
    offset: { type: 'string' },
    limit: { type: 'string' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    const input = {
      types: listOption(v.type),
      statuses: listOption(v.status),
      offset: integerOption('offset', v.offset),
      limit: integerOption('limit', v.limit),
    };
    const result = await ctx.withEngine((engine) => engine.list(input));
    ctx.print(result, renderList);
    return 0;
  },
};

function renderList(result: ListResult): string {
  if (!result.total)
    return 'no memories yet: save one with `lore remember --type decision --title ... --description ...`';
  const rows = result.items.map(
    (m) => `${m.key}  ${m.status}${m.flags.length ? ` [${m.flags.join(', ')}]` : ''}  — ${m.title}`,
  );
  rows.push(...result.refused.map((r) => `refused ${r.key} v${r.version}: ${r.reason}`));
  const shown = `${result.offset + 1}–${result.offset + result.items.length} of ${result.total}`;
  return [...rows, result.next_offset === null ? shown : `${shown}; next page: --offset ${result.next_offset}`].join(
    '\n',
  );
}
