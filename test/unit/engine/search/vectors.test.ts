// Vector search: top-k selection without a full sort, and the sign-code index (search/vectors.ts)
// on a real SQLite store — it ranks what an exact search ranks, holds codes rather than vectors,
// and gives vectors stored before codes existed theirs; the WebAssembly Hamming kernel counts
// what counting bits one by one counts.

import { strict as assert } from 'node:assert';
import { prng } from '../../../../scripts/prng';
import { putDoc, storeVector } from '../../../../src/engine/indexing/docStore';
import { bumpVectorGeneration } from '../../../../src/engine/indexing/indexer';
import { HammingCodes } from '../../../../src/engine/record/hammingKernel';
import { centreFor, nearestByDistance, readCentre, topK, VectorCache } from '../../../../src/engine/record/vectors';
import { confirmedPerson, memory, openTestStore, type TestStore } from '../../../support/store';
import type { SqlDatabase } from '../../../../src/engine/ports';

const MODEL = 'test-model@q8#000000000000';
const DIMS = 384;

/**
 * Unit vectors that share one large common direction, as a sentence model's do, in `topics`
 * groups (texts on one subject lie closer to each other than to the rest).
 */
function anisotropic(count: number, seed: number, topics = count): Float32Array[] {
  const random = prng(seed);
  const noise = () => Float32Array.from({ length: DIMS }, () => random() - 0.5);
  const common = noise();
  const subjects = Array.from({ length: topics }, noise);
  return Array.from({ length: count }, (_, i) => {
    const subject = subjects[i % topics];
    const own = noise();
    return unit(Float32Array.from(common, (c, d) => 4 * c + subject[d] + 0.3 * own[d]));
  });
}

function unit(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d] * b[d];
  return s;
}

/** Stores `vectors` as the chunks of one document, the way the indexer does (codes around the centre). */
function storeChunks(s: TestStore, vectors: Float32Array[]): number[] {
  const chunks = vectors.map((_, i) => ({ heading: `h${i}`, startLine: i + 1, endLine: i + 1, text: `chunk ${i}` }));
  s.db.transaction(() =>
    putDoc(
      s.db,
      { path: 'doc.md', kind: 'guide', title: 'doc', contentHash: 'x', size: 1, mtimeMs: 1, redactions: 0, chunks },
      '2026-01-01T00:00:00.000Z',
    ),
  );
  const ids = s.db.all<{ id: number }>('SELECT id FROM doc_chunks ORDER BY ord').map((r) => r.id);
  s.db.transaction(() => {
    for (let at = 0; at < vectors.length; at += 32) {
      const batch = vectors.slice(at, at + 32);
      const centre = centreFor(s.db, MODEL, batch);
      batch.forEach((v, i) => storeVector(s.db, { table: 'chunk', id: ids[at + i], text: '' }, MODEL, v, centre));
    }
  });
  bumpVectorGeneration({ db: s.db } as never);
  return ids;
}

