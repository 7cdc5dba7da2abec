// The owner while the real tree indexes (issue 26, points 3 and 4), inside a real `lore serve`
// (dist/cli.js) with the bench-only probe preloaded (bench/loopProbe.cjs):
//   loop delay     perf_hooks' monitorEventLoopDelay p99 over the window from a full index request
//                  to its answer, against an idle window of the same process;
//   recall         a recall through the owner's /rpc, repeated while the index runs, against the
//                  same recall once the owner is idle again (the ratio of medians);
//   fresh          after the index: a save of a file other documents refer to (written whole, then
//                  hinted as the editor does), to the owner's `drift` event on /events that names it,
//                  i.e. the file re-indexed, its chunks written and every reference into it classified.
// The workspace is a copy of the real tree (bench/realTree.ts lays it out; `trees` picks some of its
// repositories), so the saves never touch the cache. `--quick` copies the test fixtures instead.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, resolve } from 'node:path';
import { readIndexLines } from '../src/host/engineApi';
import { CLI, startServe, type ServeProcess } from '../test/support/processes';
import { median } from './memory';
import { PROBE, readProbe, type ProbeStats } from './ownerBench';
import { realTreeRoot } from './realTree';
import { elapsedMs, figure, now, type Section } from './result';

const QUICK_TREE = resolve(__dirname, '..', 'test', 'fixtures');

export interface OwnerLoadOptions {
  quick: boolean;
  /** The real tree's repositories to copy (all of them when empty). */
  trees: string[];
  /** Saves measured for freshness. */
  saves: number;
  /** Recalls measured when idle. */
  idleRecalls: number;
  query: string;
  dir?: string;
  log?: (line: string) => void;
}

export function ownerLoadOptions(quick: boolean, overrides: Partial<OwnerLoadOptions> = {}): OwnerLoadOptions {
  const trees = (process.env.LORE_BENCH_OWNER_TREES ?? '').split(',').filter(Boolean);
  return {
    quick,
    trees,
    saves: quick ? 2 : 7,
    idleRecalls: quick ? 5 : 15,
    query: 'upgrade the cluster configuration',
    ...overrides,
  };
}

