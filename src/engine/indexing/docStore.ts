// The index's tables: the content-hash catalog of documents, their chunks and chunk vectors.

import type { SqlDatabase } from '../ports';
import { CENTRE_PREFIX, codeBlob } from '../record/vectors';
import { memoryEmbeddingText } from '../record/memorySearch';
import type { Chunk } from './chunk';
import type { DocKind } from '../model/kinds';

export interface CatalogEntry {
  id: number;
  path: string;
  content_hash: string;
  size: number;
  mtime_ms: number;
}

export interface DocRecord {
  path: string;
  kind: DocKind;
  /** The classifier's probability of `kind` (1, a kind by definition, when absent). */
  kindConfidence?: number;
  /** A close runner-up kind (kindModel.ts closeRunnerUp), else null. */
  kindRunnerUp?: DocKind | null;
  /** The signals that decided the kind, in plain words. */
  kindSignals?: string[];
  /** The page's own reading before its siblings were weighed (kindSiblings.ts), JSON; null for a rule's kind. */
  kindOwn?: string | null;
  title: string;
  contentHash: string;
  size: number;
  mtimeMs: number;
  redactions: number;
  chunks: Chunk[];
}

export function catalog(db: SqlDatabase): Map<string, CatalogEntry> {
  return new Map(
    db.all<CatalogEntry>('SELECT id, path, content_hash, size, mtime_ms FROM docs').map((e) => [e.path, e]),
  );
}

export function deleteDoc(db: SqlDatabase, id: number): void {
  db.run('DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM doc_chunks WHERE doc_id = ?)', [id]);
  db.run('DELETE FROM doc_chunks WHERE doc_id = ?', [id]);
  db.run('DELETE FROM docs WHERE id = ?', [id]);
}

/** Writes a document and its chunks, replacing whatever was stored at that path. */
export function putDoc(db: SqlDatabase, doc: DocRecord, now: string): void {
  const existing = db.get<{ id: number }>('SELECT id FROM docs WHERE path = ?', [doc.path]);
  if (existing) deleteDoc(db, existing.id);
  const id = db.run(
    'INSERT INTO docs (path, kind, kind_confidence, kind_runner_up, kind_signals, kind_own, title, content_hash, ' +
      'size, mtime_ms, redactions, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      doc.path,
      doc.kind,
      doc.kindConfidence ?? 1,
      doc.kindRunnerUp ?? null,
      doc.kindSignals?.length ? doc.kindSignals.join('; ') : null,
      doc.kindOwn ?? null,
      doc.title,
      doc.contentHash,
      doc.size,
      doc.mtimeMs,
      doc.redactions,
      now,
    ],
  ).lastInsertRowid;
  // Several chunks a statement: each statement's run is a round trip into SQLite's WebAssembly, and
  // a bulk index writes a hundred thousand chunks. Rows go in order, so ids and the FTS rows are as one by one.
  for (let from = 0; from < doc.chunks.length; from += CHUNK_ROWS_PER_INSERT) {
    const rows = doc.chunks.slice(from, from + CHUNK_ROWS_PER_INSERT);
    db.run(
      insertChunks(rows.length),
      rows.flatMap((chunk, i) => [id, from + i, doc.title, chunk.heading, chunk.startLine, chunk.endLine, chunk.text]),
    );
  }
}

const CHUNK_ROWS_PER_INSERT = 16;
const CHUNK_INSERTS = Array.from(
  { length: CHUNK_ROWS_PER_INSERT + 1 },
  (_, n) =>
    'INSERT INTO doc_chunks (doc_id, ord, title, heading, start_line, end_line, text) VALUES ' +
    Array(n).fill('(?, ?, ?, ?, ?, ?, ?)').join(', '),
);
const insertChunks = (rows: number) => CHUNK_INSERTS[rows];

/** A rename is a new path for the same content: chunks and vectors stay, nothing is re-embedded. */
export function renameDoc(db: SqlDatabase, id: number, path: string, mtimeMs: number, now: string): void {
  db.run('UPDATE docs SET path = ?, mtime_ms = ?, indexed_at = ? WHERE id = ?', [path, mtimeMs, now, id]);
}

/** A stored document as the kinds' second pass reads it (indexing/kindSiblings.ts). */
export interface StoredKind {
  id: number;
  path: string;
  kind: DocKind;
  kind_confidence: number | null;
  kind_runner_up: DocKind | null;
  kind_signals: string | null;
  kind_own: string | null;
}

/** A document's kind, confidence, runner-up and signals as the second pass decided them. */
export interface KindUpdate {
  id: number;
  path: string;
  kind: DocKind;
  confidence: number;
  runnerUp: DocKind | null;
  signals: string | null;
}

