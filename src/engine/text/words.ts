// Text analysis for queries: terms, stop words, a light stemmer for comparing texts, and the
// FTS5 query built from them (each term quoted, so user text can never inject FTS syntax).

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our should so than that the their them then there these they this to was we were ' +
    'what when where which while who why will with would you your about after before should shall may might ' +
    'must also any all some such only own same too very just over under again further once here both each few ' +
    'more most other nor off out up down use using used'
  ).split(/\s+/),
);

const MAX_QUERY_TERMS = 32;

/** Lowercased words of two or more characters (letters, digits), accents folded, in order: every word. */
export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[\p{L}\p{N}]{2,}/gu) ?? []
  );
}

/** A text's words with stop words removed, in order, unique. */
export function terms(text: string): string[] {
  return [...new Set(words(text).filter((w) => !STOP_WORDS.has(w)))];
}

/**
 * The suffix rules, in order: the first whose result keeps three letters wins, then a final "e"
 * goes. Plain suffix tests, not regular expressions: recall stems every word of every candidate.
 */
const SUFFIX_RULES: ReadonlyArray<readonly [suffix: string, replacement: string]> = [
  ['ies', 'y'],
  ['sses', 'ss'],
  ['s', ''], // not after another s ("class" keeps its s)
  ['ing', ''],
  ['ed', ''],
  ['ation', 'at'],
  ['ly', ''],
];

const withoutFinalE = (word: string): string => (word.endsWith('e') ? word.slice(0, -1) : word);

/** A deliberately light suffix stripper: enough to match "migrations" with "migrating" for resemblance. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const [suffix, replacement] of SUFFIX_RULES) {
    if (!word.endsWith(suffix) || (suffix === 's' && word.endsWith('ss'))) continue;
    const stemmed = word.slice(0, word.length - suffix.length) + replacement;
    if (stemmed.length >= 3) return withoutFinalE(stemmed);
  }
  return withoutFinalE(word);
}

export function stems(text: string): Set<string> {
  return new Set(terms(text).map(stem));
}

/**
 * An FTS5 MATCH expression: any (or, with `all`, every) one of the terms, each quoted. Empty when the text has no
 * terms.
 */
/** The words of a query that count: terms() capped at MAX_QUERY_TERMS. */
export function queryTerms(text: string): string[] {
  return terms(text).slice(0, MAX_QUERY_TERMS);
}

export function ftsQuery(text: string, all = false): string {
  return queryTerms(text)
    .map((t) => `"${t.replace(/"/g, '""')}"`)
    .join(all ? ' AND ' : ' OR ');
}

/** How many two-word phrases a query is scored on. */
const MAX_QUERY_PHRASES = 8;

/**
 * The query's two-word phrases: neighbouring words that both count ("Terraform Cloud", "node
 * pool"), in order, unique. A stop word between two words breaks the phrase.
 */
export function queryPhrases(text: string): Array<[string, string]> {
  const all = words(text);
  const seen = new Set<string>();
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < all.length && out.length < MAX_QUERY_PHRASES; i++) {
    const [a, b] = [all[i], all[i + 1]];
    if (STOP_WORDS.has(a) || STOP_WORDS.has(b) || a === b || seen.has(`${a} ${b}`)) continue;
    seen.add(`${a} ${b}`);
    out.push([a, b]);
  }
  return out;
}

/** Share of `probe`'s stems found in `target` (0..1). */
export function coverage(probe: Set<string>, target: Set<string>): number {
  if (probe.size === 0) return 0;
  let hits = 0;
  for (const s of probe) if (target.has(s)) hits++;
  return hits / probe.size;
}

const STEM_CACHE_LIMIT = 20_000;
const stemCache = new Map<string, Set<string>>();

/** stems() of an immutable text (a version's fields, a chunk), remembered by a key that names it. */
export function cachedStems(key: string, text: () => string): Set<string> {
  let cached = stemCache.get(key);
  if (!cached) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    cached = stems(text());
    stemCache.set(key, cached);
  }
  return cached;
}
