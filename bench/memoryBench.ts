// The memory store's benchmarks: save throughput (individual remember calls, each its own
// transaction) and memory recall latency (p50/p95) at growing store sizes, each the median of
// several repetitions, against in-run baselines: the smallest store for saves, FTS5 alone (same
// MATCH, no join, no priors) for recall. bench/run.ts reports them as the "store" and
// "recall (memories)" sections.

import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BenchStore,
  RECALL_FETCH,
  distribution,
  makeProbeTexts,
  makeQueries,
  median,
  type Distribution,
} from './memory';
import { figure, machine, type Machine, type Section } from './result';

export interface MemoryBenchOptions {
  quick: boolean;
  sizes: number[];
  reps: number;
  queries: number;
  saves: number;
  seed: number;
  dir?: string;
  log?: (line: string) => void;
}

export function memoryOptions(quick: boolean, overrides: Partial<MemoryBenchOptions> = {}): MemoryBenchOptions {
  return {
    quick,
    sizes: quick ? [200, 1000] : [1000, 10_000, 50_000],
    reps: quick ? 1 : 5,
    queries: quick ? 20 : 100,
    saves: quick ? 20 : 100,
    seed: 20260101,
    ...overrides,
  };
}

interface Summary {
  p50: number;
  p95: number;
  /** Each repetition's p50 and p95; the summary is their median. */
  runs: Array<{ p50: number; p95: number }>;
}

export interface SizeResult {
  size: number;
  populate: { added: number; seconds: number; perSecond: number };
  recall: Summary;
  recallSql: Summary;
  fts: Summary;
  answeredShare: number;
  matches: Distribution & { max: number };
  save: Summary & { perSecond: number; runsPerSecond: number[] };
  deadEndProbe: Summary;
  fileBytes: number;
  ratios: {
    recallP50VsBaseline: number;
    recallP95VsBaseline: number;
    recallVsFts: number;
    recallSqlVsFts: number;
    savePerSecondVsBaseline: number;
    sizeVsBaseline: number;
  };
}

export interface MemoryResults extends Machine {
  bench: 'memory';
  options: Omit<MemoryBenchOptions, 'log'>;
  method: Record<string, string>;
  sizes: SizeResult[];
  verdict: {
    recallP50At10kMs: number | null;
    recallP50At10kTargetMet: boolean | null;
    growthExponent: number | null;
    sublinear: boolean | null;
    /** The exponent between each pair of neighbouring sizes, for recall and for the FTS5 baseline. */
    steps: Array<{ from: number; to: number; recall: number; fts: number }>;
  };
}

function summarize(runs: Distribution[]): Summary {
  return {
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    runs: runs.map((r) => ({ p50: r.p50, p95: r.p95 })),
  };
}

type Measured = Omit<SizeResult, 'ratios'>;

