// Vector search over the current model's vectors without holding them: each stored vector has a
// sign code beside it (one bit a dimension, of the vector minus a per-model centre), and only the
// codes are kept in memory (48 bytes a vector for 384 dimensions, a 32nd of the floats). A search
// ranks every code by Hamming distance to the query's (a histogram picks the nearest, nothing is
// sorted), then reads the full vectors of those candidates from the store and ranks them by
// exact cosine. Embeddings share a large common direction (the mean of a MiniLM-shaped model's
// vectors has norm 0.98), so codes are taken around the model's centre, fixed when its first
// vectors are stored; raw signs would all agree.
//
// Codes are reloaded only when the store's vector generation changes. They come from packed pages
// (vector_code_pages: a few blobs, 8,192 codes each) written by the first search after the
// vectors changed, so a one-shot process reads no vector rows; without pages, from the rows, a
// page of rows at a time, and the pages are written then. Vectors are unit length: the dot
// product is the cosine.

import type { SqlDatabase } from '../ports';
import { HammingCodes } from './hammingKernel';
import { aligned, bytes, candidatesFor, cosine, floats, mean, nearestByDistance, signCode, topK } from './vectorMath';

export { nearestByDistance, signCode, topK } from './vectorMath';
import { codeBlob, memoryVectorSeal, vectorRowProblems, type MemoryVectorRow } from './vectorSeal';
import type { Signer } from './signatures';

export { codeBlob, memoryVectorSeal, vectorRowProblems, type MemoryVectorRow } from './vectorSeal';

export interface VectorHit {
  table: 'chunk' | 'memory';
  id: number;
  score: number;
}

/** Vectors a centre is averaged from, when it is computed from stored vectors. */
const CENTRE_SAMPLE = 1000;
const PAGE = 4096;
/** Ids per `IN (...)` when candidates' vectors are read. */
const READ_CHUNK = 500;

const TABLES = [
  { table: 'chunk' as const, name: 'chunk_vectors', id: 'chunk_id' },
  { table: 'memory' as const, name: 'memory_vectors', id: 'memory_id' },
];

export const CENTRE_PREFIX = 'index.vector_centre.';

function centreKey(model: string): string {
  return `${CENTRE_PREFIX}${model}`;
}

/** The model's centre, or undefined before any of its vectors is stored. */
export function readCentre(db: SqlDatabase, model: string): Float32Array | undefined {
  const value = db.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [centreKey(model)])?.value;
  return value ? Float32Array.from(JSON.parse(value) as number[]) : undefined;
}

function writeCentre(db: SqlDatabase, model: string, centre: Float32Array): void {
  // JSON keeps a float32 exactly: it round-trips through a double.
  const value = JSON.stringify(Array.from(centre));
  db.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [
    centreKey(model),
    value,
  ]);
}

/** The model's centre; the first vectors stored for it (or already stored, from before codes) fix it. */
export function centreFor(db: SqlDatabase, model: string, fresh: Float32Array[]): Float32Array {
  const known = readCentre(db, model);
  if (known) return known;
  const stored = TABLES.flatMap((t) =>
    db
      .all<{ vector: Uint8Array }>(`SELECT vector FROM ${t.name} WHERE model = ? LIMIT ?`, [model, CENTRE_SAMPLE])
      .map((r) => floats(r.vector)),
  );
  const centre = mean([...stored, ...fresh].slice(0, CENTRE_SAMPLE));
  writeCentre(db, model, centre);
  return centre;
}

/** Codes for vectors stored before codes existed (schema 9), computed once and written back. */
function backfillCodes(db: SqlDatabase, model: string): void {
  const missing = TABLES.some((t) =>
    db.get(`SELECT 1 FROM ${t.name} WHERE model = ? AND code IS NULL LIMIT 1`, [model]),
  );
  if (!missing) return;
  db.transaction(() => {
    const centre = centreFor(db, model, []);
    for (const t of TABLES) {
      for (;;) {
        const rows = db.all<{ id: number; vector: Uint8Array }>(
          `SELECT ${t.id} AS id, vector FROM ${t.name} WHERE model = ? AND code IS NULL LIMIT ?`,
          [model, PAGE],
        );
        if (!rows.length) break;
        for (const row of rows)
          db.run(`UPDATE ${t.name} SET code = ? WHERE ${t.id} = ? AND model = ?`, [
            codeBlob(floats(row.vector), centre),
            row.id,
            model,
          ]);
      }
    }
  });
}

/** Codes a packed page holds (384-bit codes: 393 KB a page, 31 pages at 250k vectors). */
const CODES_PER_PAGE = 8192;
/** Pages read by one statement (3 MB of codes at 384 dimensions). */
const PAGES_PER_READ = 8;

/**
 * Writes the model's codes as packed pages for the next process that searches. A store that
 * cannot be written (read only, or busy) keeps none: the next search reads the rows again.
 */
