// The memory search port's reads on PostgreSQL (engine/record/memorySearch.ts), one repository at a
// time, over migrations.ts's weighted tsvector: title A, description and tags B, body C, ranked
// with weights 1, 0.5, 0.25 (SQLite's bm25 weights 4, 2, 1, 2). Words are stemmed by Snowball's
// English stemmer with no stop words (`lore.english`), as SQLite's porter tokenizer keeps every
// word: recall's own BM25F (search/bm25.ts) rescores the candidates on the engine's thread, with
// document frequencies counted here, so the two stores rank alike.

import { LIVE_STATUSES_SQL } from '../../../engine/model/types';
import type { RankedRow, RecallFilter } from '../../../engine/record/memorySearch';
import { MEMORY_COLUMNS, type MemoryRow } from './engineRecord';
import type { QueryScope } from './memoryQueries';

const ROW = MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ');
/** {D, C, B, A}: body 1, description and tags 2, title 4 (recall); title 4, description 1 (a save's check). */
const RECALL_WEIGHTS = "'{0, 0.25, 0.5, 1.0}'::float4[]";
const TITLE_WEIGHTS = "'{0, 0, 0.25, 1.0}'::float4[]";

/** A tsquery over `$n` (a text[] of words, each a phrase of its tokens), joined by OR, or AND; NULL for none. */
function tsquery(param: number, all: boolean): string {
  const phrase = "phraseto_tsquery('lore.english', w)::text";
  return (
    `(SELECT string_agg('(' || ${phrase} || ')', '${all ? ' & ' : ' | '}')::tsquery ` +
    `FROM unnest($${param}::text[]) AS w WHERE ${phrase} <> '')`
  );
}

/** The filter's SQL over `m`, its parameters numbered from `from`. */
function filterSql(filter: RecallFilter, from: number): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const next = (value: unknown) => `$${from + params.push(value) - 1}`;
  const where: string[] = [];
  if (filter.asOf) {
    const at = next(filter.asOf);
    where.push(`m.valid_from <= ${at} AND (m.valid_until IS NULL OR m.valid_until > ${at})`);
    where.push(
      'm.key NOT IN (SELECT key FROM memories WHERE repo_id = m.repo_id AND is_current = 1 ' +
        "AND status IN ('retracted', 'quarantined'))",
    );
  } else {
    const now = next(filter.now);
    where.push(`m.is_current = 1 AND m.status IN ${LIVE_STATUSES_SQL}`);
    where.push(`m.valid_from <= ${now} AND (m.valid_until IS NULL OR m.valid_until > ${now})`);
  }
  if (filter.types.length) where.push(`m.type = ANY(${next([...filter.types])})`);
  return { where: where.join(' AND '), params };
}

async function rows<T>(scope: QueryScope, sql: string, params: unknown[]): Promise<T[]> {
  return (await scope.client.query(sql, params)).rows as T[];
}

