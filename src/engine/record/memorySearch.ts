// What recall and a save's warnings ask of the store that holds memories: full-text candidates
// (title 4, description 2, tags 2, body 1, as SQLite's FTS5 bm25 weights them), the counts recall's
// idf is made of, rows by id, and the nearest vectors. SQLite answers from its FTS5 index and
// vector codes (search/memorySearch.ts); PostgreSQL from its weighted tsvector and its own vector
// codes (host/store/postgres/). Scoring stays in the engine (search/bm25.ts), so both stores rank
// the candidates they find the same way.

import type { MemoryRow } from './rows';
import type { MemoryVectorRow } from './vectors';

/** Which memory rows recall may return: live current ones now, or what was valid at `asOf`. */
export interface RecallFilter {
  asOf: string | null;
  now: string;
  types: readonly string[];
}

/** A candidate with the store's own rank of it (lower is better); recall rescores it. */
export type RankedRow = MemoryRow & { bm: number };

export interface MemoryVectorHit {
  id: number;
  score: number;
}

/** The text a memory version is embedded from, on every store. */
export function memoryEmbeddingText(m: Pick<MemoryRow, 'title' | 'description' | 'body'>): string {
  return `${m.title}\n${m.description}\n${m.body}`;
}

/**
 * Where a store that keeps memories' vectors itself takes them from the indexer: the current
 * versions with no vector of a model yet, and the vectors made for them (each stored with its sign
 * code around the model's centre and its seal, record/vectors.ts's rules).
 */
export interface MemoryVectorWrites {
  pending(model: string, limit: number): Array<{ id: number; text: string }>;
  countPending(model: string): number;
  store(model: string, items: ReadonlyArray<{ id: number; vector: Float32Array }>): void;
  /** Every stored vector with its seal, its memory's key and version, and each model's centre (`lore doctor`). */
  sealedRows(): SealedVectorRows;
  /** Drops one vector (a person's repair): the next index embeds that version again. */
  drop(memoryId: number, model: string): void;
}

/** A store's memory vectors as `lore doctor` checks them (record/vectors.ts vectorRowProblems). */
export interface SealedVectorRows {
  rows: Array<MemoryVectorRow & { key: string; version: number }>;
  centres: Record<string, Float32Array>;
}

/** The live, current dead ends a save is compared with (record/deadEnds.ts). */
export interface DeadEndSource {
  /** A value that changes whenever the set of live dead ends does. */
  signature(): string;
  ids(): number[];
  /** Rows by id (the fields a comparison needs, or every field). */
  rows(ids: readonly number[]): MemoryRow[];
}

export interface MemorySearchPort {
  /** The live dead ends, where the store keeps them itself (SQLite's are read by record/deadEnds.ts). */
  deadEnds?: DeadEndSource;
  /** How many rows (any version) hold every one of `words`, counted up to `limit`. */
  holdingAll(words: readonly string[], limit: number): number;
  /** The best `fetch` rows that pass `filter` and hold any (or, with `all`, every) of `words`. */
  lexical(words: readonly string[], all: boolean, filter: RecallFilter, fetch: number): RankedRow[];
  /** The rows of `ids` that pass `filter`. */
  rows(ids: readonly number[], filter: RecallFilter): MemoryRow[];
  /** A number that moves whenever a memory row is written (cheap: read before every recall). */
  stamp(): number;
  /** How many memory rows there are, every version counted (what the FTS index holds). */
  rowCount(): number;
  /** How many rows hold each text: a word, or two words as a phrase ("a b"). */
  holding(texts: readonly string[]): number[];
  /** Whether some current title holds the two words as a phrase. */
  titleHolds(a: string, b: string): boolean;
  /** The live current rows of `type` sharing title words with `title`, best first (a save's warnings). */
  sameTypeByTitle(title: readonly string[], type: string, exceptKey: string, limit: number): MemoryRow[];
  /** The nearest memory vectors of `model` to `query` (cosine), or undefined where vectors live elsewhere. */
  nearest?(model: string, query: Float32Array, k: number): MemoryVectorHit[];
  /** Present with `nearest`: the indexer embeds the store's memories through it. */
  vectors?: MemoryVectorWrites;
}
