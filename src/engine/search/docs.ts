// Document candidates for recall: the best-matching chunk of each document, lexically (FTS5 over
// doc title 4, heading path 2, chunk text 1) and by vector.

import type { SqlDatabase } from '../ports';
import type { DocKind } from '../model/kinds';
import { chunkFrequencies } from './bm25';
import { ftsQuery, queryTerms } from '../text/words';

export interface DocCandidate {
  chunkId: number;
  path: string;
  kind: DocKind;
  title: string;
  heading: string;
  startLine: number;
  endLine: number;
  text: string;
  indexedAt: string;
  contentHash: string;
  /** A close runner-up kind: a kind filter takes the document for it too (a borderline one). */
  kindRunnerUp: DocKind | null;
  bm?: number;
  cosine?: number;
}

const COLUMNS =
  'c.id AS chunkId, d.path, d.kind, d.title, c.heading, ' +
  'c.start_line AS startLine, c.end_line AS endLine, c.text, ' +
  'd.indexed_at AS indexedAt, d.content_hash AS contentHash, d.kind_runner_up AS kindRunnerUp';

/**
 * A kind filter's SQL: documents of those kinds, and borderline ones whose close runner-up is one
 * of them (recall ranks those after the documents of the kind). Its parameters are the kinds twice.
 */
function kindFilterOf(kinds: string[]): { sql: string; params: string[] } {
  if (!kinds.length) return { sql: '', params: [] };
  const list = kinds.map(() => '?').join(', ');
  return { sql: `AND (d.kind IN (${list}) OR d.kind_runner_up IN (${list}))`, params: [...kinds, ...kinds] };
}

/** Above this many chunks, words found in more than PRUNE_SHARE of them stop generating candidates. */
const PRUNE_MIN_CHUNKS = 5000;
const PRUNE_SHARE = 0.1;

/**
 * The query's rarer words, when the index is large and some words are common: chunks are found by
 * the words that tell them apart (a word in a tenth of all chunks adds little evidence) and then
 * scored on the whole query. Null when every word counts.
 */
function rarerWords(db: SqlDatabase, query: string): string | null {
  const words = queryTerms(query);
  const known = chunkFrequencies(db);
  if (known.chunks < PRUNE_MIN_CHUNKS || words.length < 2) return null;
  const df = known.holding;
  const rare = words.filter((w) => df(w) <= PRUNE_SHARE * known.chunks);
  if (rare.length === words.length) return null;
  return ftsQuery((rare.length ? rare : [[...words].sort((a, b) => df(a) - df(b))[0]]).join(' '));
}

/**
 * The best lexical chunk per document. As for memories: FTS5 ranks chunk ids alone (no join per
 * match), then only the top ids are read. Candidates are the chunks holding every query word when
 * there are enough of them, else those holding the query's rarer words (in a large index), else
 * any word; candidates found by fewer words are scored on the whole query all the same.
 */
export function lexicalDocs(db: SqlDatabase, query: string, kinds: string[], fetch: number): DocCandidate[] {
  const window = fetch * 3;
  const every = ftsQuery(query, true);
  const any = ftsQuery(query);
  const enough =
    every !== any &&
    (db.get<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM doc_fts WHERE doc_fts MATCH ? LIMIT ?)', [
      every,
      window * 2,
    ])?.n ?? 0) >=
      window * 2;
  const narrower = enough ? null : rarerWords(db, query);
  const match = enough ? every : (narrower ?? any);
  const kindFilter = kindFilterOf(kinds);
  for (let size = window; ; size *= 4) {
    let ranked = db.all<{ id: number; bm: number }>(
      'SELECT rowid AS id, bm25(doc_fts, 4.0, 2.0, 1.0) AS bm FROM doc_fts WHERE doc_fts MATCH ? ORDER BY bm LIMIT ?',
      [match, size],
    );
    if (!ranked.length) return [];
    if (narrower) {
      // The whole query's bm25 for those candidates only: the scan of its matches is cheap, scoring is not.
      // (+rowid keeps the id list from becoming one FTS5 lookup per id.)
      ranked = db.all<{ id: number; bm: number }>(
        `SELECT rowid AS id, bm25(doc_fts, 4.0, 2.0, 1.0) AS bm FROM ` +
          `doc_fts WHERE doc_fts MATCH ? AND +rowid IN ` +
          `(${ranked.map(() => '?').join(', ')})`,
        [any, ...ranked.map((r) => r.id)],
      );
    }
    const bm = new Map(ranked.map((r) => [r.id, r.bm]));
    const rows = db
      .all<DocCandidate>(
        `SELECT ${COLUMNS} FROM doc_chunks c JOIN docs d ON d.id = ` +
          `c.doc_id WHERE c.id IN (${ranked.map(() => '?').join(', ')}) ` +
          `${kindFilter.sql}`,
        [...ranked.map((r) => r.id), ...kindFilter.params],
      )
      .map((row) => ({ ...row, bm: bm.get(row.chunkId) }));
    const best = bestPerDoc(rows, (a, b) => (a.bm ?? 0) < (b.bm ?? 0));
    // A kind filter can drop most of the window: widen it until enough documents remain.
    if (!kinds.length || best.length >= fetch || ranked.length < size) return best;
  }
}

export function docsByChunk(db: SqlDatabase, chunkIds: number[], kinds: string[]): DocCandidate[] {
  if (!chunkIds.length) return [];
  const kindFilter = kindFilterOf(kinds);
  return db.all<DocCandidate>(
    `SELECT ${COLUMNS} FROM doc_chunks c JOIN docs d ON d.id = ` +
      `c.doc_id WHERE c.id IN (${chunkIds.map(() => '?').join(', ')}) ` +
      `${kindFilter.sql}`,
    [...chunkIds, ...kindFilter.params],
  );
}

export function bestPerDoc(
  rows: DocCandidate[],
  better: (a: DocCandidate, b: DocCandidate) => boolean,
): DocCandidate[] {
  const best = new Map<string, DocCandidate>();
  for (const row of rows) {
    const seen = best.get(row.path);
    if (!seen || better(row, seen)) best.set(row.path, row);
  }
  return [...best.values()];
}
