// `npx tsx bench/run.ts [--quick] [--sizes 1000,10000,50000] [--reps N] [--queries N] [--saves N]
//  [--seed N] [--out FILE] [--dir DIR]`
//
// Save throughput (individual remember calls, each its own transaction) and recall latency
// (p50/p95) at growing store sizes, each the median of several repetitions, with ratios against
// in-run baselines: the smallest store for growth, and FTS5 alone (same MATCH, no join, no
// priors) for recall's overhead. Writes bench/results.json and prints a table. --quick runs tiny
// sizes once, in a few seconds, and fails if anything is off (for CI); its JSON goes to the temp
// folder unless --out says otherwise.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BenchStore, RECALL_FETCH, distribution, makeProbeTexts, makeQueries, median, type Distribution } from './memory';

export interface BenchOptions {
  quick: boolean;
  sizes: number[];
  reps: number;
  queries: number;
  saves: number;
  seed: number;
  out: string;
  dir?: string;
  log?: (line: string) => void;
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
  ratios: { recallP50VsBaseline: number; recallP95VsBaseline: number; recallVsFts: number; recallSqlVsFts: number; savePerSecondVsBaseline: number; sizeVsBaseline: number };
}

export interface BenchResults {
  bench: 'memory';
  date: string;
  node: string;
  platform: string;
  arch: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average before and after: other processes on the machine skew every figure. */
  loadAverage: { before: number; after: number };
  options: Omit<BenchOptions, 'log' | 'out'>;
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
  return { p50: median(runs.map((r) => r.p50)), p95: median(runs.map((r) => r.p95)), runs: runs.map((r) => ({ p50: r.p50, p95: r.p95 })) };
}

export function parseArgs(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const number = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
    return n;
  };
  const sizes = value('--sizes')?.split(',').map(Number) ?? (quick ? [200, 1000] : [1000, 10_000, 50_000]);
  if (sizes.some((s) => !Number.isInteger(s) || s < 1) || sizes.some((s, i) => i > 0 && s <= sizes[i - 1])) {
    throw new Error('--sizes must be increasing positive whole numbers, e.g. 1000,10000,50000');
  }
  return {
    quick,
    sizes,
    reps: number('--reps', quick ? 1 : 5),
    queries: number('--queries', quick ? 20 : 100),
    saves: number('--saves', quick ? 20 : 100),
    seed: number('--seed', 20260101),
    out: value('--out') ?? (quick ? join(tmpdir(), `lore-bench-quick-${process.pid}.json`) : resolve(__dirname, 'results.json')),
    dir: value('--dir'),
  };
}

type Measured = Omit<SizeResult, 'ratios'>;

/** Grows the store to `size` and measures it: recall and its baselines, the dead-end probe, saves. */
async function measureSize(store: BenchStore, size: number, queries: string[], probeTexts: string[], options: BenchOptions): Promise<Measured> {
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

  const runs = { recall: [] as Distribution[], sql: [] as Distribution[], fts: [] as Distribution[], probe: [] as Distribution[] };
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
    fileBytes: store.db.get<{ n: number }>('SELECT page_count * page_size AS n FROM pragma_page_count, pragma_page_size')!.n,
  };
}

