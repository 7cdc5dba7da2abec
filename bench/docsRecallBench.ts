// Recall over indexed documents at 10k and 50k chunks: the synthetic docs + infra corpus
// (bench/docsCorpus.ts) indexed through the product path (runIndex) into a store with no
// memories, grown size by size, then engine.recall({query}) timed per query (p50/p95 over the
// query set, median over repetitions) against FTS5 alone over the chunks (same MATCH, bm25,
// no joins), interleaved query by query. At the largest size, after the timings, decisions written in the corpus's own
// vocabulary are saved and each is asked by its exact title: the share ranked in the top 3 is a
// quality figure (a memory must not drown among document chunks), held to 100% at 50k chunks.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../src/engine';
import { ftsQuery } from '../src/engine/text/words';
import { chartRootsOf, classify } from '../src/engine/indexing/classify';
import { chunkDocument } from '../src/engine/indexing/chunk';
import { runIndex } from '../src/host/engineApi';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { Corpus } from './corpus';
import { docsCorpus, writeCorpus } from './docsCorpus';
import { distribution, makeQueries } from './memory';
import { elapsedMs, figure, now, type Section } from './result';

export interface DocsRecallOptions {
  quick: boolean;
  /** Chunk counts to measure at, increasing. */
  sizes: number[];
  reps: number;
  queries: number;
  seed: number;
  dir?: string;
  log?: (line: string) => void;
}

export function docsRecallOptions(quick: boolean, overrides: Partial<DocsRecallOptions> = {}): DocsRecallOptions {
  return {
    quick,
    sizes: quick ? [1000, 3000] : [10_000, 50_000],
    reps: quick ? 1 : 5,
    queries: quick ? 20 : 100,
    seed: 20260103,
    ...overrides,
  };
}

/** Mirrors recall's lexical document query (src/engine/search/docs.ts): bm25 weights, 3 × fetch of 50. */
const FTS_DOCS_SQL =
  'SELECT rowid, bm25(doc_fts, 4.0, 2.0, 1.0) AS bm FROM doc_fts WHERE doc_fts MATCH ? ORDER BY bm LIMIT 150';

/** How many corpus files (in order) it takes to reach each chunk count. */
function filesFor(sizes: number[], seed: number): { files: ReturnType<typeof docsCorpus>; cut: number[] } {
  // ~10 chunks per indexable file; generate enough, then count exactly.
  const files = docsCorpus(Math.ceil((sizes[sizes.length - 1] / 8) * 1.2) + 50, seed);
  const roots = chartRootsOf(files.filter((f) => f.indexed).map((f) => f.path));
  const cut: number[] = [];
  let chunks = 0;
  for (let i = 0; i < files.length && cut.length < sizes.length; i++) {
    const f = files[i];
    if (f.indexed) chunks += chunkDocument(classify(f.path, f.text, { chartRoots: roots }), f.text).length;
    while (cut.length < sizes.length && chunks >= sizes[cut.length]) cut.push(i + 1);
  }
  if (cut.length < sizes.length)
    throw new Error(`the corpus generator gave ${chunks} chunks, fewer than ${sizes[sizes.length - 1]}`);
  return { files, cut };
}

const MEMORY_PROBES = 10;

/** Saves `count` decisions in the corpus's vocabulary and asks each by its title: its rank, or null past 10. */
async function memoryRanks(engine: Engine, seed: number, count: number): Promise<Array<number | null>> {
  const corpus = new Corpus(seed);
  const ranks: Array<number | null> = [];
  for (let i = 0; i < count; i++) {
    const m = corpus.memory(2_000_000_000 + seed + i);
    const { key } = engine.remember(
      { door: 'test', name: 'bench' },
      { ...m, type: 'decision', key: undefined, fact_key: undefined },
    );
    const { results } = await engine.recall({ query: m.title, limit: 10 });
    const index = results.findIndex((r) => r.key === key);
    ranks.push(index < 0 ? null : index + 1);
  }
  return ranks;
}

