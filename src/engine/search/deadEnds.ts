// Dead-end resemblance: does a query or a new record look like an approach already recorded as a
// dead end? Candidates come from the full-text index; resemblance is term overlap on stems.

import type { SqlDatabase } from '../ports';
import { rowToMemory, type MemoryRow } from '../store/memoryRows';
import { ftsQuery, stems } from './text';

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

export function findResemblingDeadEnds(db: SqlDatabase, text: string, excludeKey?: string): DeadEndMatch[] {
  const match = ftsQuery(text);
  if (!match) return [];
  const rows = db.all<MemoryRow>(
    `SELECT m.* FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid
     WHERE memory_fts MATCH ? AND m.is_current = 1 AND m.type = 'dead_end'
       AND m.status IN ('active', 'deprecated', 'disputed')
     ORDER BY bm25(memory_fts, 4.0, 2.0, 1.0, 2.0) LIMIT 20`,
    [match],
  );
  const probe = stems(text);
  return rows
    .filter((row) => row.key !== excludeKey)
    .map((row) => ({ row, score: resemblance(probe, deadEndText(row)) }))
    .filter(({ score }) => score >= RESEMBLANCE_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .map(({ row, score }) => {
      const memory = rowToMemory(row);
      return { key: memory.key, title: memory.title, description: memory.description, status: memory.status, resemblance: Math.round(score * 100) / 100 };
    });
}
