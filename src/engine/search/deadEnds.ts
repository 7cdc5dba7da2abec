// Dead-end resemblance: does a query or a new record look like an approach already recorded as a
// dead end? Resemblance is term overlap on stems.

import type { EngineContext } from '../memory/context';
import { rowToMemory, type MemoryRow } from '../store/memoryRows';
import { cachedStems, stems } from './text';

export interface DeadEndMatch {
  key: string;
  title: string;
  description: string;
  status: string;
  resemblance: number;
}

/** Share of the probe's terms a dead end must cover to count as resembling it. */
export const RESEMBLANCE_THRESHOLD = 0.5;

export function deadEndText(row: Pick<MemoryRow, 'title' | 'description' | 'tags'>): Set<string> {
  return stems(`${row.title} ${row.description} ${(JSON.parse(row.tags) as string[]).join(' ')}`);
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
export function findResemblingDeadEnds(ctx: Pick<EngineContext, 'db' | 'integrity'>, texts: string | string[], excludeKey?: string): DeadEndMatch[] {
  // Several probes (a title alone, the title with its description): the closest one counts, so a
  // long description does not dilute a title that names the dead end outright.
  const probes = (Array.isArray(texts) ? texts : [texts]).map(stems).filter((p) => p.size);
  if (!probes.length) return [];
  const candidates = ctx.db.all<Pick<MemoryRow, 'id' | 'key' | 'title' | 'description' | 'tags' | 'content_digest'>>(
    "SELECT id, key, title, description, tags, content_digest FROM memories WHERE is_current = 1 AND type = 'dead_end' AND status IN ('active', 'deprecated', 'disputed')",
  );
  const close = candidates
    .filter((c) => c.key !== excludeKey)
    .map((c) => {
      const terms = cachedStems(`dead:${c.id}:${c.content_digest}`, () => `${c.title} ${c.description} ${(JSON.parse(c.tags) as string[]).join(' ')}`);
      return { id: c.id, score: Math.max(...probes.map((probe) => resemblance(probe, terms))) };
    })
    .filter(({ score }) => score >= RESEMBLANCE_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
  if (!close.length) return [];
  // Only the few that resemble are read whole and verified.
  const score = new Map(close.map((c) => [c.id, c.score]));
  const rows = ctx.db.all<MemoryRow>(`SELECT * FROM memories WHERE id IN (${close.map(() => '?').join(', ')})`, close.map((c) => c.id));
  return ctx.integrity
    .partition(rows)
    .accepted.sort((a, b) => score.get(b.id)! - score.get(a.id)!)
    .map((row) => {
      const memory = rowToMemory(row);
      return { key: memory.key, title: memory.title, description: memory.description, status: memory.status, resemblance: Math.round(score.get(row.id)! * 100) / 100 };
    });
}