/** Grows the store to `size` and measures it: recall and its baselines, the dead-end probe, saves. */
async function measureSize(
  store: BenchStore,
  size: number,
  queries: string[],
  probeTexts: string[],
  options: MemoryBenchOptions,
): Promise<Measured> {
  const log = options.log ?? (() => {});
  const populated = store.populate(size);
  const memories = store.memories;
  if (memories !== size) throw new Error(`the store holds ${memories} memories, expected ${size}`);
  log(`${size}: populated +${populated.added} in ${populated.seconds.toFixed(1)} s`);

  // Warm up statements, the page cache and the JIT; untimed.
  const warm = queries.slice(0, Math.min(20, queries.length));
  await store.timeRecall(warm);
  store.timeSql('recall', warm);
  store.timeSql('fts', warm);
  store.timeDeadEndProbe(probeTexts.slice(0, 5));

  const runs = {
    recall: [] as Distribution[],
    sql: [] as Distribution[],
    fts: [] as Distribution[],
    probe: [] as Distribution[],
  };
  let answered = 0;
  for (let rep = 0; rep < options.reps; rep++) {
    // Interleaved query by query, so load from other processes hits recall and its baselines alike.
    const samples = { recall: [] as number[], sql: [] as number[], fts: [] as number[] };
    answered = 0;
    for (const query of queries) {
      const recall = await store.timeRecall([query]);
      samples.recall.push(recall.latencies[0]);
      answered += recall.answered;
      samples.sql.push(...store.timeSql('recall', [query]));
      samples.fts.push(...store.timeSql('fts', [query]));
    }
    runs.recall.push(distribution(samples.recall));
    runs.sql.push(distribution(samples.sql));
    runs.fts.push(distribution(samples.fts));
    runs.probe.push(distribution(store.timeDeadEndProbe(probeTexts)));
  }
  const counts = store.matchCounts(queries);
  log(`${size}: recall p50 ${median(runs.recall.map((r) => r.p50)).toFixed(2)} ms`);

  // Saves last: they grow the store by reps × saves, and the next size tops it up again.
  const saveRuns: Array<Distribution & { perSecond: number }> = [];
  for (let rep = 0; rep < options.reps; rep++) {
    const latencies = store.timeSaves(options.saves);
    const total = latencies.reduce((sum, x) => sum + x, 0);
    saveRuns.push({ ...distribution(latencies), perSecond: (latencies.length / total) * 1000 });
  }
  const perSecond = median(saveRuns.map((r) => r.perSecond));
  log(`${size}: ${perSecond.toFixed(0)} saves/s`);

  return {
    size,
    populate: { ...populated, perSecond: populated.added / populated.seconds },
    recall: summarize(runs.recall),
    recallSql: summarize(runs.sql),
    fts: summarize(runs.fts),
    answeredShare: answered / queries.length,
    matches: { ...distribution(counts), max: Math.max(...counts) },
    save: { ...summarize(saveRuns), perSecond, runsPerSecond: saveRuns.map((r) => r.perSecond) },
    deadEndProbe: summarize(runs.probe),
    fileBytes: store.db.get<{ n: number }>(
      'SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size',
    )!.n,
  };
}

