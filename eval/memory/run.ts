// `npm run eval:memory [-- --only ID,ID] [--strict] [--jobs N] [--keep] [--out FILE]`
//
// The memory-quality eval: scripted multi-session scenarios replayed through a real MCP client
// (the SDK's Client over stdio) against the built server (`node dist/cli.js mcp`), each on a fresh
// store (its own LORE_HOME and workspace). Every recall probe declares the keys that must come
// back (relevant) and those that must not (irrelevant); the run prints one line per scenario and
// the overall precision@k, recall and MRR, writes .cache/eval/memory-results.json (gitignored: a run
// never rewrites a tracked file; --out FILE to keep it elsewhere), and exits non-zero if
// any scenario fails that is not listed in PENDING (with --strict, pending failures count too).
// --keep leaves each scenario's temp folder (data directory and workspace) in place; --jobs sets
// how many scenarios run side by side (default 2).

import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, Failure, ScenarioContext, metricsOf, type Metrics, type ProbeRecord, type Scenario } from './harness';
import { concurrency } from './scenarios/concurrency';
import { contradiction } from './scenarios/contradiction';
import { deadEnds } from './scenarios/deadEnds';
import { drift } from './scenarios/drift';
import { minimisation } from './scenarios/minimisation';
import { poisoning } from './scenarios/poisoning';
import { precision } from './scenarios/precision';
import { repairability } from './scenarios/repairability';
import { staleness } from './scenarios/staleness';
import { vocabulary } from './scenarios/vocabulary';

/**
 * Scenarios known to fail for a reason outside the eval, each with that reason. They still run
 * and print (as PENDING), but do not fail the run. Remove an entry when its feature lands; a
 * pending scenario that passes is reported so the entry is not forgotten.
 */
export const PENDING: Record<string, string> = {
  // Bugs and ranking weaknesses in Lore that these scenarios found (the engine is not tuned to
  // the eval; fix the engine, then delete the entry).
};

export const SCENARIOS: Scenario[] = [
  ...precision,
  ...staleness,
  ...contradiction,
  ...minimisation,
  ...repairability,
  ...poisoning,
  ...deadEnds,
  ...drift,
  ...concurrency,
  ...vocabulary,
];

/** Scenarios run side by side; each spends most of its time starting `lore mcp` processes. */
const DEFAULT_JOBS = Math.min(2, cpus().length);

/** A scenario that takes longer than this is stuck (a server that never answers), not slow. */
const SCENARIO_DEADLINE_MS = 60_000;

type Verdict = 'PASS' | 'FAIL' | 'PENDING';