interface EventStream {
  next(test: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

/** The owner's /events, read as the editor reads it. */
function openEvents(serve: ServeProcess, events: string): Promise<EventStream> {
  const base = serve.url.replace(/\/mcp$/, '');
  return new Promise((resolveOpen, reject) => {
    const req = request(`${base}/events?events=${events}`, { headers: { authorization: `Bearer ${serve.token}` } });
    req.once('error', reject);
    req.once('response', (res: IncomingMessage) => {
      type Waiter = { test: (e: Record<string, unknown>) => boolean; done: (e: Record<string, unknown>) => void };
      const waiting: Waiter[] = [];
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk;
        const frames = pending.split('\n\n');
        pending = frames.pop() ?? '';
        for (const frame of frames)
          for (const line of frame.split('\n')) {
            if (!line.startsWith('data: ')) continue;
            const event = JSON.parse(line.slice(6)) as Record<string, unknown>;
            for (const w of [...waiting])
              if (w.test(event)) {
                waiting.splice(waiting.indexOf(w), 1);
                w.done(event);
              }
          }
      });
      resolveOpen({
        next: (test) => new Promise((done) => waiting.push({ test, done })),
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

async function rpc(serve: ServeProcess, op: string, args: unknown[]): Promise<unknown> {
  const response = await fetch(serve.url.replace(/\/mcp$/, '/rpc'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${serve.token}` },
    body: JSON.stringify({ op, args }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${op}: ${body.error.message}`);
  return body.result;
}

async function timedRecall(serve: ServeProcess, query: string): Promise<number> {
  const start = now();
  await rpc(serve, 'recall', [{ query, limit: 5 }]);
  return elapsedMs(start);
}

/** The markdown files the most relative links point at (the files whose saves have references to check). */
function mostLinked(root: string, count: number): string[] {
  const linked = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(rel);
      else if (entry.isFile() && rel.endsWith('.md')) {
        const text = readFileSync(join(root, rel), 'utf8');
        for (const m of text.matchAll(/\]\(([^)#\s:]+\.md)(?:#[^)]*)?\)/g)) {
          const target = normalize(join(dirname(rel), m[1])).replace(/\\/g, '/');
          if (!target.startsWith('..') && existsSync(join(root, target)))
            linked.set(target, (linked.get(target) ?? 0) + 1);
        }
      }
    }
  };
  walk('');
  return [...linked.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([path]) => path);
}

function copyTree(options: OwnerLoadOptions, workspace: string): void {
  const source = options.quick ? QUICK_TREE : realTreeRoot();
  const names = options.quick || !options.trees.length ? ['.'] : options.trees;
  execFileSync('mkdir', ['-p', workspace]);
  for (const name of names) {
    const into = name === '.' ? join(workspace, '..', 'copy') : workspace;
    execFileSync('cp', ['-a', '--reflink=auto', join(source, name), into]);
  }
  if (names[0] === '.') {
    rmSync(workspace, { recursive: true, force: true });
    renameSync(join(workspace, '..', 'copy'), workspace);
  }
}

export async function ownerLoadSection(options: OwnerLoadOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-owner-load-'));
  const workspace = join(parent, 'repo');
  const home = join(parent, 'home');
  const probeFile = join(parent, 'probe.json');
  copyTree(options, workspace);
  const env = {
    ...process.env,
    LORE_HOME: home,
    LORE_EMBED: 'off',
    LORE_BENCH_PROBE_FILE: probeFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim(),
    ...cpuProfile(),
  };
  const serve = await startServe({ home, workspace, env });
  let idle: ProbeStats;
  let busy: ProbeStats;
  const busyRecalls: number[] = [];
  const idleRecalls: number[] = [];
  const fresh: number[] = [];
  const referencesChecked: number[] = [];
  let files: number;
  let indexMs: number;
  try {
    let seq = (await readProbe(serve, probeFile, 0)).seq; // closes the start-up window
    await new Promise((r) => setTimeout(r, options.quick ? 300 : 2000));
    idle = await readProbe(serve, probeFile, seq);
    seq = idle.seq;
    const start = now();
    const indexing = fetch(serve.url.replace(/\/mcp$/, '/rpc'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${serve.token}` },
      body: JSON.stringify({ op: 'indexWorkspace', args: ['', { full: true }] }),
    }).then(async (response) => (await readIndexLines(response)) as { summary: { files: number } });
    let done = false;
    void indexing.finally(() => (done = true)).catch(() => {});
    // Recalls one after another while the index runs (a person asking from the editor, an agent's tool call).
    while (!done) {
      const ms = await timedRecall(serve, options.query);
      if (!done) busyRecalls.push(ms);
      await new Promise((r) => setTimeout(r, 50));
    }
    const summary = (await indexing).summary;
    indexMs = elapsedMs(start);
    files = summary.files;
    busy = await readProbe(serve, probeFile, seq);
    seq = busy.seq;
    log(
      `owner load: ${files} files indexed in ${(indexMs / 1000).toFixed(1)} s; loop delay p99 ` +
        `${busy.eldP99Ms.toFixed(0)} ms (idle ${idle.eldP99Ms.toFixed(0)}), max ${busy.eldMaxMs.toFixed(0)} ms; ` +
        `longest task ${busy.longestTaskCpuMs.toFixed(0)} ms CPU (idle ${idle.longestTaskCpuMs.toFixed(0)}); ` +
        `${busyRecalls.length} recalls meanwhile`,
    );
    for (let i = 0; i < options.idleRecalls; i++) idleRecalls.push(await timedRecall(serve, options.query));

    // Saves: each appends a line to one of the most-linked files, written whole, then hinted.
    const stream = await openEvents(serve, 'drift');
    try {
      const targets = mostLinked(workspace, options.saves);
      for (const [round, target] of targets.entries()) {
        const path = join(workspace, target);
        const text = `${readFileSync(path, 'utf8')}\nA line the bench added, round ${round}.\n`;
        const draft = join(parent, 'draft.md');
        writeFileSync(draft, text);
        const checked = stream.next((e) => (e.paths as string[] | undefined)?.includes(target) === true);
        const saved = now();
        renameSync(draft, path);
        await rpcHint(serve, [target]);
        const event = (await checked) as { findings: unknown[]; current: unknown[] };
        fresh.push(elapsedMs(saved));
        referencesChecked.push(event.findings.length + event.current.length);
        // The watcher's own report of the save comes after: let it pass before the next save.
        await new Promise((r) => setTimeout(r, 1000));
      }
    } finally {
      stream.close();
    }
    log(
      `owner load: fresh after a save ${median(fresh).toFixed(0)} ms (median of ${fresh.length}); ` +
        `recall ${median(busyRecalls).toFixed(0)} ms while indexing, ${median(idleRecalls).toFixed(0)} ms idle`,
    );
  } finally {
    await serve.stop();
    rmSync(parent, { recursive: true, force: true });
  }
  const sizes = { files: files! };
  return {
    bench: 'owner-load',
    title: 'Owner (lore serve) while the real tree indexes, and after a save',
    method: {
      loop_delay:
        "perf_hooks' monitorEventLoopDelay in lore serve (bench/loopProbe.cjs), p99 over the window from a full " +
        'index request to its answer; baseline: an idle window of the same process before it',
      recall:
        "a recall over the owner's /rpc, one after another while the index runs; baseline: the same recall once " +
        'the index has finished (the store then holds everything)',
      fresh:
        'a save of one of the most-linked markdown files (written whole, then POST /changed as the editor does) ' +
        'to the drift event on /events naming it: re-indexed, chunks written, every reference into it classified',
      owner_cpu: "the lore serve process's CPU time over the index window (process.cpuUsage in the probe)",
      longest_task:
        "the most CPU lore serve used between two ticks of the probe's 10 ms timer over the index window: the " +
        'longest synchronous task in CPU ms (an upper bound; meaningful on a loaded machine, unlike the wall delay)',
    },
    figures: [
      figure({
        name: 'owner_load.longest_task_cpu',
        label: "owner's longest synchronous task while the tree indexes (CPU)",
        sizes,
        unit: 'ms',
        runs: [busy!.longestTaskCpuMs],
        baseline: { label: 'idle', runs: [idle!.longestTaskCpuMs] },
        target: { on: 'median', op: '<=', limit: 50 },
      }),
      figure({
        name: 'owner_load.loop_delay.p99',
        label: 'owner event-loop delay p99 while the tree indexes',
        sizes,
        unit: 'ms',
        runs: [busy!.eldP99Ms],
        baseline: { label: 'idle p99', runs: [idle!.eldP99Ms] },
        target: { on: 'median', op: '<=', limit: 50 },
      }),
      figure({
        name: 'owner_load.recall',
        label: 'recall through the owner while the tree indexes',
        sizes,
        unit: 'ms',
        runs: busyRecalls,
        baseline: { label: 'idle recall', runs: idleRecalls },
        target: { on: 'ratio', op: '<=', limit: 2 },
      }),
      figure({
        name: 'owner_load.fresh_after_save',
        label: 'save to drift current (via /events)',
        sizes,
        unit: 'ms',
        runs: fresh,
        target: { on: 'median', op: '<=', limit: 200 },
      }),
      figure({
        name: 'owner_load.index_cpu_per_file',
        label: "owner's CPU per file indexed",
        sizes,
        unit: 'ms',
        runs: [busy!.cpuMs / Math.max(1, files!)],
      }),
    ],
    notes: [],
    seconds: (Date.now() - started) / 1000,
    details: { idle: idle!, busy: busy!, indexMs: indexMs!, busyRecalls, idleRecalls, fresh, referencesChecked },
  };
}

/** `LORE_BENCH_OWNER_CPU_PROF=FILE`: the probe writes lore serve's V8 CPU profile there when it stops. */
function cpuProfile(): Record<string, string> {
  const file = process.env.LORE_BENCH_OWNER_CPU_PROF;
  return file ? { LORE_BENCH_PROBE_CPU_PROF: resolve(file) } : {};
}

async function rpcHint(serve: ServeProcess, paths: string[]): Promise<void> {
  const response = await fetch(serve.url.replace(/\/mcp$/, '/changed'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${serve.token}` },
    body: JSON.stringify({ paths }),
  });
  if (response.status !== 202) throw new Error(`POST /changed answered ${response.status}`);
}
