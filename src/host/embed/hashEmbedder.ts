// A deterministic, dependency-free Embedder: feature hashing of a bag of lightly stemmed words
// (with adjacent-word pairs at half weight) into `dims` signed buckets, sublinear term
// frequency, L2-normalised. Texts sharing words get similar vectors; nothing else is "understood".
// For tests that need vectors fast and for hosts configured to use it; never the default.

import type { Embedder } from '../../engine/embed/embedder';

/** Lowercased words of letters and digits, accents folded. */
function words(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A small suffix stripper so "migrations", "migrating" and "migrated" share a feature. */
export function hashStem(word: string): string {
  if (word.length <= 3) return word;
  const rules: Array<[RegExp, string]> = [
    [/ies$/, 'y'],
    [/(ss)es$/, '$1'],
    [/([^su])s$/, '$1'],
    [/ing$/, ''],
    [/ed$/, ''],
    [/ation$/, 'at'],
    [/ly$/, ''],
  ];
  for (const [pattern, replacement] of rules) {
    if (pattern.test(word)) {
      const stemmed = word.replace(pattern, replacement);
      if (stemmed.length >= 3) return stemmed.replace(/e$/, '');
    }
  }
  return word.replace(/e$/, '');
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
