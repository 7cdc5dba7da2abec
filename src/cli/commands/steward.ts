// `lore steward run [--dry-run] [--unverified-days N]`: scan the memory for duplicates, conflicts,
// stale records and dead-end collisions; exact duplicates are merged (history kept), everything
// else goes to the Inbox (`lore inbox`).

import type { StewardFinding, StewardRunResult } from '../../engine';
import type { Command } from '../command';
import { integerOption, UsageError } from '../parse';

export const stewardCommand: Command = {
  name: 'steward',
  summary:
    'find duplicates, conflicts, stale records and dead-end ' +
    'collisions (exact duplicates merged, the rest to the Inbox)',
  usage:
    'lore steward run [--dry-run] [--unverified-days N]   (N: days ' +
    'without a new version before an active record counts as ' +
    'unverified; default 180)',
  options: { 'dry-run': { type: 'boolean' }, 'unverified-days': { type: 'string' } },
  positionals: { min: 1, max: 1, names: 'run' },
  async run(ctx, v, [sub]) {
    if (sub !== 'run') throw new UsageError(`unknown steward command "${sub}"`, 'use: lore steward run [--dry-run]');
    const dryRun = v['dry-run'] === true;
    const options = { dryRun, unverifiedDays: integerOption('unverified-days', v['unverified-days']) };
    const result = await ctx.withEngine((engine) => engine.stewardRun(options), { create: false });
    ctx.print(result, renderRun);
    return 0;
  },
};

const OUTCOME_LABEL: Record<StewardFinding['outcome'], string> = {
  applied: 'applied',
  would_apply: 'would apply',
  queued: 'queued',
  would_queue: 'would queue',
  already_queued: 'in inbox',
  dismissed_before: 'dismissed',
  resolved_before: 'resolved',
  moot: 'moot',
};

function renderRun(r: StewardRunResult): string {
  const head = r.dry_run
    ? `steward dry run: ${r.scanned} records scanned; would merge ` +
      `${r.findings.filter((f) => f.outcome === 'would_apply').length}, ` +
      `would queue ` +
      `${r.findings.filter((f) => f.outcome === 'would_queue').length} ` +
      `(nothing was written)`
    : `steward: ${r.scanned} records scanned; ${r.applied} merged, ` +
      `${r.queued} queued; ${r.inbox_open} open in the Inbox`;
  const lines = r.findings.map(
    (f) =>
      `  ${OUTCOME_LABEL[f.outcome].padEnd(11)} ${f.kind.padEnd(18)} ` +
      `${f.risk.padEnd(6)} ` +
      `${f.inbox_id ? `#${f.inbox_id} ` : ''}${f.summary}`,
  );
  const tail: string[] = [];
  if (r.refused) tail.push(`${r.refused} record(s) failed verification and were not scanned (see lore list)`);
  if (r.drift === 'unavailable') tail.push('drifted anchors were not checked: no drift findings are available');
  if (!r.dry_run && r.queued) tail.push('review them with: lore inbox');
  return [head, ...lines, ...tail].join('\n');
}
