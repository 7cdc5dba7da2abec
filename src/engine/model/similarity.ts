// How alike two records are: cosine similarity of field-weighted stem vectors (the stems search
// uses), and the "substance" of a record — what it says, normalised — whose equality makes an exact
// duplicate. Thresholds are named here so the scans and session close agree on them.

import type { Memory } from './types';
import { digestOf } from './digest';
import { stem, terms } from '../text/words';

/** Cosine at or above which two records of one type say the same thing (a near duplicate). */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;
/** Cosine at or above which two records on one anchor are about the same thing (a conflict when they differ). */
export const SAME_TOPIC_SIMILARITY = 0.35;

/** Field weights, like recall's: a shared title says more than a shared word in a body. */
const FIELD_WEIGHTS = { title: 3, description: 2, body: 1, tags: 1 } as const;

export type TermVector = Map<string, number>;

export type Comparable = Pick<Memory, 'title' | 'description' | 'body' | 'tags'>;

export function termVector(m: Comparable): TermVector {
  const vector: TermVector = new Map();
  const add = (text: string, weight: number) => {
    for (const t of terms(text)) {
      const s = stem(t);
      vector.set(s, (vector.get(s) ?? 0) + weight);
    }
  };
  add(m.title, FIELD_WEIGHTS.title);
  add(m.description, FIELD_WEIGHTS.description);
  add(m.body, FIELD_WEIGHTS.body);
  add(m.tags.join(' '), FIELD_WEIGHTS.tags);
  return vector;
}

export function cosine(a: TermVector, b: TermVector): number {
  if (!a.size || !b.size) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [s, w] of small) dot += w * (large.get(s) ?? 0);
  if (dot === 0) return 0;
  return dot / (norm(a) * norm(b));
}

function norm(v: TermVector): number {
  let sum = 0;
  for (const w of v.values()) sum += w * w;
  return Math.sqrt(sum);
}

/** Stems both vectors share, heaviest first: evidence a person can read. */
export function sharedTerms(a: TermVector, b: TermVector, limit = 8): string[] {
  return [...a.keys()]
    .filter((s) => b.has(s))
    .sort((x, y) => b.get(y)! + a.get(y)! - (b.get(x)! + a.get(x)!))
    .slice(0, limit);
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * What a record says, independent of its key and bookkeeping (times, basis, confidence): two live
 * records with the same substance are exact duplicates. Case and runs of whitespace do not count;
 * list order does not either.
 */
export function substanceDigest(
  m: Pick<Memory, 'type' | 'title' | 'description' | 'body' | 'links' | 'anchors' | 'tags' | 'scope' | 'fact_key'>,
): string {
  return digestOf({
    type: m.type,
    title: collapse(m.title),
    description: collapse(m.description),
    body: collapse(m.body),
    links: [...m.links].sort(),
    anchors: [...m.anchors].sort(),
    tags: [...m.tags].sort(),
    scope: m.scope,
    fact_key: m.fact_key,
  });
}

/** The file an anchor names (`path#symbol` → `path`), the unit conflicts are grouped by. */
export function anchorPath(anchor: string): string {
  const hash = anchor.indexOf('#');
  return (hash >= 0 ? anchor.slice(0, hash) : anchor).replace(/^\.\//, '');
}

const NEGATIONS = /\b(not|never|don't|do not|avoid|stop|must not|shouldn't|should not|no longer|against)\b/i;

/** Whether a record's title or description is phrased as a negation ("do not…", "avoid…"). */
export function negated(m: Pick<Memory, 'title' | 'description'>): boolean {
  return NEGATIONS.test(`${m.title} ${m.description}`);
}
