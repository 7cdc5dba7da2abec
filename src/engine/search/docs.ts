// Document candidates for recall: the best-matching chunk of each document, lexically (FTS5 over
// doc title 4, heading path 2, chunk text 1) and by vector.

import type { SqlDatabase } from '../ports';
import type { DocKind } from '../index/kinds';
import { ftsQuery } from './text';

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
  bm?: number;
  cosine?: number;
}

const COLUMNS = 'c.id AS chunkId, d.path, d.kind, d.title, c.heading, c.start_line AS startLine, c.end_line AS endLine, c.text, d.indexed_at AS indexedAt, d.content_hash AS contentHash';

/**
 * The best lexical chunk per document. As for memories: FTS5 ranks chunk ids alone (no join per
 * match), then only the top ids are read; when enough chunks hold every query word, those are the
 * candidates, so bm25 need not score every chunk that shares one common word.
 */
export function lexicalDocs(db: SqlDatabase, query: string, kinds: string[], fetch: number): DocCandidate[] {
  const window = fetch * 3;
  const every = ftsQuery(query, true);
  const any = ftsQuery(query);
  const enough = every !== any && (db.get<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM doc_fts WHERE doc_fts MATCH ? LIMIT ?)', [every, window * 2])?.n ?? 0) >= window * 2;
  const match = enough ? every : any;
  const kindFilter = kinds.length ? `AND d.kind IN (${kinds.map(() => '?').join(', ')})` : '';
  for (let size = window; ; size *= 4) {
    const ranked = db.all<{ id: number; bm: number }>('SELECT rowid AS id, bm25(doc_fts, 4.0, 2.0, 1.0) AS bm FROM doc_fts WHERE doc_fts MATCH ? ORDER BY bm LIMIT ?', [match, size]);
    if (!ranked.length) return [];
    const bm = new Map(ranked.map((r) => [r.id, r.bm]));
    const rows = db
      .all<DocCandidate>(`SELECT ${COLUMNS} FROM doc_chunks c JOIN docs d ON d.id = c.doc_id WHERE c.id IN (${ranked.map(() => '?').join(', ')}) ${kindFilter}`, [...ranked.map((r) => r.id), ...kinds])
      .map((row) => ({ ...row, bm: bm.get(row.chunkId) }));
    const best = bestPerDoc(rows, (a, b) => (a.bm ?? 0) < (b.bm ?? 0));
    // A kind filter can drop most of the window: widen it until enough documents remain.
    if (!kinds.length || best.length >= fetch || ranked.length < size) return best;
  }
}

export function docsByChunk(db: SqlDatabase, chunkIds: number[], kinds: string[]): DocCandidate[] {
  if (!chunkIds.length) return [];
  const kindFilter = kinds.length ? `AND d.kind IN (${kinds.map(() => '?').join(', ')})` : '';
  return db.all<DocCandidate>(
    `SELECT ${COLUMNS} FROM doc_chunks c JOIN docs d ON d.id = c.doc_id WHERE c.id IN (${chunkIds.map(() => '?').join(', ')}) ${kindFilter}`,
    [...chunkIds, ...kinds],
  );
}

export function bestPerDoc(rows: DocCandidate[], better: (a: DocCandidate, b: DocCandidate) => boolean): DocCandidate[] {
  const best = new Map<string, DocCandidate>();
  for (const row of rows) {
    const seen = best.get(row.path);
    if (!seen || better(row, seen)) best.set(row.path, row);
  }
  return [...best.values()];
}

/** A one-line description of where in the document the match is. */
export function docDescription(doc: DocCandidate): string {
  const firstLine = doc.text.split('\n').map((l) => l.replace(/^[#>*\-\s]+/, '').trim()).find((l) => l.length > 20) ?? '';
  // The top heading is usually the title itself; the description says where below it.
  const heading = doc.heading.startsWith(doc.title) ? doc.heading.slice(doc.title.length).replace(/^\s*>\s*/, '') : doc.heading;
  const where = heading ? `${heading}: ` : '';
  const line = `${where}${firstLine}`;
  return line.length > 300 ? `${line.slice(0, 297)}…` : line;
}