function exactTop(vectors: Float32Array[], ids: number[], query: Float32Array, k: number): number[] {
  return ids
    .map((id, i) => ({ id, score: dot(vectors[i], query) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k)
    .map((h) => h.id);
}

describe('vector search', () => {
  describe('topK', () => {
    it("equals a full sort's top k on random scores, ties included, best first", () => {
      const random = prng(7);
      for (const [n, k] of [
        [0, 5],
        [1, 5],
        [10, 3],
        [1000, 10],
        [5000, 100],
        [50, 50],
        [50, 80],
      ]) {
        // Rounded so that ties occur; a tie goes to the lower index.
        const scores = Float32Array.from({ length: n }, () => Math.round(random() * 200) / 200);
        const sorted = [...scores.keys()].sort((a, b) => scores[b] - scores[a] || a - b).slice(0, k);
        assert.deepEqual(topK(scores, k), sorted, `n=${n} k=${k}`);
      }
    });

    it('nearestByDistance picks the smallest distances a sort would pick', () => {
      const random = prng(9);
      const distances = Uint16Array.from({ length: 3000 }, () => Math.floor(random() * 385));
      const want = [...distances.keys()].sort((a, b) => distances[a] - distances[b] || a - b).slice(0, 250);
      assert.deepEqual(
        nearestByDistance(distances, 250, 384).sort((a, b) => a - b),
        want.sort((a, b) => a - b),
      );
      assert.equal(nearestByDistance(distances, 5000, 384).length, 3000);
    });
  });

  describe('the Hamming kernel (WebAssembly)', () => {
    const bits = (x: number) => {
      let n = 0;
      for (let v = x >>> 0; v; v >>>= 1) n += v & 1;
      return n;
    };
    it('gives every code the distance counting bits one by one gives, with their histogram, for any width', () => {
      const random = prng(21);
      const word = () => Math.floor(random() * 2 ** 32) >>> 0;
      for (const words of [1, 3, 12, 24]) {
        const count = 997;
        const codes = Uint32Array.from({ length: count * words }, word);
        const probe = Uint32Array.from({ length: words }, word);
        const kernel = new HammingCodes(count, words);
        kernel.fill(codes.subarray(0, 500 * words), 0);
        kernel.fill(codes.subarray(500 * words), 500);
        const { distances, histogram } = kernel.distances(probe);
        const expected = Array.from({ length: count }, (_, i) => {
          let d = 0;
          for (let w = 0; w < words; w++) d += bits(codes[i * words + w] ^ probe[w]);
          return d;
        });
        assert.deepEqual(Array.from(distances), expected, `${words} words`);
        const counts = new Array(words * 32 + 1).fill(0);
        for (const d of expected) counts[d]++;
        assert.deepEqual(Array.from(histogram.subarray(0, words * 32 + 1)), counts, `${words} words`);
        // A second query starts from a clean histogram.
        assert.equal(
          kernel.distances(probe).histogram.reduce((a, b) => a + b, 0),
          count,
        );
      }
      assert.equal(new HammingCodes(0, 12).distances(new Uint32Array(12)).distances.length, 0);
    });
  });

  describe('the sign-code index on a store', () => {
    let s: TestStore;
    beforeEach(() => (s = openTestStore()));
    afterEach(() => s.cleanup());

    it('ranks the same answers as an exact search on a small fixture', () => {
      const vectors = anisotropic(300, 1);
      const ids = storeChunks(s, vectors);
      const cache = new VectorCache();
      for (const query of anisotropic(12, 2)) {
        const hits = cache.search(s.db, MODEL, query, 10);
        assert.deepEqual(
          hits.map((h) => h.id),
          exactTop(vectors, ids, query, 10),
        );
        assert.ok(hits.every((h) => h.table === 'chunk'));
        assert.ok(
          Math.abs(hits[0].score - Math.max(...vectors.map((v) => dot(v, query)))) < 1e-6,
          'scores are exact cosines',
        );
      }
    });

    it('finds the exact top 10 among 5,000 vectors on 100 subjects while holding only their codes', () => {
      const vectors = anisotropic(5000, 3, 100);
      const ids = storeChunks(s, vectors);
      const random = prng(4);
      const cache = new VectorCache();
      assert.equal(cache.size(s.db, MODEL), 5000);
      for (let q = 0; q < 20; q++) {
        // A question near one stored chunk, as a paraphrase is.
        const near = vectors[Math.floor(random() * vectors.length)];
        const query = unit(near.map((x) => x + (random() - 0.5) * 0.02));
        assert.deepEqual(
          cache.search(s.db, MODEL, query, 10).map((h) => h.id),
          exactTop(vectors, ids, query, 10),
        );
      }
      // 384 bits, an id and a table tag per vector: under a twentieth of the floats.
      assert.ok(cache.heldBytes() < (5000 * DIMS * 4) / 20, `held ${cache.heldBytes()} bytes`);
    });

    it('the centre is the mean of the first vectors stored, and is kept for the model', () => {
      const vectors = anisotropic(64, 5);
      storeChunks(s, vectors);
      const centre = readCentre(s.db, MODEL)!;
      const first = vectors.slice(0, 32);
      for (const d of [0, 100, 383]) assert.ok(Math.abs(centre[d] - first.reduce((n, v) => n + v[d], 0) / 32) < 1e-6);
    });

    it('gives vectors stored before codes existed (schema 8) their codes on the first search', () => {
      const vectors = anisotropic(200, 6);
      const ids = storeChunks(s, vectors);
      s.db.run('UPDATE chunk_vectors SET code = NULL');
      s.db.run("DELETE FROM meta WHERE name LIKE 'index.vector_centre.%'");
      const query = anisotropic(1, 7)[0];
      const hits = new VectorCache().search(s.db, MODEL, query, 5);
      assert.deepEqual(
        hits.map((h) => h.id),
        exactTop(vectors, ids, query, 5),
      );
      assert.equal(s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM chunk_vectors WHERE code IS NULL')!.n, 0);
      assert.ok(readCentre(s.db, MODEL), 'the centre is computed from the stored vectors');
    });

    it('reloads when the vector generation changes: a new vector is found', () => {
      const vectors = anisotropic(50, 8);
      storeChunks(s, vectors.slice(0, 40));
      const cache = new VectorCache();
      assert.equal(cache.size(s.db, MODEL), 40);
      const extra = vectors[45];
      const id = s.db.get<{ id: number }>('SELECT id FROM doc_chunks ORDER BY ord DESC LIMIT 1')!.id;
      s.db.transaction(() =>
        storeVector(s.db, { table: 'chunk', id, text: '' }, MODEL, extra, readCentre(s.db, MODEL)!),
      );
      bumpVectorGeneration({ db: s.db } as never);
      assert.equal(cache.search(s.db, MODEL, extra, 1)[0].id, id);
      const pages = s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vector_code_pages')!.n;
      assert.equal(pages, 0, 'a process that reloads while an index embeds leaves the pages to a first load');
    });

    it('a new process reads the codes from packed pages, never a vector row, and ranks the same', () => {
      const vectors = anisotropic(3000, 10, 60);
      storeChunks(s, vectors);
      const queries = anisotropic(8, 11);
      const first = new VectorCache();
      const before = queries.map((q) => first.search(s.db, MODEL, q, 10));
      const pages = s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vector_code_pages WHERE model = ?', [MODEL])!;
      assert.equal(pages.n, 1, '3,000 codes fit one page');
      const statements: string[] = [];
      // The store, with every statement it is handed written down.
      const watched = Object.create(s.db) as SqlDatabase;
      for (const name of ['get', 'all', 'run'] as const)
        watched[name] = ((sql: string, params?: never) => {
          statements.push(sql);
          return s.db[name](sql, params);
        }) as never;
      const second = new VectorCache();
      assert.equal(second.size(watched, MODEL), 3000);
      const scans = statements.filter((sql) => /FROM (chunk|memory)_vectors/.test(sql));
      assert.deepEqual(scans, [], 'no statement reads the vector tables to load the codes');
      assert.deepEqual(
        queries.map((q) => second.search(s.db, MODEL, q, 10)),
        before,
      );
    });

    it('codes over several pages come back in their order', () => {
      // 32 dimensions (one word a code) keep 20,000 vectors quick to store; 8,192 codes a page.
      const random = prng(14);
      const vectors = Array.from({ length: 20000 }, () =>
        unit(Float32Array.from({ length: 32 }, () => random() - 0.5)),
      );
      const chunks = vectors.map((_, i) => ({ heading: '', startLine: i + 1, endLine: i + 1, text: `c${i}` }));
      s.db.transaction(() =>
        putDoc(
          s.db,
          { path: 'big.md', kind: 'guide', title: 'big', contentHash: 'y', size: 1, mtimeMs: 1, redactions: 0, chunks },
          '2026-01-01T00:00:00.000Z',
        ),
      );
      const ids = s.db.all<{ id: number }>('SELECT id FROM doc_chunks ORDER BY ord').map((r) => r.id);
      s.db.transaction(() => {
        const centre = centreFor(s.db, MODEL, vectors.slice(0, 32));
        vectors.forEach((v, i) => storeVector(s.db, { table: 'chunk', id: ids[i], text: '' }, MODEL, v, centre));
      });
      bumpVectorGeneration({ db: s.db } as never);
      const queries = vectors.filter((_, i) => i % 4999 === 0);
      const rowsCache = new VectorCache();
      const fromRows = queries.map((q) => rowsCache.search(s.db, MODEL, q, 5));
      assert.equal(s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vector_code_pages')!.n, 3);
      const fromPages = new VectorCache();
      assert.equal(fromPages.size(s.db, MODEL), 20000);
      assert.deepEqual(
        queries.map((q) => fromPages.search(s.db, MODEL, q, 5)),
        fromRows,
      );
      queries.forEach((q, i) => assert.equal(fromRows[i][0].id, ids[vectors.indexOf(q)], 'a vector finds itself'));
    });

    it("any write to a model's vectors drops its pages; the next search finds the vector and writes them", () => {
      const vectors = anisotropic(60, 12);
      storeChunks(s, vectors.slice(0, 50));
      const pages = () =>
        s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vector_code_pages WHERE model = ?', [MODEL])!.n;
      new VectorCache().size(s.db, MODEL);
      assert.equal(pages(), 1);
      const id = s.db.get<{ id: number }>('SELECT id FROM doc_chunks ORDER BY ord DESC LIMIT 1')!.id;
      s.db.transaction(() =>
        storeVector(s.db, { table: 'chunk', id, text: '' }, MODEL, vectors[55], readCentre(s.db, MODEL)!),
      );
      assert.equal(pages(), 0, 'a vector stored drops the pages');
      bumpVectorGeneration({ db: s.db } as never);
      assert.equal(new VectorCache().search(s.db, MODEL, vectors[55], 1)[0].id, id);
      assert.equal(pages(), 1);
      s.db.run('DELETE FROM chunk_vectors WHERE chunk_id = ?', [id]);
      assert.equal(pages(), 0, 'a vector deleted drops the pages');
    });

    it("forgetting a memory drops the pages that held its vector's code", () => {
      const key = s.engine.remember(confirmedPerson, memory()).key;
      const row = s.db.get<{ id: number }>('SELECT id FROM memories WHERE key = ?', [key])!;
      const [vector] = anisotropic(1, 13);
      s.db.transaction(() =>
        storeVector(s.db, { table: 'memory', id: row.id, text: '' }, MODEL, vector, centreFor(s.db, MODEL, [vector])),
      );
      bumpVectorGeneration({ db: s.db } as never);
      assert.equal(new VectorCache().search(s.db, MODEL, vector, 1)[0].table, 'memory');
      const held = () => s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vector_code_pages')!.n;
      assert.equal(held(), 1);
      s.engine.forget(confirmedPerson, key);
      assert.equal(held(), 0);
    });
  });
});