interface Outcome {
  id: string;
  theme: string;
  title: string;
  verdict: Verdict;
  passed: boolean;
  reason: string;
  failures: string[];
  pending: string | null;
  sessions: number;
  seconds: number;
  probes: ProbeRecord[];
  metrics: Metrics;
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Failure(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function runScenario(scenario: Scenario, keep: boolean): Promise<Outcome> {
  const ctx = new ScenarioContext(scenario.id);
  const started = process.hrtime.bigint();
  try {
    await withDeadline(scenario.run(ctx), SCENARIO_DEADLINE_MS, scenario.id);
  } catch (error) {
    ctx.failures.push(
      error instanceof Failure
        ? error.message
        : `error: ${(error as Error)?.stack?.split('\n').slice(0, 3).join(' ') ?? String(error)}`,
    );
  } finally {
    await ctx.dispose(keep);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const passed = ctx.failures.length === 0;
  const pending = PENDING[scenario.id] ?? null;
  const verdict: Verdict = pending ? 'PENDING' : passed ? 'PASS' : 'FAIL';
  const reason = passed
    ? pending
      ? `passes now: remove it from PENDING (${pending})`
      : scenario.title
    : ctx.failures[0] + (ctx.failures.length > 1 ? ` (+${ctx.failures.length - 1} more)` : '');
  return {
    id: scenario.id,
    theme: scenario.theme,
    title: scenario.title,
    verdict,
    passed,
    reason,
    failures: ctx.failures,
    pending,
    sessions: ctx.sessions,
    seconds: Math.round(seconds * 100) / 100,
    probes: ctx.probes,
    metrics: metricsOf(ctx.probes),
  };
}

function fmt(value: number | null): string {
  return value === null ? '  -  ' : value.toFixed(3);
}

function clip(text: string, width: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= width ? line : line.slice(0, width - 1) + '…';
}

function staleBuild(): string | null {
  if (!existsSync(CLI)) return null;
  const built = statSync(CLI).mtimeMs;
  const src = resolve(__dirname, '..', '..', 'src');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
    );
  const newer = walk(src).filter((file) => statSync(file).mtimeMs > built);
  return newer.length
    ? `${newer.length} file(s) under src/ are newer than dist/cli.js ` +
        `(e.g. ${relative(process.cwd(), newer[0])}); run npm run build ` +
        `for a current result`
    : null;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      keep: { type: 'boolean' },
      strict: { type: 'boolean' },
      jobs: { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (!existsSync(CLI)) {
    console.error(`eval:memory: ${CLI} does not exist; run npm run build first`);
    return 2;
  }
  const stale = staleBuild();
  if (stale) console.warn(`warning: ${stale}`);
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = (only ?? []).filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length) {
    console.error(`eval:memory: unknown scenario(s): ${unknown.join(', ')}`);
    return 2;
  }
  const selected = only ? SCENARIOS.filter((s) => only.includes(s.id)) : SCENARIOS;
  const ids = new Set<string>();
  for (const s of SCENARIOS) {
    if (ids.has(s.id)) throw new Error(`duplicate scenario id ${s.id}`);
    ids.add(s.id);
  }

  console.log(
    `memory eval: ${selected.length} scenarios against ` +
      `${relative(process.cwd(), CLI)} (real MCP client over stdio, a ` +
      `fresh store each)\n`,
  );
  const started = process.hrtime.bigint();
  const outcomes: Outcome[] = [];
  const idWidth = Math.max(...selected.map((s) => s.id.length));
  const header =
    `${'#'.padStart(2)}  ${'scenario'.padEnd(idWidth)}  ` +
    `${'theme'.padEnd(13)}  ${'result'.padEnd(7)}  ses  prb  ` +
    `${'secs'.padStart(5)}  reason`;
  console.log(header);
  console.log('-'.repeat(Math.min(160, header.length + 90)));
  // Scenarios are independent (each has its own data directory and workspace), so a small pool
  // runs them side by side; rows still print in scenario order.
  const jobs = Math.max(1, Math.min(selected.length, Number(values.jobs ?? DEFAULT_JOBS) || 1));
  const done: Array<Outcome | undefined> = [];
  let printed = 0;
  let next = 0;
  const printReady = () => {
    for (; printed < selected.length && done[printed]; printed++) {
      const outcome = done[printed]!;
      outcomes.push(outcome);
      console.log(
        `${String(printed + 1).padStart(2)}  ` +
          `${outcome.id.padEnd(idWidth)}  ${outcome.theme.padEnd(13)}  ` +
          `${outcome.verdict.padEnd(7)}  ` +
          `${String(outcome.sessions).padStart(3)}  ` +
          `${String(outcome.probes.length).padStart(3)}  ` +
          `${outcome.seconds.toFixed(1).padStart(5)}  ` +
          `${clip(outcome.reason, 110)}`,
      );
    }
  };
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < selected.length) {
        const index = next++;
        done[index] = await runScenario(selected[index], values.keep === true);
        printReady();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;

  const allProbes = outcomes.flatMap((o) => o.probes);
  const overall = metricsOf(allProbes);
  const counted = metricsOf(outcomes.filter((o) => !o.pending).flatMap((o) => o.probes));
  const themes = [...new Set(outcomes.map((o) => o.theme))].map((theme) => ({
    theme,
    ...metricsOf(outcomes.filter((o) => o.theme === theme).flatMap((o) => o.probes)),
  }));
  const count = (v: Verdict) => outcomes.filter((o) => o.verdict === v).length;

  console.log('\nrecall quality (micro-averaged over probes; precision@k over returned keys that are labelled)');
  console.log(`  ${'theme'.padEnd(14)} probes  precision  recall   MRR`);
  for (const t of themes)
    console.log(
      `  ${t.theme.padEnd(14)} ${String(t.probes).padStart(6)}  ` +
        `${fmt(t.precision).padStart(9)}  ${fmt(t.recall).padStart(6)}  ` +
        `${fmt(t.mrr)}`,
    );
  console.log(
    `  ${'overall'.padEnd(14)} ${String(overall.probes).padStart(6)}  ` +
      `${fmt(overall.precision).padStart(9)}  ` +
      `${fmt(overall.recall).padStart(6)}  ${fmt(overall.mrr)}`,
  );
  if (counted.probes !== overall.probes) {
    console.log(
      `  ${'(no pending)'.padEnd(14)} ` +
        `${String(counted.probes).padStart(6)}  ` +
        `${fmt(counted.precision).padStart(9)}  ` +
        `${fmt(counted.recall).padStart(6)}  ${fmt(counted.mrr)}`,
    );
  }

  const failing = outcomes.filter((o) => !o.passed);
  if (failing.length) {
    console.log('\nfailures:');
    for (const o of failing) {
      console.log(`  ${o.id}${o.pending ? ` (PENDING: ${o.pending})` : ''}`);
      for (const f of o.failures) console.log(`    - ${f}`);
    }
  }
  const nowPassing = outcomes.filter((o) => o.pending && o.passed);
  for (const o of nowPassing)
    console.log(`\nnote: ${o.id} is listed in PENDING but passes; remove it from PENDING in eval/memory/run.ts`);

  console.log(
    `\n${count('PASS')} passed, ${count('FAIL')} failed, ` +
      `${count('PENDING')} pending — ${seconds.toFixed(1)} s on ` +
      `${cpus().length} cores, ${jobs} at a time`,
  );

  const out = resolve(values.out ?? join(__dirname, '..', '..', '.cache', 'eval', 'memory-results.json'));
  mkdirSync(dirname(out), { recursive: true });
  const report = {
    eval: 'memory',
    generated_at: new Date().toISOString(),
    server: relative(resolve(__dirname, '..', '..'), CLI),
    node: process.version,
    cores: cpus().length,
    seconds: Math.round(seconds * 10) / 10,
    summary: { scenarios: outcomes.length, passed: count('PASS'), failed: count('FAIL'), pending: count('PENDING') },
    metrics: { overall, without_pending: counted, by_theme: themes },
    pending: PENDING,
    scenarios: outcomes.map(({ probes, ...o }) => ({
      ...o,
      probes: probes.map(({ scenario: _scenario, ...p }) => p),
    })),
  };
  writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  console.log(`wrote ${relative(process.cwd(), out)}`);
  const pendingFailures = outcomes.filter((o) => o.pending && !o.passed).length;
  return count('FAIL') > 0 || (values.strict === true && pendingFailures > 0) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error);
    process.exitCode = 2;
  },
);