function savePages(
  db: SqlDatabase,
  model: string,
  count: number,
  words: number,
  ids: Int32Array,
  tables: Uint8Array,
  codes: Uint32Array,
): void {
  if (!count || !words) return;
  try {
    db.transaction(() => {
      db.run('DELETE FROM vector_code_pages WHERE model = ?', [model]);
      for (let page = 0, at = 0; at < count; page++, at += CODES_PER_PAGE) {
        const end = Math.min(count, at + CODES_PER_PAGE);
        db.run('INSERT INTO vector_code_pages (model, page, ids, tables, codes) VALUES (?, ?, ?, ?, ?)', [
          model,
          page,
          bytes(ids, at, end),
          bytes(tables, at, end),
          bytes(codes, at * words, end * words),
        ]);
      }
    });
  } catch {
    // Derived data only: searching works the same without it.
  }
}

export class VectorCache {
  private key = '';
  private count = 0;
  private words = 0;
  /** The codes, in the Hamming kernel's memory. */
  private codes: HammingCodes | undefined;
  private ids = new Int32Array(0);
  /** 0 chunk, 1 memory. */
  private tables = new Uint8Array(0);
  private centre: Float32Array | undefined;

  private load(db: SqlDatabase, model: string): void {
    const generation =
      db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'index.vector_generation'")?.value ?? '0';
    const key = `${model}@${generation}`;
    if (key === this.key) return;
    if (!this.loadPages(db, model)) {
      // Pages are written by a process's first load only: a long-lived one that reloads is
      // following an index as it embeds, and the next batch would drop them again.
      const first = this.key === '';
      const codes = this.loadRows(db, model);
      if (first) savePages(db, model, this.count, this.words, this.ids, this.tables, codes);
      this.codes = new HammingCodes(this.count, this.words);
      this.codes.fill(codes.subarray(0, this.count * this.words), 0);
    }
    // After the rows: codes written for vectors from before codes existed fix the centre.
    this.centre = readCentre(db, model);
    this.key = key;
  }

  /** The packed pages of the model's codes, when they are current (any write to its vectors drops them). */
  private loadPages(db: SqlDatabase, model: string): boolean {
    // Sizes first, then a few pages at a time: never every page's blobs at once beside the arrays.
    const pages = db.all<{ page: number; n: number; idBytes: number; codeBytes: number }>(
      'SELECT page, length(tables) AS n, length(ids) AS idBytes, length(codes) AS codeBytes ' +
        'FROM vector_code_pages WHERE model = ? ORDER BY page',
      [model],
    );
    if (!pages.length || !pages[0].n) return false;
    const words = pages[0].codeBytes / 4 / pages[0].n;
    const sound = pages.every((p, i) => p.page === i && p.idBytes === p.n * 4 && p.codeBytes === p.n * words * 4);
    if (!sound || !Number.isInteger(words)) return false;
    const total = pages.reduce((n, p) => n + p.n, 0);
    const codes = new HammingCodes(total, words);
    const ids = new Int32Array(total);
    const tables = new Uint8Array(total);
    let at = 0;
    // A few pages a statement: each statement outside a transaction takes and drops the store's lock.
    for (let first = 0; first < pages.length; first += PAGES_PER_READ) {
      const rows = db.all<{ page: number; ids: Uint8Array; tables: Uint8Array; codes: Uint8Array }>(
        'SELECT page, ids, tables, codes FROM vector_code_pages WHERE model = ? AND page >= ? AND page < ? ' +
          'ORDER BY page',
        [model, first, first + PAGES_PER_READ],
      );
      for (const [i, row] of rows.entries()) {
        const n = pages[first + i]?.n;
        if (row.page !== first + i || row.tables.byteLength !== n) return false;
        ids.set(new Int32Array(aligned(row.ids).buffer, aligned(row.ids).byteOffset, n), at);
        tables.set(row.tables, at);
        codes.fill(new Uint32Array(aligned(row.codes).buffer, aligned(row.codes).byteOffset, n * words), at);
        at += n;
      }
    }
    if (at !== total) return false;
    this.count = total;
    this.words = words;
    this.codes = codes;
    this.ids = ids;
    this.tables = tables;
    return true;
  }