export async function docsRecallSection(options: DocsRecallOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-'));
  const root = join(parent, 'repo');
  const db = new WasmSqlDatabase(join(parent, 'lore.db'));
  const engine = new Engine({ db });
  const queries = makeQueries(options.seed, options.queries);
  const { files, cut } = filesFor(options.sizes, options.seed);
  const section: Section = {
    bench: 'recall-docs',
    title: 'Recall: indexed documents (lexical)',
    method: {
      recall:
        'engine.recall({query}) (default limit 10) on a store holding ' +
        'only documents; p50/p95 over the query set, median over ' +
        'repetitions',
      baseline: "FTS5 alone over the chunks: same MATCH, bm25 with recall's weights, LIMIT 150, no join",
      corpus: 'bench/docsCorpus.ts indexed through runIndex until the chunk count reaches the size',
    },
    figures: [],
    notes: [],
    seconds: 0,
    details: { sizes: [] as unknown[] },
  };
  try {
    let written = 0;
    for (let s = 0; s < options.sizes.length; s++) {
      writeCorpus(root, files.slice(written, cut[s]));
      written = cut[s];
      const start = now();
      const { status } = await runIndex(engine, root, {});
      log(
        `recall-docs: ${status.chunks} chunks in ${status.files} files ` +
          `(indexed in ${(elapsedMs(start) / 1000).toFixed(1)} s)`,
      );
      for (const q of queries.slice(0, 20)) await engine.recall({ query: q }); // warm-up
      const recallRuns: Array<{ p50: number; p95: number }> = [];
      const ftsRuns: Array<{ p50: number; p95: number }> = [];
      let answered = 0;
      for (let rep = 0; rep < options.reps; rep++) {
        const r: number[] = [];
        const f: number[] = [];
        answered = 0;
        for (const query of queries) {
          let t = now();
          const result = await engine.recall({ query });
          r.push(elapsedMs(t));
          if (result.results.length) answered++;
          t = now();
          db.all(FTS_DOCS_SQL, [ftsQuery(query)]);
          f.push(elapsedMs(t));
        }
        recallRuns.push(distribution(r));
        ftsRuns.push(distribution(f));
      }
      if (answered < queries.length / 2)
        section.notes.push(`${options.sizes[s]} chunks: only ${answered} of ${queries.length} queries found anything`);
      const size = options.sizes[s];
      section.figures.push(
        figure({
          name: 'recall.docs',
          label: 'document recall p50',
          sizes: { chunks: size },
          unit: 'ms',
          runs: recallRuns.map((x) => x.p50),
          p95Runs: recallRuns.map((x) => x.p95),
          baseline: { label: 'FTS5 alone p50', runs: ftsRuns.map((x) => x.p50) },
          ...(size === 50_000 ? { target: { on: 'median' as const, op: '<=' as const, limit: 20 } } : {}),
        }),
      );
      // Last, so the timings above stay those of a store holding documents alone.
      const ranks = s === options.sizes.length - 1 ? await memoryRanks(engine, options.seed, MEMORY_PROBES) : [];
      const top3 = (100 * ranks.filter((r) => r !== null && r <= 3).length) / (ranks.length || 1);
      if (ranks.length)
        section.figures.push(
          figure({
            name: 'recall.memory_among_docs',
            label: 'memories asked by title in top 3',
            sizes: { chunks: size },
            unit: '%',
            runs: [top3],
            ...(size === 50_000 ? { target: { on: 'median' as const, op: '>=' as const, limit: 100 } } : {}),
          }),
        );
      (section.details as { sizes: unknown[] }).sizes.push({
        nominal: size,
        chunks: status.chunks,
        files: status.files,
        answered,
        queries: queries.length,
        memoryRanks: ranks,
      });
      log(`recall-docs: ${size} chunks p50 ${section.figures[section.figures.length - 1].median.toFixed(2)} ms`);
    }
  } finally {
    db.close();
    rmSync(parent, { recursive: true, force: true });
  }
  section.seconds = (Date.now() - started) / 1000;
  return section;
}
