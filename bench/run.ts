// `npm run bench` (= build, then `npx tsx bench/run.ts`): every benchmark in one report.
//
// npx tsx bench/run.ts [--quick]
//   [--only real,memory,index,docs,embed,owner,transport,drift,adversarial,hooks,cold,vectors,kinds]
//                        [--corpus DIR] [--out FILE] [--dir DIR]
//
// Each benchmark is a module under bench/ returning report sections in one shape (bench/result.ts):
// figures that are medians of several runs, each with its in-run baseline, the ratio, and the
// target it is held to. The runner prints one table and writes the JSON report. A full run
// (neither --quick nor --only) writes bench/results.json and regenerates the table in
// docs/performance.md from it (bench/readme.ts); anything else writes to the temp folder unless --out says
// otherwise, and never touches the repository. --quick runs every benchmark at toy sizes in
// about a minute to show it runs (for CI), and exits non-zero when a figure is not a number or a
// benchmark fails; it judges no speed but growth: the adversarial section's linearity bound
// (cost per KB, largest input over smallest) fails a run, --quick too. dist/cli.js must be built
// (npm run bench does that).

import { existsSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { adversarialOptions, adversarialSection } from './adversarialBench';
import { docsRecallOptions, docsRecallSection } from './docsRecallBench';
import { driftSection } from './driftSlot';
import { embedOptions, embedSection } from './embed';
import { vectorOptions, vectorSection } from './vectorBench';
import { hookOptions, hookSection } from './hookBench';
import { coldOptions, coldSection } from './coldBench';
import { indexOptions, indexSection } from './indexBench';
import { kindsOptions, kindsSection } from './kindsBench';
import { memoryOptions, memorySections } from './memoryBench';
import { realTreeOptions, realTreeSection } from './realTree';
import { ownerOptions, ownerSection } from './ownerBench';
import { ownerLoadOptions, ownerLoadSection } from './ownerLoadBench';
import {
  describeTarget,
  boundFailures,
  figureProblems,
  formatNumber,
  formatSizes,
  machine,
  type Machine,
  type Section,
} from './result';
import { transportOptions, transportSection } from './transportBench';
import { writeReadmeSection } from './readme';
import { pgOptions, pgSection } from './pgBench';

export const BENCHES = [
  'real',
  'memory',
  'index',
  'docs',
  'embed',
  'owner',
  'owner-load',
  'transport',
  'drift',
  'adversarial',
  'hooks',
  'cold',
  'vectors',
  'kinds',
  'postgres',
] as const;
export type BenchName = (typeof BENCHES)[number];

export interface RunOptions {
  quick: boolean;
  only: BenchName[];
  corpus?: string;
  out: string;
  /** Whether this run writes bench/results.json and the table in docs/performance.md. */
  official: boolean;
  dir?: string;
  log?: (line: string) => void;
}

export interface Report extends Machine {
  bench: 'lore';
  quick: boolean;
  seconds: number;
  sections: Section[];
  /** Benchmarks that threw, and figures that are not numbers. */
  problems: string[];
  /** Figures over a bound the bench enforces (super-linear growth): the bench fails on them too. */
  overBound: string[];
}

export const RESULTS_FILE = resolve(__dirname, 'results.json');

export function parseArgs(argv: string[]): RunOptions {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
  const known = new Set(['--quick', '--only', '--corpus', '--out', '--dir']);
  for (const arg of argv)
    if (arg.startsWith('--') && !known.has(arg))
      throw new Error(`unknown option ${arg}; options: ${[...known].join(', ')}`);
  const quick = argv.includes('--quick');
  const onlyRaw = value('--only');
  const only = onlyRaw ? onlyRaw.split(',').map((s) => s.trim()) : [...BENCHES];
  for (const name of only)
    if (!(BENCHES as readonly string[]).includes(name))
      throw new Error(`--only takes ${BENCHES.join(', ')}; got ${name}`);
  const corpus = value('--corpus');
  if (corpus !== undefined && !existsSync(corpus)) throw new Error(`--corpus ${corpus} does not exist`);
  const official = !quick && !onlyRaw && value('--out') === undefined;
  return {
    quick,
    only: only as BenchName[],
    corpus: corpus ? resolve(corpus) : undefined,
    out:
      value('--out') ??
      (official ? RESULTS_FILE : join(tmpdir(), `lore-bench-${quick ? 'quick-' : ''}${process.pid}.json`)),
    official,
    dir: value('--dir'),
  };
}

async function runOne(name: BenchName, options: RunOptions): Promise<Section[]> {
  const common = { log: options.log, dir: options.dir };
  switch (name) {
    case 'real':
      return [await realTreeSection(realTreeOptions(options.quick, common))];
    case 'memory':
      return memorySections(memoryOptions(options.quick, common));
    case 'index':
      return [await indexSection(indexOptions(options.quick, { ...common, corpus: options.corpus }))];
    case 'docs':
      return [await docsRecallSection(docsRecallOptions(options.quick, common))];
    case 'embed':
      return [await embedSection(embedOptions(options.quick, common))];
    case 'owner':
      return [await ownerSection(ownerOptions(options.quick, common))];
    case 'owner-load':
      return [await ownerLoadSection(ownerLoadOptions(options.quick, common))];
    case 'transport':
      return [await transportSection(transportOptions(options.quick, common))];
    case 'drift':
      return [await driftSection(options.quick, options.log)];
    case 'adversarial':
      return [adversarialSection(adversarialOptions(options.quick))];
    case 'hooks':
      return [await hookSection(hookOptions(options.quick, common))];
    case 'cold':
      return [await coldSection(coldOptions(options.quick, common))];
    case 'vectors':
      return [await vectorSection(vectorOptions(options.quick, common))];
    case 'kinds':
      return [kindsSection(kindsOptions(options.quick, { dir: options.dir }))];
    case 'postgres':
      return [await pgSection(pgOptions(options.quick))];
  }
}

export async function runAll(options: RunOptions): Promise<Report> {
  const started = Date.now();
  const loadBefore = loadavg()[0];
  const sections: Section[] = [];
  const problems: string[] = [];
  const overBound: string[] = [];
  for (const name of options.only) {
    options.log?.(`${name}…`);
    try {
      const got = await runOne(name, options);
      sections.push(...got);
      for (const s of got) {
        problems.push(...figureProblems(s));
        overBound.push(...boundFailures(s));
      }
    } catch (error) {
      problems.push(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  return {
    bench: 'lore',
    ...machine(loadBefore),
    quick: options.quick,
    seconds: (Date.now() - started) / 1000,
    sections,
    problems,
    overBound,
  };
}

export function table(report: Report): string {
  const header = ['benchmark', 'size', 'median', 'p95', 'baseline', '×base', 'target', 'met'];
  const rows: string[][] = [];
  for (const s of report.sections) {
    for (const f of s.figures) {
      rows.push([
        `${s.bench}: ${f.label}`,
        formatSizes(f.sizes),
        `${formatNumber(f.median)} ${f.unit}`,
        f.p95 === undefined ? '' : formatNumber(f.p95),
        f.baseline ? `${formatNumber(f.baseline.median)} (${f.baseline.label})` : '',
        f.ratio === undefined ? '' : f.ratio.toFixed(2),
        describeTarget(f),
        f.met === null ? '' : f.met ? 'yes' : 'NO',
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i <= 1 || i === 4 || i === 6 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [
    `Lore ` +
      `bench${report.quick ? ' (--quick: toy sizes, figures not meaningful)' : ''} ` +
      `— node ${report.node}, ${report.cpus} × ${report.cpuModel}, ` +
      `${report.date}, load average ` +
      `${report.loadAverage.before.toFixed(2)} → ` +
      `${report.loadAverage.after.toFixed(2)}, ` +
      `${report.seconds.toFixed(0)} s`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ];
  const notes = report.sections.flatMap((s) => s.notes.map((n) => `${s.bench}: ${n}`));
  if (notes.length) out.push('', ...notes);
  return out.join('\n');
}

async function main(): Promise<void> {
  const options = {
    ...parseArgs(process.argv.slice(2)),
    log: (line: string) => process.stderr.write(`bench: ${line}\n`),
  };
  const report = await runAll(options);
  writeFileSync(options.out, JSON.stringify(report, null, 2) + '\n');
  console.log(table(report));
  console.log(`\nwrote ${options.out} in ${report.seconds.toFixed(1)} s`);
  if (options.official && report.problems.length === 0 && report.overBound.length === 0) {
    writeReadmeSection(options.out);
    console.log('regenerated the table in docs/performance.md from it');
  }
  if (report.problems.length || report.overBound.length) {
    for (const p of [...report.problems, ...report.overBound]) console.error(`bench: ${p}`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  });
}
