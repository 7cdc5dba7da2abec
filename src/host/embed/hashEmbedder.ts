// A deterministic, dependency-free Embedder: feature hashing of a bag of lightly stemmed words
// (with adjacent-word pairs at half weight) into `dims` signed buckets, sublinear term
// frequency, L2-normalised. Texts sharing words get similar vectors; nothing else is "understood".
// For tests that need vectors fast and for hosts configured to use it; never the default.

import type { Embedder } from '../../engine/embed/embedder';

const STOP_WORDS = new Set(
  'a an and are as at be been but by for from has have in is it its of on or that the this to was were will with'.split(' '),
);

/** Lowercased words of letters and digits, accents folded, common function words dropped. */
function words(text: string): string[] {
  const all = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
  return all.filter((w) => !STOP_WORDS.has(w));
}

/** A small suffix stripper so "migrations", "migrating", "migrated" and "migrate" share a feature. */
export function hashStem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  for (const [suffix, replacement] of [['ation', 'at'], ['ing', ''], ['ed', ''], ['ly', ''], ['ment', '']] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class HashEmbedder implements Embedder {
  readonly modelId: string;

  constructor(readonly dims = 256) {
    if (!Number.isInteger(dims) || dims < 2) throw new Error(`HashEmbedder needs at least 2 integer dims, got ${dims}`);
    this.modelId = `hash-v1-${dims}`;
  }

  /** One text's vector, synchronously. */
  embedOne(text: string): Float32Array {
    const stems = words(text).map(hashStem);
    // Features: each stem, and each adjacent pair (a space inside marks a pair); counts per text.
    const counts = new Map<string, number>();
    const add = (feature: string): void => {
      counts.set(feature, (counts.get(feature) ?? 0) + 1);
    };
    stems.forEach((s, i) => {
      add(s);
      if (i > 0) add(`${stems[i - 1]} ${s}`);
    });
    // Texts without words (empty, punctuation only) share one fixed direction.
    if (counts.size === 0) counts.set('\u0000empty', 1);
    const v = new Float32Array(this.dims);
    for (const [feature, count] of counts) {
      const h = fnv1a(feature);
      const sign = h & 0x80000000 ? -1 : 1;
      const weight = feature.includes(' ') ? 0.5 : 1;
      v[h % this.dims] += sign * weight * (1 + Math.log(count));
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm === 0) {
      // Features cancelled out exactly: fall back to the first feature's bucket.
      v[fnv1a([...counts.keys()][0]) % this.dims] = 1;
      return v;
    }
    for (let i = 0; i < v.length; i++) v[i] /= norm;
    return v;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const text of texts) {
      if (signal?.aborted) throw new DOMException('The embedding was cancelled', 'AbortError');
      out.push(this.embedOne(text));
    }
    return out;
  }

  async close(): Promise<void> {}
}