export async function runBench(options: BenchOptions): Promise<BenchResults> {
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
  const growth = (a: SizeResult, b: SizeResult, cost: (r: SizeResult) => number) => Math.log(cost(b) / cost(a)) / Math.log(b.size / a.size);
  const exponent = results.length > 1 ? growth(first, last, (r) => r.recall.p50) : null;
  const steps = results.slice(1).map((r, i) => ({
    from: results[i].size,
    to: r.size,
    recall: growth(results[i], r, (x) => x.recall.p50),
    fts: growth(results[i], r, (x) => x.fts.p50),
  }));
  const { log: _log, out: _out, ...recorded } = options;
  return {
    bench: 'memory',
    date: new Date().toISOString(),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    options: recorded,
    method: {
      recall: `engine.recall({query}) (default limit 10; over-fetches ${RECALL_FETCH}) per query; p50/p95 over the query set, median over repetitions`,
      recallSql: 'only the SQL statement recall runs (FTS5 MATCH joined to memories, filters, ORDER BY bm25 LIMIT 50)',
      fts: 'baseline: FTS5 alone, same MATCH expression, ORDER BY bm25 LIMIT 50, no join',
      save: 'individual engine.remember calls, each its own transaction (synchronous=FULL), on a store of the given size',
      deadEndProbe: 'findResemblingDeadEnds over a fresh memory\'s title and description: the part of every non-dead-end save that grows with the store',
      growthExponent: 'log(recall p50 at largest / at smallest) / log(size ratio): 1 is linear, below 1 sub-linear; steps gives it between neighbouring sizes',
      populate: 'engine.remember in one engine.batch per size, FTS sync triggers lifted and the index rebuilt after (see BenchStore.populate, bench/fidelity.ts)',
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
export function sanityProblems(results: BenchResults): string[] {
  const problems: string[] = [];
  for (const r of results.sizes) {
    const numbers = [r.recall.p50, r.recall.p95, r.recallSql.p50, r.fts.p50, r.save.perSecond, r.deadEndProbe.p50, r.populate.perSecond];
    if (numbers.some((n) => !Number.isFinite(n) || n <= 0)) problems.push(`${r.size}: a measurement is not a positive number`);
    if (r.answeredShare < 0.5) problems.push(`${r.size}: only ${(r.answeredShare * 100).toFixed(0)}% of queries found anything`);
    if (r.matches.p50 <= 0) problems.push(`${r.size}: queries match nothing`);
  }
  return problems;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

export function table(results: BenchResults): string {
  const header = ['memories', 'recall p50', 'p95', '×base', 'sql p50', 'fts p50', 'recall/fts', 'matches p50', 'saves/s', '×base', 'save p95', 'probe p50', 'populate/s'];
  const rows = results.sizes.map((r) => [
    String(r.size),
    `${fmt(r.recall.p50)} ms`,
    `${fmt(r.recall.p95)} ms`,
    `${fmt(r.ratios.recallP50VsBaseline)}`,
    `${fmt(r.recallSql.p50)} ms`,
    `${fmt(r.fts.p50)} ms`,
    `${fmt(r.ratios.recallVsFts)}`,
    String(Math.round(r.matches.p50)),
    fmt(r.save.perSecond, 0),
    `${fmt(r.ratios.savePerSecondVsBaseline)}`,
    `${fmt(r.save.p95)} ms`,
    `${fmt(r.deadEndProbe.p50)} ms`,
    fmt(r.populate.perSecond, 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const v = results.verdict;
  const lines = [
    `Lore memory bench — node ${results.node}, ${results.cpus} × ${results.cpuModel}, ${results.date}, load average ${fmt(results.loadAverage.before)} → ${fmt(results.loadAverage.after)}`,
    `${results.options.reps} repetition(s), ${results.options.queries} queries, ${results.options.saves} saves per repetition; ×base is against ${results.sizes[0]?.size} memories`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
  ];
  if (v.recallP50At10kMs !== null) lines.push(`recall p50 at 10k: ${fmt(v.recallP50At10kMs)} ms (target ≤ 10 ms: ${v.recallP50At10kTargetMet ? 'met' : 'NOT met'})`);
  if (v.growthExponent !== null) {
    const first = results.sizes[0];
    const last = results.sizes[results.sizes.length - 1];
    lines.push(
      `recall growth ${first.size} → ${last.size}: ×${fmt(last.ratios.recallP50VsBaseline)} for ×${fmt(last.ratios.sizeVsBaseline, 0)} the memories, exponent ${fmt(v.growthExponent)} (${v.sublinear ? 'sub-linear' : 'NOT sub-linear'})`,
      ...v.steps.map((s) => `  ${s.from} → ${s.to}: exponent ${fmt(s.recall)} for recall, ${fmt(s.fts)} for FTS5 alone`),
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const results = await runBench({ ...options, log: (line) => process.stderr.write(`bench: ${line}\n`) });
  writeFileSync(options.out, JSON.stringify(results, null, 2) + '\n');
  console.log(table(results));
  console.log(`\nwrote ${options.out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const problems = sanityProblems(results);
  if (problems.length) {
    for (const p of problems) console.error(`bench: ${p}`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  });
}