  /** Every code from the vector tables, a page of rows at a time (returned: the codes, one after another). */
  private loadRows(db: SqlDatabase, model: string): Uint32Array {
    backfillCodes(db, model);
    const total = TABLES.reduce(
      (n, t) => n + (db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.name} WHERE model = ?`, [model])?.n ?? 0),
      0,
    );
    this.words = 0;
    this.count = 0;
    let codes = new Uint32Array(0);
    this.ids = new Int32Array(total);
    this.tables = new Uint8Array(total);
    TABLES.forEach((t, which) => {
      // Paged by rowid, so no more than PAGE rows are ever held as objects.
      for (let after = -1; ;) {
        const rows = db.all<{ rowid: number; id: number; code: Uint8Array }>(
          `SELECT rowid, ${t.id} AS id, code FROM ${t.name} WHERE model = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
          [model, after, PAGE],
        );
        for (const row of rows) {
          if (!this.words) {
            this.words = row.code.byteLength / 4;
            codes = new Uint32Array(total * this.words);
          }
          if (this.count >= total || row.code.byteLength !== this.words * 4) continue;
          codes.set(new Uint32Array(row.code.slice().buffer), this.count * this.words);
          this.ids[this.count] = row.id;
          this.tables[this.count++] = which;
        }
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1].rowid;
      }
    });
    return codes;
  }

  size(db: SqlDatabase, model: string): number {
    this.load(db, model);
    return this.count;
  }

  /** Bytes held for the current model's vectors (their codes and ids). */
  heldBytes(): number {
    return (this.codes?.byteLength ?? 0) + this.ids.byteLength + this.tables.byteLength;
  }

  search(db: SqlDatabase, model: string, query: Float32Array, k: number): VectorHit[] {
    this.load(db, model);
    if (!this.count || !this.centre || query.length !== this.centre.length) return [];
    const probe = signCode(query, this.centre);
    const { distances, histogram } = this.codes!.distances(probe);
    const candidates = nearestByDistance(distances, candidatesFor(k), this.words * 32, histogram);
    const hits: VectorHit[] = [];
    TABLES.forEach((t, which) => {
      const ids = candidates.filter((c) => this.tables[c] === which).map((c) => this.ids[c]);
      for (let at = 0; at < ids.length; at += READ_CHUNK) {
        const part = ids.slice(at, at + READ_CHUNK);
        const rows = db.all<{ id: number; vector: Uint8Array }>(
          `SELECT ${t.id} AS id, vector FROM ${t.name} WHERE model = ? AND ` +
            `${t.id} IN (${part.map(() => '?').join(', ')})`,
          [model, ...part],
        );
        for (const row of rows) {
          const vector = floats(row.vector);
          if (vector.length !== query.length) continue;
          hits.push({ table: t.table, id: row.id, score: cosine(vector, query) });
        }
      }
    });
    // A fixed order first, so that equal scores rank the same way every time.
    hits.sort((a, b) => (a.table === b.table ? a.id - b.id : a.table < b.table ? -1 : 1));
    return topK(
      hits.map((h) => h.score),
      k,
    ).map((i) => hits[i]);
  }
}

/** Deletes the vectors of these memory rows (a forgotten key's versions). */
export function deleteMemoryVectors(db: SqlDatabase, ids: readonly number[]): void {
  for (let i = 0; i < ids.length; i += READ_CHUNK) {
    const chunk = ids.slice(i, i + READ_CHUNK);
    db.run(`DELETE FROM memory_vectors WHERE memory_id IN (${chunk.map(() => '?').join(', ')})`, [...chunk]);
  }
}

// Sealed vectors: a memory version's embedding ranks it in the semantic half of recall, so each is
// sealed as stored (seal.ts: model, dimensions and the vector's digest, by this store's machine), and
// its sign code must be the one its vector gives around the model's centre. `lore doctor` reports a
// vector that does not hold; the repair drops it, and the next index embeds the version again.

/** Seals a memory version's vector as it was just stored. */
export function sealMemoryVector(
  db: SqlDatabase,
  signer: Signer,
  storeId: string,
  memoryId: number,
  model: string,
): void {
  const row = db.get<MemoryVectorRow>('SELECT * FROM memory_vectors WHERE memory_id = ? AND model = ?', [
    memoryId,
    model,
  ]);
  if (!row) return;
  const seal = memoryVectorSeal(signer, storeId, memoryId, model, row);
  db.run(
    'UPDATE memory_vectors SET sealed = ?, seal_signature = ?, seal_signer = ? WHERE memory_id = ? AND model = ?',
    [seal.sealed, seal.signature, seal.signer, memoryId, model],
  );
}

/** Seals every memory vector as it stands (migration 15), once. */
export function sealEveryMemoryVector(db: SqlDatabase, signer: Signer, storeId: string): number {
  const rows = db.all<{ memory_id: number; model: string }>('SELECT memory_id, model FROM memory_vectors');
  for (const row of rows) sealMemoryVector(db, signer, storeId, row.memory_id, row.model);
  return rows.length;
}

/** Each memory vector that does not hold its seal, or whose sign code is not its vector's, with why. */
export function memoryVectorProblems(
  db: SqlDatabase,
  storeId: string,
  verify: (signer: string, payload: string, signature: string) => boolean,
): Array<{ memory_id: number; model: string; reason: string }> {
  const rows = db.all<MemoryVectorRow>('SELECT * FROM memory_vectors ORDER BY memory_id, model');
  return vectorRowProblems(rows, storeId, verify, (model) => readCentre(db, model));
}

/** Drops a memory version's vector (a person's repair): the next index embeds the version again. */
export function dropMemoryVector(db: SqlDatabase, memoryId: number, model: string): void {
  db.run('DELETE FROM memory_vectors WHERE memory_id = ? AND model = ?', [memoryId, model]);
}
