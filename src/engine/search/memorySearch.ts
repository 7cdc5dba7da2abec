// The memory search port (record/memorySearch.ts) on the SQLite store: its FTS5 index of every
// memory version (porter stems; bm25 weights title 4, description 2, body 1, tags 2) and its rows.
// This module owns memory_fts. A store that holds memories elsewhere (PostgreSQL) brings its own
// adapter on the memory port; recall and a save's warnings ask `memorySearch(ctx)` either way.

import type { EngineContext } from '../context';
import { LIVE_STATUSES_SQL } from '../model/types';
import type { MemorySearchPort, RankedRow, RecallFilter } from '../record/memorySearch';
import type { MemoryRow } from '../record/rows';
import type { SqlDatabase } from '../ports';
import { ftsQuery } from '../text/words';

const FTS_WEIGHTS = '4.0, 2.0, 1.0, 2.0';

/** Words as one FTS5 query: each quoted (a phrase of its tokens), joined by OR, or AND. */
function match(words: readonly string[], all = false): string {
  return words.map((t) => `"${t.replace(/"/g, '""')}"`).join(all ? ' AND ' : ' OR ');
}

function filterSql(filter: RecallFilter): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.asOf) {
    // What was valid at that instant, archived versions and superseded records included, but
    // never a record whose current state is a tombstone or quarantined.
    where.push('m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)');
    params.push(filter.asOf, filter.asOf);
    where.push(
      `m.key NOT IN (SELECT key FROM memories WHERE is_current = 1 AND status IN ('retracted', 'quarantined'))`,
    );
  } else {
    where.push(`m.is_current = 1 AND m.status IN ${LIVE_STATUSES_SQL}`);
    where.push('m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)');
    params.push(filter.now, filter.now);
  }
  if (filter.types.length) {
    where.push(`m.type IN (${filter.types.map(() => '?').join(', ')})`);
    params.push(...filter.types);
  }
  return { where, params };
}

/**
 * The filters for a query that already names its rows by id. SQLite would otherwise pick the
 * `is_current` index and scan every current record; a unary `+` makes the column unindexable for
 * this query only, so the planner looks the ids up by primary key and filters those few rows.
 */
function byIdFirst(where: string[]): string {
  return where.join(' AND ').replace('m.is_current = 1', '+m.is_current = 1');
}

function rowsByIds(db: SqlDatabase, ids: readonly number[], filter: RecallFilter): MemoryRow[] {
  if (!ids.length) return [];
  const { where, params } = filterSql(filter);
  return db.all<MemoryRow>(
    `SELECT m.* FROM memories m WHERE m.id IN (${ids.map(() => '?').join(', ')}) AND ${byIdFirst(where)}`,
    [...ids, ...params],
  );
}

/**
 * FTS5 ranks ids alone (no row fetched per match), then only the top ids are read and filtered;
 * when filters drop too many, the window widens.
 */
function lexical(db: SqlDatabase, words: readonly string[], all: boolean, filter: RecallFilter, fetch: number) {
  for (let window = fetch * 2; ; window *= 4) {
    const ranked = db.all<{ id: number; bm: number }>(
      `SELECT rowid AS id, bm25(memory_fts, ${FTS_WEIGHTS}) AS bm FROM ` +
        `memory_fts WHERE memory_fts MATCH ? ORDER BY bm LIMIT ?`,
      [match(words, all), window],
    );
    if (!ranked.length) return [];
    const bm = new Map(ranked.map((r) => [r.id, r.bm]));
    const rows: RankedRow[] = rowsByIds(
      db,
      ranked.map((r) => r.id),
      filter,
    )
      .map((row) => ({ ...row, bm: bm.get(row.id)! }))
      .sort((a, b) => a.bm - b.bm);
    if (rows.length >= fetch || ranked.length < window) return rows.slice(0, fetch);
  }
}

const adapters = new WeakMap<SqlDatabase, MemorySearchPort>();

/** The SQLite store's memory search (one per database, so what callers cache by it stays put). */
export function sqliteMemorySearch(db: SqlDatabase): MemorySearchPort {
  const known = adapters.get(db);
  if (known) return known;
  const count = (sql: string, params: Array<string | number> = []) => db.get<{ n: number | null }>(sql, params)?.n ?? 0;
  const adapter: MemorySearchPort = {
    holdingAll: (words, limit) =>
      count('SELECT COUNT(*) AS n FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)', [
        match(words, true),
        limit,
      ]),
    lexical: (words, all, filter, fetch) => lexical(db, words, all, filter, fetch),
    rows: (ids, filter) => rowsByIds(db, ids, filter),
    // MAX(id) is one b-tree step; it moves on every save.
    stamp: () => count('SELECT MAX(id) AS n FROM memories'),
    rowCount: () => count('SELECT COUNT(*) AS n FROM memories'),
    // A phrase is one quoted FTS5 string: its words in order, next to each other.
    holding: (texts) =>
      texts.map((text) =>
        count('SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH ?', [
          text.includes(' ') ? `"${text.replace(/"/g, '""')}"` : ftsQuery(text),
        ]),
      ),
    titleHolds: (a, b) =>
      db.get('SELECT 1 AS x FROM memory_fts WHERE memory_fts MATCH ? LIMIT 1', [`{title} : "${a} ${b}"`]) !== undefined,
    sameTypeByTitle: (title, type, exceptKey, limit) =>
      db.all<MemoryRow>(
        `SELECT m.* FROM memory_fts f JOIN memories m ON m.id = f.rowid
         WHERE memory_fts MATCH ? AND m.is_current = 1 AND m.status IN ${LIVE_STATUSES_SQL}
           AND m.type = ? AND m.key <> ?
         ORDER BY bm25(memory_fts, 4.0, 1.0, 0.0, 0.0) LIMIT ?`,
        [match(title), type, exceptKey, limit],
      ),
  };
  adapters.set(db, adapter);
  return adapter;
}

/** The memory search of the engine's memory store: its own, or the SQLite store's. */
export function memorySearch(ctx: Pick<EngineContext, 'db' | 'memories'>): MemorySearchPort {
  return ctx.memories.search ?? sqliteMemorySearch(ctx.db);
}
