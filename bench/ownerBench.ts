// The store owner under indexing load, measured inside a real `lore serve` (dist/cli.js): how
// long its event loop stalls while it indexes the synthetic docs + infra corpus (every MCP and
// RPC request waits that long), and its peak resident memory. The figures come from a bench-only
// probe preloaded into the server (bench/loopProbe.cjs; Lore itself is unchanged), read at the
// edges of each window.
//
// Each run: an idle window (baseline), then a full index requested over the owner's RPC (as
// `lore index` does when an owner is live), measured from the request to its answer. Embeddings
// are off (LORE_EMBED=off): the model runs in a worker thread, so the main loop's stalls come
// from discovery, chunking and SQLite writes.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readIndexLines } from '../src/host/engineApi';
import { CLI, startServe, type ServeProcess } from '../test/support/processes';
import { docsCorpus, writeCorpus } from './docsCorpus';
import { elapsedMs, figure, now, type Section } from './result';

export interface OwnerBenchOptions {
  quick: boolean;
  files: number;
  reps: number;
  /** Length of each idle window, in ms. */
  idleMs: number;
  seed: number;
  dir?: string;
  log?: (line: string) => void;
}

export function ownerOptions(quick: boolean, overrides: Partial<OwnerBenchOptions> = {}): OwnerBenchOptions {
  return {
    quick,
    files: quick ? 150 : 2000,
    reps: quick ? 1 : 5,
    idleMs: quick ? 200 : 1000,
    seed: 20260102,
    ...overrides,
  };
}

export interface ProbeStats {
  seq: number;
  windowMs: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  rssMb: number;
  peakRssMb: number;
  /** perf_hooks' monitorEventLoopDelay over the window (bench/loopProbe.cjs). */
  eldP99Ms: number;
  eldMaxMs: number;
  /** The process's CPU time over the window, and its main thread's event-loop utilisation. */
  cpuMs: number;
  elu: number;
  /** The most CPU the process used between two ticks of the probe's 10 ms timer: the longest task, in CPU ms. */
  longestTaskCpuMs: number;
}

export const PROBE = resolve(__dirname, 'loopProbe.cjs');

/** Closes the probe's current window and returns its figures (the server answers between event-loop turns). */
export async function readProbe(serve: ServeProcess, file: string, last: number): Promise<ProbeStats> {
  serve.child.kill('SIGUSR2');
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (existsSync(file)) {
      const stats = JSON.parse(readFileSync(file, 'utf8')) as ProbeStats;
      if (stats.seq > last) return stats;
    }
    if (Date.now() > deadline) throw new Error('the probe in lore serve did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function ownerSection(options: OwnerBenchOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-'));
  const workspace = join(parent, 'repo');
  const home = join(parent, 'home');
  const probeFile = join(parent, 'probe.json');
  const written = writeCorpus(workspace, docsCorpus(options.files, options.seed));
  const env = {
    ...process.env,
    LORE_HOME: home,
    LORE_EMBED: 'off',
    LORE_BENCH_PROBE_FILE: probeFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim(),
  };
  const serve = await startServe({ home, workspace, env });
  const idle: ProbeStats[] = [];
  const busy: ProbeStats[] = [];
  const filesPerSecond: number[] = [];
  let seq = 0;
  let startRss: number;
  try {
    const rpc = serve.url.replace(/\/mcp$/, '/rpc');
    const first = await readProbe(serve, probeFile, seq); // closes the start-up window
    seq = first.seq;
    startRss = first.rssMb;
    for (let rep = 0; rep < options.reps; rep++) {
      // An idle window: what the loop does with nothing to do.
      await new Promise((r) => setTimeout(r, options.idleMs));
      const quiet = await readProbe(serve, probeFile, seq);
      seq = quiet.seq;
      idle.push(quiet);
      const start = now();
      const response = await fetch(rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${serve.token}` },
        body: JSON.stringify({ op: 'indexWorkspace', args: ['', { full: true }] }),
      });
      // The owner answers in lines (progress, then the result) that end with the run.
      const body = { result: (await readIndexLines(response)) as { summary: { files: number; indexed: number } } };
      const ms = elapsedMs(start);
      if (body.result.summary.indexed !== written.indexed)
        throw new Error(`the owner indexed ${body.result.summary.indexed} of ${written.indexed} files`);
      const loaded = await readProbe(serve, probeFile, seq);
      seq = loaded.seq;
      busy.push(loaded);
      filesPerSecond.push(body.result.summary.files / (ms / 1000));
      log(
        `owner: indexed ${body.result.summary.files} files in ` +
          `${(ms / 1000).toFixed(1)} s; loop delay p99 ` +
          `${loaded.p99Ms.toFixed(0)} ms, max ${loaded.maxMs.toFixed(0)} ` +
          `ms; peak RSS ${loaded.peakRssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    await serve.stop();
    rmSync(parent, { recursive: true, force: true });
  }
  const sizes = { files: written.indexed };
  return {
    bench: 'owner',
    title: 'Owner process (lore serve) while indexing',
    method: {
      loop_delay:
        'how late a 10 ms interval timer fires in the lore serve process ' +
        '(bench/loopProbe.cjs), over the window from the index request to ' +
        'its answer, the stall in progress included; p99 over those ' +
        'samples; baseline: an idle window of the same process',
      peak_rss:
        'process.resourceUsage().maxRSS of lore serve after each index ' +
        'run (its peak so far); baseline: its resident set after start-up',
      files_per_second:
        "a full index (indexWorkspace over the owner's /rpc, as lore " +
        'index does when an owner is live), files / wall time including ' +
        'HTTP; embeddings off',
    },
    figures: [
      figure({
        name: 'owner.loop_delay.p99',
        label: 'owner event-loop delay p99 while indexing',
        sizes,
        unit: 'ms',
        runs: busy.map((s) => s.p99Ms),
        baseline: { label: 'idle p99', runs: idle.map((s) => s.p99Ms) },
        target: { on: 'median', op: '<=', limit: 50 },
      }),
      figure({
        name: 'owner.loop_delay.max',
        label: 'owner event-loop delay max while indexing',
        sizes,
        unit: 'ms',
        runs: busy.map((s) => s.maxMs),
        baseline: { label: 'idle max', runs: idle.map((s) => s.maxMs) },
      }),
      figure({
        name: 'owner.peak_rss',
        label: 'owner peak RSS',
        sizes,
        unit: 'MB',
        runs: busy.map((s) => s.peakRssMb),
        baseline: { label: 'RSS after start', runs: [startRss] },
      }),
      figure({
        name: 'owner.index.files_per_second',
        label: 'full index through the owner',
        sizes,
        unit: 'files/s',
        runs: filesPerSecond,
      }),
    ],
    notes: [],
    seconds: (Date.now() - started) / 1000,
    details: { corpus: written, idle, busy },
  };
}
