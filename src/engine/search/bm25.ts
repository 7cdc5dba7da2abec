// Recall's own lexical score: BM25F over the candidates FTS5 found, with one idf for the whole
// store (memories and document chunks counted together) and Lucene's idf, which never reaches
// zero. FTS5 only finds and pre-orders candidates: its bm25 floors a word found in half of a
// small table to ~0 (so in a young store one rare word decides), and memories and chunks are two
// tables with their own statistics, so their bm25 values are not on one scale (in a store of
// 50k chunks every document word looks rarer than the same word among memories).

import type { SqlDatabase } from '../ports';
import type { MemorySearchPort } from '../record/memorySearch';
import { sqliteMemorySearch } from './memorySearch';
import { ftsQuery, stem, words } from '../text/words';

/** One field of a candidate: its text, its weight, and how much its length dampens a match. */
export interface Field {
  text: string;
  weight: number;
  /** BM25's b: 0 for short labels (a title), up to 0.75 for running text. */
  b: number;
  /** The typical length (tokens) a field of this kind has; longer ones are dampened by b. */
  typical: number;
  /** A label (title, heading): neighbouring query words found neighbouring here score as a phrase. */
  label?: boolean;
}

const K1 = 1.2;

// Candidates' texts repeat their words: each word is stemmed once per process (bounded).
const SETTLED_LIMIT = 50_000;
const settled = new Map<string, string>();

/**
 * text.ts's light stem, applied until it settles, so "migrations", "migrating" and "migration"
 * meet as FTS5's porter stemmer has them meet (it found the candidates by that).
 */
export function matchStem(word: string): string {
  let known = settled.get(word);
  if (known === undefined) {
    if (settled.size >= SETTLED_LIMIT) settled.clear();
    known = settle(word);
    settled.set(word, known);
  }
  return known;
}

