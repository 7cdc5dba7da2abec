// What a cold one-shot command costs, whole process each time (node starting dist/cli.js, opening
// the store, answering, exiting), on a store of workspace documents the size of a monorepo's:
// `lore recall` (lexical: no model), `lore hook session-start` and `lore --help`. Baseline:
// `node -e 0`, the bare process start, interleaved with the others in every round. The
// `.over_node` figures are each round's difference in CPU time (the child's own user + system, from
// bench/cpuAtExit.cjs) to that round's `node -e 0`: wall time on a loaded machine is mostly waiting.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runIndex } from '../src/host/engineApi';
import { openStore } from '../src/host/openStore';
import { CLI } from '../test/support/processes';
import { docsCorpus, writeCorpus } from './docsCorpus';
import { elapsedMs, figure, now, type Figure, type Section } from './result';

export interface ColdBenchOptions {
  quick: boolean;
  /** Indexable files of the synthetic docs corpus (about ten chunks each). */
  files: number;
  runs: number;
  seed: number;
  dir?: string;
  log?: (line: string) => void;
}

export function coldOptions(quick: boolean, overrides: Partial<ColdBenchOptions> = {}): ColdBenchOptions {
  return { quick, files: quick ? 60 : 5000, runs: quick ? 3 : 15, seed: 20261202, ...overrides };
}

export async function coldSection(options: ColdBenchOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-'));
  const workspace = join(parent, 'repo');
  const home = join(parent, 'home');
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  try {
    writeCorpus(workspace, docsCorpus(options.files, options.seed));
    mkdirSync(join(workspace, '.git'), { recursive: true });
    const store = openStore({ workspace, home, door: 'bench', symbols: false });
    let chunks = 0;
    try {
      chunks = (await runIndex(store.engine, workspace, {})).status.chunks;
    } finally {
      store.close();
    }
    log(`cold: store of ${chunks} chunks from ${options.files} files`);
    const cpuFile = join(parent, 'cpu.txt');
    const env = { ...process.env, LORE_HOME: home, LORE_EMBED: 'off', LORE_BENCH_CPU: cpuFile };
    const preload = ['--require', resolve(__dirname, 'cpuAtExit.cjs')];
    const commands: Record<string, { args: string[]; stdin?: string }> = {
      node: { args: ['-e', '0'] },
      help: { args: [CLI, '--help'] },
      recall: { args: [CLI, 'recall', 'rollback the gateway certificates'] },
      sessionStart: {
        args: [CLI, 'hook', 'session-start'],
        stdin: JSON.stringify({ session_id: 'bench', cwd: workspace, hook_event_name: 'SessionStart' }),
      },
    };
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    for (let round = 0; round < options.runs + 1; round++) {
      for (const [name, command] of Object.entries(commands)) {
        rmSync(cpuFile, { force: true });
        const start = now();
        const r = spawnSync(process.execPath, [...preload, ...command.args], {
          cwd: workspace,
          env,
          input: command.stdin ?? '',
          encoding: 'utf8',
        });
        const ms = elapsedMs(start);
        if (r.status !== 0) throw new Error(`${command.args.slice(1).join(' ')} exited ${r.status}: ${r.stderr}`);
        if (round === 0) continue; // round 0 warms the page cache
        samples[name].push(ms);
        cpu[name].push(Number(readFileSync(cpuFile, 'utf8').trim()));
      }
    }
    details.cpu_ms = cpu;
    const sizes = { chunks, files: options.files };
    const node = { label: 'node -e 0', runs: samples.node };
    const over = (name: string) => cpu[name].map((ms, i) => ms - cpu.node[i]);
    figures.push(
      figure({
        name: 'cold.recall',
        label: 'whole-process lore recall (lexical), p50',
        sizes,
        unit: 'ms',
        runs: samples.recall,
        baseline: node,
      }),
      figure({
        name: 'cold.recall.over_node',
        label: 'lore recall CPU time over node -e 0, p50',
        sizes,
        unit: 'ms',
        runs: over('recall'),
        target: { on: 'median', op: '<=', limit: 120 },
      }),
      figure({
        name: 'cold.session_start',
        label: 'whole-process lore hook session-start, p50',
        sizes,
        unit: 'ms',
        runs: samples.sessionStart,
        baseline: node,
      }),
      figure({
        name: 'cold.session_start.over_node',
        label: 'lore hook session-start CPU time over node -e 0, p50',
        sizes,
        unit: 'ms',
        runs: over('sessionStart'),
        target: { on: 'median', op: '<=', limit: 80 },
      }),
      figure({
        name: 'cold.help',
        label: 'whole-process lore --help, p50',
        sizes: {},
        unit: 'ms',
        runs: samples.help,
        baseline: node,
      }),
    );
    log(
      `cold: recall ${figures[0].median.toFixed(0)} ms, session-start ` +
        `${figures[2].median.toFixed(0)} ms, --help ` +
        `${figures[4].median.toFixed(0)} ms, node -e 0 ` +
        `${figures[0].baseline!.median.toFixed(0)} ms`,
    );
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  return {
    bench: 'cold',
    title: 'Cold commands: whole-process start on a monorepo-sized docs store',
    method: {
      commands:
        '`node dist/cli.js recall Q` (no model), `hook session-start` ' +
        '(hook JSON on stdin) and `--help`, spawned and waited for, one ' +
        'each per round after a warm-up round; p50 over the rounds',
      baseline:
        '`node -e 0` in every round, interleaved; `.over_node` is the ' +
        "per-round difference in the child's own CPU time " +
        '(bench/cpuAtExit.cjs)',
      store: 'the synthetic docs + infra corpus (bench/docsCorpus.ts) indexed lexically; its chunk count is the size',
    },
    figures,
    notes: [],
    details,
    seconds: (Date.now() - started) / 1000,
  };
}
