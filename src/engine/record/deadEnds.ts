// Dead-end resemblance: does a query or a new record look like an approach already recorded as a
// dead end? Resemblance is term overlap on stems.

import type { EngineContext } from '../context';
import { LIVE_STATUSES_SQL, type DeadEndMatch } from '../model/types';
import { rowToMemory, type MemoryRow } from './rows';
import type { DeadEndSource } from './memorySearch';
import { stems } from '../text/words';

export type { DeadEndMatch };

/** Share of the probe's terms a dead end must cover to count as resembling it. */
export const RESEMBLANCE_THRESHOLD = 0.5;

/** The stems a dead end is compared on: its title, description and tags. */
export function deadEndStems(d: { title: string; description: string; tags: readonly string[] }): Set<string> {
  return stems(`${d.title} ${d.description} ${d.tags.join(' ')}`);
}

export function deadEndText(row: Pick<MemoryRow, 'title' | 'description' | 'tags'>): Set<string> {
  return deadEndStems({ title: row.title, description: row.description, tags: JSON.parse(row.tags) as string[] });
}

/**
 * The texts a record is compared with dead ends by: its title alone, and the title with its
 * description (the closest counts, so a long description does not dilute a title naming one).
 */
export function deadEndProbes(m: { title: string; description: string }): string[] {
  return [m.title, `${m.title} ${m.description}`];
}

/**
 * Resemblance of a probe (a query or a new record's text) to a dead end: shared stems over the
 * smaller side's size. A probe of several terms must share at least two, so one common word
 * does not make a collision.
 */
export function resemblance(probe: Set<string>, deadEnd: Set<string>): number {
  const shared = [...probe].filter((s) => deadEnd.has(s)).length;
  if (shared === 0 || (probe.size > 1 && shared < 2)) return 0;
  return shared / Math.min(probe.size, deadEnd.size);
}

/**
 * Live dead ends resembling `text`. Dead ends are few, so each is compared directly rather than
 * through the full-text index (which would score most of the store on every save).
 */
interface DeadEndEntry {
  id: number;
  key: string;
  terms: Set<string>;
}

// Live dead ends per store, stemmed once. Each call checks a signature the index answers alone
// (count and id sum of the live dead ends, no table page read); when it moved, only the ids are
// listed and the rows not seen before are read and stemmed, so bulk saves stay linear. A row id
// is reused only after a delete, and only forget deletes a live row: it drops the cache.
interface DeadEndSet {
  signature: string;
  byId: Map<number, DeadEndEntry>;
  entries: DeadEndEntry[];
}
const deadEndSets = new Map<string, DeadEndSet>();
const LIVE = `is_current = 1 AND type = 'dead_end' AND status IN ${LIVE_STATUSES_SQL}`;

/** Forget deleted rows: their ids may be handed to new rows, so nothing cached by id is kept. */
export function dropDeadEndCache(storeId: string): void {
  deadEndSets.delete(storeId);
}

/** The SQLite store's live dead ends. */
function sqliteDeadEnds(db: EngineContext['db']): DeadEndSource {
  return {
    signature: () =>
      db.get<{ s: string }>(`SELECT COUNT(*) || ':' || COALESCE(SUM(id), 0) AS s FROM memories WHERE ${LIVE}`)!.s,
    ids: () => db.all<{ id: number }>(`SELECT id FROM memories WHERE ${LIVE}`).map((r) => r.id),
    rows: (ids) => db.all<MemoryRow>(`SELECT * FROM memories WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]),
  };
}

function deadEndSource(ctx: Pick<EngineContext, 'db'> & Partial<Pick<EngineContext, 'memories'>>): DeadEndSource {
  return ctx.memories?.search?.deadEnds ?? sqliteDeadEnds(ctx.db);
}

function liveDeadEnds(
  ctx: Pick<EngineContext, 'db' | 'storeId'> & Partial<Pick<EngineContext, 'memories'>>,
): DeadEndEntry[] {
  const source = deadEndSource(ctx);
  const signature = source.signature();
  const cached = deadEndSets.get(ctx.storeId);
  if (cached?.signature === signature) return cached.entries;
  const known = cached?.byId ?? new Map<number, DeadEndEntry>();
  const ids = source.ids();
  const missing = ids.filter((id) => !known.has(id));
  for (let i = 0; i < missing.length; i += 500) {
    for (const row of source.rows(missing.slice(i, i + 500))) {
      known.set(row.id, { id: row.id, key: row.key, terms: deadEndText(row) });
    }
  }
  const byId = new Map(ids.filter((id) => known.has(id)).map((id) => [id, known.get(id)!]));
  const set = { signature, byId, entries: [...byId.values()] };
  deadEndSets.set(ctx.storeId, set);
  return set.entries;
}

export function findResemblingDeadEnds(
  ctx: Pick<EngineContext, 'db' | 'integrity' | 'storeId'> & Partial<Pick<EngineContext, 'memories'>>,
  texts: string | string[],
  excludeKey?: string,
): DeadEndMatch[] {
  // Several probes (a title alone, the title with its description): the closest one counts, so a
  // long description does not dilute a title that names the dead end outright.
  const probes = (Array.isArray(texts) ? texts : [texts]).map(stems).filter((p) => p.size);
  if (!probes.length) return [];
  const candidates = liveDeadEnds(ctx);
  const close = candidates
    .filter((c) => c.key !== excludeKey)
    .map((c) => ({ id: c.id, score: Math.max(...probes.map((probe) => resemblance(probe, c.terms))) }))
    .filter(({ score }) => score >= RESEMBLANCE_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
  if (!close.length) return [];
  // Only the few that resemble are read whole and verified.
  const score = new Map(close.map((c) => [c.id, c.score]));
  const rows = deadEndSource(ctx).rows(close.map((c) => c.id));
  return ctx.integrity
    .partition(rows)
    .accepted.sort((a, b) => score.get(b.id)! - score.get(a.id)!)
    .map((row) => {
      const memory = rowToMemory(row);
      return {
        key: memory.key,
        title: memory.title,
        description: memory.description,
        status: memory.status,
        resemblance: Math.round(score.get(row.id)! * 100) / 100,
      };
    });
}