function settle(word: string): string {
  let current = word;
  for (let i = 0; i < 3; i++) {
    const next = stem(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Long bodies are scored on their beginning: enough for evidence, bounded per query. */
const FIELD_CHARS = 4000;

/** Stem counts and token count of one field text. */
interface Counted {
  counts: Map<string, number>;
  length: number;
  /** A label's neighbouring stems, "a b" (empty for running text). */
  pairs: Set<string>;
}

function count(text: string, label: boolean): Counted {
  const all = words(text.slice(0, FIELD_CHARS));
  const counts = new Map<string, number>();
  const pairs = new Set<string>();
  let previous: string | undefined;
  for (const w of all) {
    const s = matchStem(w);
    counts.set(s, (counts.get(s) ?? 0) + 1);
    if (label && previous !== undefined) pairs.add(`${previous} ${s}`);
    previous = s;
  }
  return { counts, length: all.length, pairs };
}

const COUNT_CACHE_LIMIT = 20_000;
const countCache = new Map<string, Counted[]>();

/** Field counts of an immutable text (a version, a chunk), remembered by a key naming it. */
function countedFields(key: string, fields: Field[]): Counted[] {
  let cached = countCache.get(key);
  if (!cached) {
    if (countCache.size >= COUNT_CACHE_LIMIT) countCache.clear();
    cached = fields.map((f) => count(f.text, f.label === true));
    countCache.set(key, cached);
  }
  return cached;
}

/** Lucene's idf: ln(1 + (N − df + 0.5) / (df + 0.5)); a word in every record still counts a little. */
export function idf(total: number, df: number): number {
  return Math.log(1 + (Math.max(total, df) - df + 0.5) / (df + 0.5));
}

const PRIOR_RECORDS = 20;
const PRIOR_SHARE = 0.1;

interface Frequencies {
  docGeneration: string;
  memoryStamp: number;
  chunks: number;
  memories: number;
  byTerm: Map<string, { chunks: number; memories: number }>;
}

const frequencies = new WeakMap<object, Frequencies>();
/** Below this many memory rows, document frequencies are recounted after every change. */
const EXACT_MEMORY_ROWS = 2000;
/** Above it, after the store grew by this share (a few saves barely move an idf). */
const MEMORY_DRIFT = 0.02;

/** The counts of one pair of stores: the docs index (db) and wherever memories are (`memories`). */
function store(db: SqlDatabase, memories: MemorySearchPort): Frequencies {
  const docGeneration =
    db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'index.last_index'")?.value ?? '';
  // The stamp moves on every save, and stands in for the row count.
  const memoryStamp = memories.stamp();
  let known = frequencies.get(memories);
  const memoriesMoved =
    !known ||
    (known.memoryStamp !== memoryStamp &&
      (memoryStamp < EXACT_MEMORY_ROWS ||
        Math.abs(memoryStamp - known.memoryStamp) > MEMORY_DRIFT * known.memoryStamp));
  if (!known || known.docGeneration !== docGeneration || memoriesMoved) {
    const sameIndex = known && known.docGeneration === docGeneration;
    const chunks = sameIndex ? known!.chunks : (db.get<{ n: number }>('SELECT COUNT(*) AS n FROM doc_chunks')?.n ?? 0);
    const rows = memoriesMoved ? memories.rowCount() : known!.memories;
    known = { docGeneration, memoryStamp, chunks, memories: rows, byTerm: new Map() };
    frequencies.set(memories, known);
  }
  return known;
}

/** The words a query is scored on, each with its stem and its idf in this store. */
export interface WeightedTerm {
  word: string;
  stem: string;
  idf: number;
}

/** How many chunks and memories hold each of `texts` (a word, or a phrase "a b"): counted once per store state. */
function documentFrequencies(
  db: SqlDatabase,
  memories: MemorySearchPort,
  known: Frequencies,
  texts: readonly string[],
): Array<{ chunks: number; memories: number }> {
  const missing = [...new Set(texts.filter((t) => !known.byTerm.has(t)))];
  if (missing.length) {
    const inMemories = known.memories ? memories.holding(missing) : missing.map(() => 0);
    missing.forEach((text, i) => {
      // A phrase is one quoted FTS5 string: its words in order, next to each other.
      const match = text.includes(' ') ? `"${text.replace(/"/g, '""')}"` : ftsQuery(text);
      const table = 'doc_fts';
      const chunks = known.chunks
        ? (db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table} MATCH ?`, [match])?.n ?? 0)
        : 0;
      known.byTerm.set(text, { chunks, memories: inMemories[i] });
    });
  }
  return texts.map((t) => known.byTerm.get(t)!);
}

/** The chunks in the index, and for each word how many of them hold it (the counts recall's idf uses). */
export function chunkFrequencies(db: SqlDatabase): { chunks: number; holding(word: string): number } {
  const memories = sqliteMemorySearch(db);
  const known = store(db, memories);
  return { chunks: known.chunks, holding: (word) => documentFrequencies(db, memories, known, [word])[0].chunks };
}

/** A neighbouring pair of query words, with its stems and the idf of the pair as a phrase. */
export interface WeightedPhrase {
  stems: string;
  idf: number;
}

/**
 * Each query phrase's weight: what finding its words together says beyond its rarer word, the
 * phrase's idf less the larger of its words' idfs (the words already score on their own). Two
 * common words that are rare together ("Terraform Cloud" in an infrastructure repository) weigh
 * much; two rare words that always come together ("fluentd-cloudwatch") add little.
 */
export function weightedPhrases(
  db: SqlDatabase,
  memories: MemorySearchPort,
  phrases: Array<[string, string]>,
): WeightedPhrase[] {
  const known = store(db, memories);
  const total = known.chunks + known.memories + PRIOR_RECORDS;
  // Counted in one request: a shared store answers over the network.
  documentFrequencies(
    db,
    memories,
    known,
    phrases.flatMap(([a, b]) => [`${a} ${b}`, a, b]),
  );
  const idfOf = (text: string) => {
    const [df] = documentFrequencies(db, memories, known, [text]);
    return idf(total, df.chunks + df.memories + PRIOR_RECORDS * PRIOR_SHARE);
  };
  return phrases
    .map(([a, b]) => ({
      stems: `${matchStem(a)} ${matchStem(b)}`,
      idf: idfOf(`${a} ${b}`) - Math.max(idfOf(a), idfOf(b)),
    }))
    .filter((p) => p.idf > 0);
}

/**
 * The phrase part of a candidate's score: each query phrase found in a label (title, heading),
 * weighted by the label's weight, saturated like a word, times the phrase's idf. It is added to
 * the words' BM25F, so a title that names "Terraform Cloud" outranks text that has both words apart.
 */
export function phraseScore(phrases: WeightedPhrase[], key: string, fields: Field[]): number {
  if (!phrases.length) return 0;
  const counted = countedFields(key, fields);
  let score = 0;
  for (const phrase of phrases) {
    let tf = 0;
    fields.forEach((field, i) => {
      if (field.label && counted[i].pairs.has(phrase.stems)) tf += field.weight;
    });
    if (tf > 0) score += (phrase.idf * tf * (K1 + 1)) / (tf + K1);
  }
  return score;
}

/** Each query word's idf over memories and chunks together. */
export function weightedTerms(db: SqlDatabase, memories: MemorySearchPort, words: string[]): WeightedTerm[] {
  const known = store(db, memories);
  documentFrequencies(db, memories, known, words);
  const seen = new Set<string>();
  const out: WeightedTerm[] = [];
  for (const word of words) {
    const s = matchStem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    const [df] = documentFrequencies(db, memories, known, [word]);
    // A handful of records says little about how rare a word is: the counts are smoothed with
    // PRIOR_RECORDS pseudo-records holding each word at PRIOR_SHARE, which a large store outweighs.
    const total = known.chunks + known.memories + PRIOR_RECORDS;
    out.push({ word, stem: s, idf: idf(total, df.chunks + df.memories + PRIOR_RECORDS * PRIOR_SHARE) });
  }
  return out;
}

/**
 * BM25F of one candidate: each word's weighted, length-normalised frequency over the fields,
 * saturated once (so a word repeated in the body cannot outweigh another word in the title), times
 * its idf. `key` names the immutable text, so a candidate is tokenised once.
 */
export function bm25f(terms: WeightedTerm[], key: string, fields: Field[]): number {
  const counted = countedFields(key, fields);
  let score = 0;
  for (const term of terms) {
    let tf = 0;
    fields.forEach((field, i) => {
      const n = counted[i].counts.get(term.stem);
      if (n) tf += (field.weight * n) / (1 - field.b + (field.b * counted[i].length) / field.typical);
    });
    if (tf > 0) score += (term.idf * tf * (K1 + 1)) / (tf + K1);
  }
  return score;
}

/** The stems of a candidate's fields (for coverage), from the same tokenisation. */
export function fieldStems(key: string, fields: Field[]): Set<string> {
  const out = new Set<string>();
  for (const c of countedFields(key, fields)) for (const s of c.counts.keys()) out.add(s);
  return out;
}
