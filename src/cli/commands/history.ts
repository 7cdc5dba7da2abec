// `lore history`: every kept version of a key and every lifecycle event, in order.

import type { HistoryResult } from '../../engine';
import type { Command } from '../command';

export const historyCommand: Command = {
  name: 'history',
  summary: 'show the versions, supersessions and tombstones of a memory',
  usage: 'lore history KEY',
  options: {},
  positionals: { min: 1, max: 1, names: 'KEY' },
  async run(ctx, _v, [key]) {
    const result = await ctx.withEngine((engine) => engine.history(key));
    ctx.print(result, renderHistory);
    return 0;
  },
};

function renderHistory(result: HistoryResult): string {
  const versions = result.versions.map(
    (v) =>
      `  v${v.version}${v.current ? ' (current)' : ''}  ${v.status}  ` +
      `valid ${v.valid_from} → ${v.valid_until ?? 'now'}  ${v.title}`,
  );
  const events = result.events.map(
    (e) =>
      `  ${e.at}  ` +
      `${e.event}${e.related_key ? ` ${e.related_key}` : ''}${e.reason ? `: ${e.reason}` : ''} ` +
      ` (v${e.version}, ${e.actor})`,
  );
  return [`${result.key}`, 'versions kept:', ...versions, 'events:', ...events].join('\n');
}