export async function runMemoryBench(options: MemoryBenchOptions): Promise<MemoryResults> {
  const loadBefore = loadavg()[0];
  const store = new BenchStore(mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-')), options.seed);
  const queries = makeQueries(options.seed + 1, options.queries);
  const probeTexts = makeProbeTexts(options.seed + 2, Math.min(options.queries, 50));
  const results: SizeResult[] = [];
  try {
    for (const size of options.sizes) {
      const r = await measureSize(store, size, queries, probeTexts, options);
      const base = results[0] ?? r;
      results.push({
        ...r,
        ratios: {
          recallP50VsBaseline: r.recall.p50 / base.recall.p50,
          recallP95VsBaseline: r.recall.p95 / base.recall.p95,
          recallVsFts: r.recall.p50 / r.fts.p50,
          recallSqlVsFts: r.recallSql.p50 / r.fts.p50,
          savePerSecondVsBaseline: r.save.perSecond / base.save.perSecond,
          sizeVsBaseline: r.size / base.size,
        },
      });
    }
  } finally {
    store.close();
  }

  const at10k = results.find((r) => r.size === 10_000);
  const first = results[0];
  const last = results[results.length - 1];
  /** Growth exponent of a cost between two store sizes: 1 is linear. */
  const growth = (a: SizeResult, b: SizeResult, cost: (r: SizeResult) => number) =>
    Math.log(cost(b) / cost(a)) / Math.log(b.size / a.size);
  const exponent = results.length > 1 ? growth(first, last, (r) => r.recall.p50) : null;
  const steps = results.slice(1).map((r, i) => ({
    from: results[i].size,
    to: r.size,
    recall: growth(results[i], r, (x) => x.recall.p50),
    fts: growth(results[i], r, (x) => x.fts.p50),
  }));
  const { log: _log, ...recorded } = options;
  return {
    bench: 'memory',
    ...machine(loadBefore),
    options: recorded,
    method: {
      recall:
        `engine.recall({query}) (default limit 10; over-fetches ` +
        `${RECALL_FETCH}) per query; p50/p95 over the query set, median ` +
        `over repetitions`,
      recallSql: 'only the SQL statement recall runs (FTS5 MATCH joined to memories, filters, ORDER BY bm25 LIMIT 50)',
      fts: 'baseline: FTS5 alone, same MATCH expression, ORDER BY bm25 LIMIT 50, no join',
      save:
        'individual engine.remember calls, each its own transaction ' +
        '(synchronous=FULL), on a store of the given size',
      deadEndProbe:
        "findResemblingDeadEnds over a fresh memory's title and " +
        'description: the part of every non-dead-end save that grows with ' +
        'the store',
      growthExponent:
        'log(recall p50 at largest / at smallest) / log(size ratio): 1 is ' +
        'linear, below 1 sub-linear; steps gives it between neighbouring ' +
        'sizes',
      populate:
        'engine.remember in one engine.batch per size, FTS sync triggers ' +
        'lifted and the index rebuilt after (see BenchStore.populate, ' +
        'bench/fidelity.ts)',
    },
    sizes: results,
    verdict: {
      recallP50At10kMs: at10k ? at10k.recall.p50 : null,
      recallP50At10kTargetMet: at10k ? at10k.recall.p50 <= 10 : null,
      growthExponent: exponent,
      sublinear: exponent === null ? null : exponent < 1,
      steps,
    },
  };
}

/** Problems that make a run's numbers meaningless; --quick fails on any. */
export function sanityProblems(results: MemoryResults): string[] {
  const problems: string[] = [];
  for (const r of results.sizes) {
    const numbers = [
      r.recall.p50,
      r.recall.p95,
      r.recallSql.p50,
      r.fts.p50,
      r.save.perSecond,
      r.deadEndProbe.p50,
      r.populate.perSecond,
    ];
    if (numbers.some((n) => !Number.isFinite(n) || n <= 0))
      problems.push(`${r.size}: a measurement is not a positive number`);
    if (r.answeredShare < 0.5)
      problems.push(`${r.size}: only ${(r.answeredShare * 100).toFixed(0)}% of queries found anything`);
    if (r.matches.p50 <= 0) problems.push(`${r.size}: queries match nothing`);
  }
  return problems;
}

/** The memory bench as report sections: saves (store) and memory recall. */
export async function memorySections(options: MemoryBenchOptions): Promise<Section[]> {
  const started = Date.now();
  const results = await runMemoryBench(options);
  const seconds = (Date.now() - started) / 1000;
  const smallest = results.sizes[0];
  const store: Section = {
    bench: 'store',
    title: 'Store: saves',
    method: {
      saves: results.method.save,
      baseline: `the same saves on the smallest store of the run (${smallest.size} memories)`,
      deadEndProbe: results.method.deadEndProbe,
    },
    figures: results.sizes.flatMap((r) => [
      figure({
        name: 'store.saves',
        label: 'saves/s',
        sizes: { memories: r.size },
        unit: 'saves/s',
        runs: r.save.runsPerSecond,
        baseline: { label: `saves/s at ${smallest.size}`, runs: smallest.save.runsPerSecond },
      }),
      figure({
        name: 'store.save.latency',
        label: 'save latency',
        sizes: { memories: r.size },
        unit: 'ms',
        runs: r.save.runs.map((x) => x.p50),
        p95Runs: r.save.runs.map((x) => x.p95),
      }),
    ]),
    notes: [],
    seconds,
    details: results,
  };
  const recall: Section = {
    bench: 'recall-memory',
    title: 'Recall: memories (lexical)',
    method: {
      recall: results.method.recall,
      baseline: results.method.fts,
      growth: results.method.growthExponent,
      populate: results.method.populate,
    },
    figures: results.sizes.map((r) =>
      figure({
        name: 'recall.memory',
        label: 'memory recall p50',
        sizes: { memories: r.size },
        unit: 'ms',
        runs: r.recall.runs.map((x) => x.p50),
        p95Runs: r.recall.runs.map((x) => x.p95),
        baseline: { label: 'FTS5 alone p50', runs: r.fts.runs.map((x) => x.p50) },
        ...(r.size === 10_000 ? { target: { on: 'median' as const, op: '<=' as const, limit: 10 } } : {}),
      }),
    ),
    notes:
      results.verdict.growthExponent === null
        ? []
        : [
            `recall p50 grows as ` +
              `size^${results.verdict.growthExponent.toFixed(2)} from ` +
              `${smallest.size} to ` +
              `${results.sizes[results.sizes.length - 1].size} memories`,
          ],
    seconds: 0,
  };
  return [store, recall];
}