/** Every document's kind as stored, with its own reading: what the kinds' second pass weighs. */
export function kindStates(db: SqlDatabase): StoredKind[] {
  return db.all<StoredKind>(
    'SELECT id, path, kind, kind_confidence, kind_runner_up, kind_signals, kind_own FROM docs ORDER BY path',
  );
}

/** A document's kind as the second pass decided it; its chunks stay (a prose kind chunks alike). */
export function updateKind(db: SqlDatabase, u: KindUpdate): void {
  db.run('UPDATE docs SET kind = ?, kind_confidence = ?, kind_runner_up = ?, kind_signals = ? WHERE id = ?', [
    u.kind,
    u.confidence,
    u.runnerUp,
    u.signals,
    u.id,
  ]);
}

export function touchDoc(db: SqlDatabase, id: number, mtimeMs: number): void {
  db.run('UPDATE docs SET mtime_ms = ? WHERE id = ?', [mtimeMs, id]);
}

export interface PendingText {
  table: 'chunk' | 'memory';
  id: number;
  text: string;
}

/** Chunks and current memories that have no vector from `model` yet. */
export function pendingEmbeddings(db: SqlDatabase, model: string, limit: number): PendingText[] {
  const chunks = db.all<{ id: number; text: string; title: string; heading: string }>(
    `SELECT c.id, c.text, c.title, c.heading FROM doc_chunks c
     WHERE NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model = ?) LIMIT ?`,
    [model, limit],
  );
  const out: PendingText[] = chunks.map((c) => ({
    table: 'chunk',
    id: c.id,
    text: `${c.title}\n${c.heading}\n${c.text}`,
  }));
  if (out.length < limit) {
    const memories = db.all<{ id: number; title: string; description: string; body: string }>(
      `SELECT m.id, m.title, m.description, m.body FROM memories m
       WHERE m.is_current = 1
         AND NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = ?) LIMIT ?`,
      [model, limit - out.length],
    );
    out.push(...memories.map((m) => ({ table: 'memory' as const, id: m.id, text: memoryEmbeddingText(m) })));
  }
  return out;
}

export function countPending(db: SqlDatabase, model: string): number {
  const chunks =
    db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM doc_chunks c WHERE NOT EXISTS (SELECT ' +
        '1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model = ?)',
      [model],
    )?.n ?? 0;
  const memories =
    db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM memories m WHERE m.is_current = 1 AND ' +
        'NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_id = ' +
        'm.id AND v.model = ?)',
      [model],
    )?.n ?? 0;
  return chunks + memories;
}

/** Stores a vector with its sign code around the model's centre (search/vectors.ts). */
export function storeVector(
  db: SqlDatabase,
  item: PendingText,
  model: string,
  vector: Float32Array,
  centre: Float32Array,
): void {
  const blob = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  const code = codeBlob(vector, centre);
  if (item.table === 'chunk') {
    db.run('INSERT OR REPLACE INTO chunk_vectors (chunk_id, model, dims, vector, code) VALUES (?, ?, ?, ?, ?)', [
      item.id,
      model,
      vector.length,
      blob,
      code,
    ]);
  } else {
    db.run('INSERT OR REPLACE INTO memory_vectors (memory_id, model, dims, vector, code) VALUES (?, ?, ?, ?, ?)', [
      item.id,
      model,
      vector.length,
      blob,
      code,
    ]);
  }
}

/** Vectors of models other than the current one are never compared; a model change drops them. */
export function dropOtherModels(db: SqlDatabase, model: string): number {
  const a = db.run('DELETE FROM chunk_vectors WHERE model <> ?', [model]).changes;
  const b = db.run('DELETE FROM memory_vectors WHERE model <> ?', [model]).changes;
  db.run('DELETE FROM meta WHERE name LIKE ? AND name <> ?', [`${CENTRE_PREFIX}%`, `${CENTRE_PREFIX}${model}`]);
  return a + b;
}

export interface IndexCounts {
  files: number;
  chunks: number;
  redactions: number;
  by_kind: Record<string, number>;
}

export function indexCounts(db: SqlDatabase): IndexCounts {
  const kinds = db.all<{ kind: string; n: number; r: number }>(
    'SELECT kind, COUNT(*) AS n, SUM(redactions) AS r FROM docs GROUP BY kind',
  );
  return {
    files: kinds.reduce((n, k) => n + k.n, 0),
    chunks: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM doc_chunks')?.n ?? 0,
    redactions: kinds.reduce((n, k) => n + (k.r ?? 0), 0),
    by_kind: Object.fromEntries(kinds.map((k) => [k.kind, k.n])),
  };
}
