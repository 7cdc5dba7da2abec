// The arithmetic of vector search, with no store: a stored blob read as floats, the sign code of a
// vector around its model's centre, the k best scores by a bounded heap, and the nearest codes by a
// histogram of Hamming distances. vectors.ts keeps the tables; this keeps the maths testable alone.

/** `blob`, copied only when its bytes do not start on a 4-byte boundary (a typed array's need). */
export function aligned(blob: Uint8Array): Uint8Array {
  return blob.byteOffset % 4 === 0 ? blob : blob.slice();
}

export function floats(blob: Uint8Array): Float32Array {
  const bytes = aligned(blob);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** The sign code of `vector` around `centre`: bit d of word d/32 is set when vector[d] > centre[d]. */
export function signCode(vector: Float32Array, centre: Float32Array): Uint32Array {
  const code = new Uint32Array(Math.ceil(vector.length / 32));
  for (let d = 0; d < vector.length; d++) if (vector[d] > (centre[d] ?? 0)) code[d >>> 5] |= 1 << (d & 31);
  return code;
}

/**
 * The indexes of the `k` largest scores, best first (ties: lower index first), with a bounded
 * min-heap: O(n log k), never a sort of every score.
 */
export function topK(scores: ArrayLike<number>, k: number): number[] {
  const heap: number[] = [];
  // Worse = lower score, or the same score at a higher index.
  const worse = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  const down = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let min = at;
      if (l < heap.length && worse(heap[l], heap[min])) min = l;
      if (r < heap.length && worse(heap[r], heap[min])) min = r;
      if (min === at) return;
      [heap[at], heap[min]] = [heap[min], heap[at]];
      at = min;
    }
  };
  for (let i = 0; i < scores.length && k > 0; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at], heap[parent])) break;
        [heap[at], heap[parent]] = [heap[parent], heap[at]];
        at = parent;
      }
    } else if (worse(heap[0], i)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/**
 * The `count` smallest distances' indexes (ties: lower index), by a histogram over 0..maxDistance
 * (counted here unless the caller has it: how many distances are 0, 1, ...).
 */
export function nearestByDistance(
  distances: Uint16Array,
  count: number,
  maxDistance: number,
  counted?: Uint32Array,
): number[] {
  if (count >= distances.length) return [...distances.keys()];
  let histogram = counted;
  if (!histogram) {
    histogram = new Uint32Array(maxDistance + 2);
    for (let i = 0; i < distances.length; i++) histogram[distances[i]]++;
  }
  let cut = 0;
  for (let seen = 0; cut <= maxDistance; cut++) {
    seen += histogram[cut];
    if (seen >= count) break;
  }
  const out: number[] = [];
  for (let i = 0; i < distances.length; i++) if (distances[i] < cut) out.push(i);
  for (let i = 0; i < distances.length && out.length < count; i++) if (distances[i] === cut) out.push(i);
  return out;
}

/**
 * Candidates re-ranked by exact cosine: at least MIN_CANDIDATES, and CANDIDATES_PER_HIT per hit asked
 * for. Reading a candidate's vector is a random read of the store (about 20 µs), which is what a
 * search mostly costs; on clustered vectors 4 per hit already hold the exact top 10
 * (test/unit/vectors.test.ts, bench/vectorBench.ts). Every store's vector search takes this many.
 */
const MIN_CANDIDATES = 200;
const CANDIDATES_PER_HIT = 4;

/** How many codes nearest the query's go on to the exact re-rank, for `k` hits. */
export function candidatesFor(k: number): number {
  return Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_HIT);
}

/** The cosine of two unit vectors: their dot product (0 when their lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d] * b[d];
  return dot;
}

/** The element-wise mean of equal-length vectors. */
export function mean(vectors: Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]?.length ?? 0);
  for (const v of vectors) for (let d = 0; d < out.length; d++) out[d] += v[d] / vectors.length;
  return out;
}

/** The bytes of elements from..to of a typed array, without a copy. */
export function bytes(array: Int32Array | Uint32Array | Uint8Array, from: number, to: number): Uint8Array {
  const size = array.BYTES_PER_ELEMENT;
  return new Uint8Array(array.buffer, array.byteOffset + from * size, (to - from) * size);
}