export const searchQueries = {
  async holdingAll(scope: QueryScope, words: string[], limit: number): Promise<number> {
    const found = await rows<{ n: string }>(
      scope,
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM memories m WHERE m.repo_id = $1 AND ` +
        `m.search_vector @@ ${tsquery(2, true)} LIMIT $3) AS held`,
      [scope.repoId, words, limit],
    );
    return Number(found[0].n);
  },

  /** The best `fetch` rows by weighted rank among those passing the filter (ties: older row first). */
  async lexical(
    scope: QueryScope,
    words: string[],
    all: boolean,
    filter: RecallFilter,
    fetch: number,
  ): Promise<RankedRow[]> {
    const { where, params } = filterSql(filter, 4);
    const found = await rows<MemoryRow & { rank: number }>(
      scope,
      `SELECT m.id, ${ROW}, ts_rank(${RECALL_WEIGHTS}, m.search_vector, query.q) AS rank ` +
        `FROM memories m, (SELECT ${tsquery(2, all)} AS q) AS query ` +
        `WHERE m.repo_id = $1 AND m.search_vector @@ query.q AND ${where} ` +
        'ORDER BY rank DESC, m.id LIMIT $3',
      [scope.repoId, words, fetch, ...params],
    );
    // Lower is better, as SQLite's bm25 has it.
    return found.map(({ rank, ...row }) => ({ ...row, bm: -rank }));
  },

  async rows(scope: QueryScope, ids: number[], filter: RecallFilter): Promise<MemoryRow[]> {
    if (!ids.length) return [];
    const { where, params } = filterSql(filter, 3);
    return await rows<MemoryRow>(
      scope,
      `SELECT m.id, ${ROW} FROM memories m WHERE m.repo_id = $1 AND m.id = ANY($2) AND ${where}`,
      [scope.repoId, ids, ...params],
    );
  },

  /** The repository's newest row id and its row count, in one statement. */
  async size(scope: QueryScope): Promise<{ stamp: number; rows: number }> {
    const found = await rows<{ stamp: string; n: string }>(
      scope,
      'SELECT COALESCE(MAX(id), 0) AS stamp, COUNT(*) AS n FROM memories WHERE repo_id = $1',
      [scope.repoId],
    );
    return { stamp: Number(found[0].stamp), rows: Number(found[0].n) };
  },

  async stamp(scope: QueryScope): Promise<number> {
    const found = await rows<{ stamp: string }>(
      scope,
      'SELECT COALESCE(MAX(id), 0) AS stamp FROM memories WHERE repo_id = $1',
      [scope.repoId],
    );
    return Number(found[0].stamp);
  },

  /** How many rows (every version) hold each text as a phrase of its words. */
  async holding(scope: QueryScope, texts: string[]): Promise<number[]> {
    const found = await rows<{ n: string }>(
      scope,
      'SELECT (SELECT COUNT(*) FROM memories m WHERE m.repo_id = $1 AND ' +
        "m.search_vector @@ phraseto_tsquery('lore.english', t.text)) AS n " +
        'FROM unnest($2::text[]) WITH ORDINALITY AS t (text, ord) ORDER BY t.ord',
      [scope.repoId, texts],
    );
    return found.map((r) => Number(r.n));
  },

  async titleHolds(scope: QueryScope, a: string, b: string): Promise<boolean> {
    const found = await rows(
      scope,
      // The index finds the rows holding the phrase anywhere; ts_filter keeps the title's (weight A).
      "SELECT 1 FROM memories m, phraseto_tsquery('lore.english', $2) AS q WHERE m.repo_id = $1 AND " +
        "m.search_vector @@ q AND ts_filter(m.search_vector, '{a}') @@ q LIMIT 1",
      [scope.repoId, `${a} ${b}`],
    );
    return found.length > 0;
  },

  /** Live current rows of one type sharing title words, by their title's rank (a save's contradiction check). */
  async sameTypeByTitle(
    scope: QueryScope,
    words: string[],
    type: string,
    exceptKey: string,
    limit: number,
  ): Promise<MemoryRow[]> {
    return await rows<MemoryRow>(
      scope,
      `SELECT m.id, ${ROW} FROM memories m, (SELECT ${tsquery(2, false)} AS q) AS query ` +
        `WHERE m.repo_id = $1 AND m.search_vector @@ query.q AND m.is_current = 1 ` +
        `AND m.status IN ${LIVE_STATUSES_SQL} AND m.type = $3 AND m.key <> $4 ` +
        `ORDER BY ts_rank(${TITLE_WEIGHTS}, m.search_vector, query.q) DESC, m.id LIMIT $5`,
      [scope.repoId, words, type, exceptKey, limit],
    );
  },

  /** The live current dead ends' signature (changes when they do) and ids. */
  async deadEnds(scope: QueryScope): Promise<{ signature: string; ids: number[] }> {
    const found = await rows<{ id: string }>(
      scope,
      `SELECT id FROM memories WHERE repo_id = $1 AND is_current = 1 AND type = 'dead_end' ` +
        `AND status IN ${LIVE_STATUSES_SQL} ORDER BY id`,
      [scope.repoId],
    );
    const ids = found.map((r) => Number(r.id));
    return { signature: `${ids.length}:${ids.reduce((a, b) => a + b, 0)}`, ids };
  },

  async byIds(scope: QueryScope, ids: number[]): Promise<MemoryRow[]> {
    if (!ids.length) return [];
    return await rows<MemoryRow>(scope, `SELECT m.id, ${ROW} FROM memories m WHERE m.repo_id = $1 AND m.id = ANY($2)`, [
      scope.repoId,
      ids,
    ]);
  },
};

export type SearchQueries = typeof searchQueries;
