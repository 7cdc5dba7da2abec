// The one shape every benchmark reports in, so bench/run.ts can print one table and write one
// bench/results.json, and bench/readme.ts can render the README's performance section from it.
//
// A figure is the median of several runs of one measurement, next to the median of its in-run
// baseline (what the same machine does without Lore's part, measured in the same run, interleaved
// where possible) and their ratio, and the target it is held to, if any.

import { cpus, loadavg } from 'node:os';
import { median } from './memory';

export interface Target {
  /** What is compared: the figure's median, its p95, or its ratio to the baseline. */
  on: 'median' | 'p95' | 'ratio';
  op: '<=' | '>=';
  limit: number;
}

export interface Figure {
  /** Stable identifier, e.g. "recall.docs.p50". */
  name: string;
  /** Human label for the report table. */
  label: string;
  /** The size measured at, e.g. { chunks: 50000 }. */
  sizes: Record<string, number>;
  unit: string;
  /** Median over runs; each run's own figure is in `runs`. */
  median: number;
  runs: number[];
  /** Median over runs of the p95 within each run, for latency figures. */
  p95?: number;
  baseline?: { label: string; median: number; runs: number[] };
  /** median / baseline.median. */
  ratio?: number;
  target?: Target;
  /** Whether the target is met; null when there is no target. */
  met: boolean | null;
  /** A target the run fails on when it is not met (the adversarial section's linearity), not only reports. */
  enforced?: boolean;
}

export interface Section {
  /** One of: store, index, embed, recall, owner, transport, drift. */
  bench: string;
  title: string;
  /** How each figure is measured, in a sentence each. */
  method: Record<string, string>;
  figures: Figure[];
  /** Anything the figures alone would hide (skipped parts, caveats). */
  notes: string[];
  seconds: number;
  /** Module-specific raw detail, for whoever digs further. */
  details?: unknown;
}

export interface FigureInput {
  name: string;
  label: string;
  sizes?: Record<string, number>;
  unit: string;
  runs: number[];
  p95Runs?: number[];
  baseline?: { label: string; runs: number[] };
  target?: Target;
}

/** Builds a figure from per-run values: medians, the ratio to the baseline, whether the target is met. */
export function figure(input: FigureInput): Figure {
  const value = median(input.runs);
  const p95 = input.p95Runs?.length ? median(input.p95Runs) : undefined;
  const baseline = input.baseline
    ? { label: input.baseline.label, median: median(input.baseline.runs), runs: input.baseline.runs }
    : undefined;
  const ratio = baseline && baseline.median > 0 ? value / baseline.median : undefined;
  const out: Figure = {
    name: input.name,
    label: input.label,
    sizes: input.sizes ?? {},
    unit: input.unit,
    median: value,
    runs: input.runs,
    met: null,
  };
  if (p95 !== undefined) out.p95 = p95;
  if (baseline) out.baseline = baseline;
  if (ratio !== undefined) out.ratio = ratio;
  if (input.target) {
    out.target = input.target;
    const measured = input.target.on === 'median' ? value : input.target.on === 'p95' ? p95 : ratio;
    out.met =
      measured === undefined || !Number.isFinite(measured)
        ? false
        : input.target.op === '<='
          ? measured <= input.target.limit
          : measured >= input.target.limit;
  }
  return out;
}

export function describeTarget(f: Figure): string {
  if (!f.target) return '';
  const t = f.target;
  const what = t.on === 'ratio' ? '×base' : t.on === 'p95' ? 'p95' : '';
  const limit = t.on === 'ratio' ? `${t.limit}` : `${t.limit} ${f.unit}`;
  return `${what ? `${what} ` : ''}${t.op === '<=' ? '≤' : '≥'} ${limit}`;
}

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en');
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function formatSizes(sizes: Record<string, number>): string {
  return Object.entries(sizes)
    .map(([unit, n]) => `${n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : n.toLocaleString('en')} ${unit}`)
    .join(', ');
}

/** Problems that make a figure meaningless (not a finite number, no runs, a negative count or time). */
export function figureProblems(section: Section): string[] {
  const problems: string[] = [];
  for (const f of section.figures) {
    const numbers = [f.median, ...f.runs, ...(f.baseline ? [f.baseline.median] : [])];
    if (!f.runs.length) problems.push(`${section.bench}/${f.name}: no runs`);
    else if (numbers.some((n) => !Number.isFinite(n)))
      problems.push(`${section.bench}/${f.name}: a measurement is not a finite number`);
    // Only a percentage difference may go below zero at the median; one round of a difference
    // (a hook's time over `node -e 0` in that round) may, when the two are within noise.
    else if (f.unit !== '%' && [f.median, ...(f.baseline ? [f.baseline.median] : [])].some((n) => n < 0))
      problems.push(`${section.bench}/${f.name}: a measurement is negative`);
  }
  return problems;
}

/**
 * Enforced bounds a figure missed (the adversarial section's linearity): they fail the bench, kept
 * apart from meaningless figures so the test suite's quick run checks the figures' form, not timing.
 */
export function boundFailures(section: Section): string[] {
  return section.figures
    .filter((f) => f.enforced && f.met === false)
    .map((f) => `${section.bench}/${f.name}: ${f.label}: ${f.ratio?.toFixed(2)} over its bound (${describeTarget(f)})`);
}

/** Nanosecond clock in milliseconds since `start`. */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function now(): bigint {
  return process.hrtime.bigint();
}

/**
 * Where a run happened: every report opens with it (load average before and after, since other processes skew every
 * figure).
 */
export interface Machine {
  date: string;
  node: string;
  platform: string;
  arch: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average before and after: other processes on the machine skew every figure. */
  loadAverage: { before: number; after: number };
}

/** The machine at the end of a run that began with load average `loadBefore`. */
export function machine(loadBefore: number): Machine {
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadAverage: { before: loadBefore, after: loadavg()[0] },
  };
}
