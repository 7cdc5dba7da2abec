// Drift on the way out: recall and get results gain a `drift` list for records whose references
// moved on, and a `drift:<state>` flag per state, so every door shows it without asking twice.

import type { GetResult } from './memory/read';
import type { RecallResult } from './search/recall';
import type { DriftService } from './drift/service';
import type { DriftFlag } from './drift/types';

export type WithDrift<T> = T & { drift?: DriftFlag[] };

function mark<T extends { flags: string[] }>(item: T, drift: DriftFlag[] | undefined): WithDrift<T> {
  if (!drift?.length) return item;
  for (const state of new Set(drift.map((d) => d.state))) item.flags.push(`drift:${state}`);
  return Object.assign(item, { drift });
}

export function annotateRecall(service: DriftService, result: RecallResult): RecallResult {
  const memories = service.flags(
    'memory',
    result.results.filter((h) => h.record === 'memory').map((h) => h.key),
  );
  const docHits = result.results.flatMap((h) => (h.record === 'doc' ? [h] : []));
  // A document hit is one chunk: it carries the drift of the references on its own lines only.
  const docs = new Map(service.docFlags(docHits).map((flags, i) => [docHits[i], flags]));
  for (const hit of result.results) mark(hit, hit.record === 'memory' ? memories.get(hit.key) : docs.get(hit));
  return result;
}

export function annotateGet(service: DriftService, result: GetResult): WithDrift<GetResult> {
  if (result.archived) return result;
  return mark(result, service.flags('memory', [result.memory.key]).get(result.memory.key));
}

/** One readable line per drifted reference, the same in every door. */
export function describeDrift(flags: readonly DriftFlag[] | undefined): string[] {
  return (flags ?? []).map((f) => `drift: ${f.reference} is ${f.state} — ${f.detail}`);
}
