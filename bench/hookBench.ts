// What an agent host pays for Lore's Claude Code hooks and slash commands, whole process each
// time (node starting dist/cli.js, opening the store, answering, exiting), as Claude Code runs
// them: `lore hook session-start` and `lore hook pre-compact` with the hook JSON on stdin, and the
// CLI behind the slash commands (`/memories` runs `lore list --limit 50`; `/recall` falls back to
// `lore recall` when the MCP server is not connected). Baseline: `lore --version`, the same process
// start with no store work, interleaved with the others in every round.
//
// `lore hook pre-tool-use` (an Edit of a file with an anchored decision, and of one with none) is
// held to 80 ms over `node -e 0`: each round runs both and the bare node start back to back, and
// the figure is the median of the rounds' differences (wall time, and the child's own CPU time
// from bench/cpuAtExit.cjs, which barely moves with the machine's load).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore } from '../src/host/openStore';
import { CLI } from '../test/support/processes';
import { distribution, makeQueries, median } from './memory';
import { elapsedMs, figure, now, type Section } from './result';
import { seedMemories } from './seedStore';

export interface HookBenchOptions {
  quick: boolean;
  memories: number;
  /** Whole-process runs of each command; the figure is their p50. */
  runs: number;
  seed: number;
  dir?: string;
  log?: (line: string) => void;
}

export function hookOptions(quick: boolean, overrides: Partial<HookBenchOptions> = {}): HookBenchOptions {
  return { quick, memories: quick ? 200 : 10_000, runs: quick ? 3 : 20, seed: 20261201, ...overrides };
}

/** A long session's transcript: chatter, tool output, and three fenced candidates near the end. */
function writeTranscript(path: string, lines: number): void {
  const events: string[] = [];
  for (let i = 0; i < lines; i++) {
    const text = `Step ${i}: reading src/module${i % 50}.ts and running the tests again; nothing to keep here.`;
    events.push(
      JSON.stringify({
        type: i % 2 ? 'assistant' : 'user',
        message: { role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] },
      }),
    );
  }
  for (let i = 0; i < 3; i++) {
    const candidate = {
      type: 'decision',
      title: `Bench decision ${i}`,
      description: `Chosen in the bench session, number ${i}`,
    };
    const text = 'Worth keeping:\n```lore-candidate\n' + JSON.stringify(candidate) + '\n```';
    events.push(
      JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } }),
    );
  }
  writeFileSync(path, events.join('\n') + '\n');
}

export const PRE_TOOL_USE_OVER_NODE_MS = 80;
const ANCHORED_FILE = 'src/billing/invoice.ts';
const ANCHORED_KEY = 'decision/invoices-are-immutable';

/** Each round's difference to that round's `node -e 0`. */
function over(values: Record<string, number[]>, key: string): number[] {
  return values[key].map((ms, i) => ms - values.node[i]);
}

/** One decision anchored to a real file (the hook verifies the anchor), and a file nothing is anchored to. */
function seedAnchored(workspace: string, home: string): void {
  mkdirSync(join(workspace, 'src/billing'), { recursive: true });
  writeFileSync(join(workspace, ANCHORED_FILE), 'export function issue() {\n  return 1;\n}\n');
  writeFileSync(join(workspace, 'src/plain.ts'), 'export const plain = 1;\n');
  const store = openStore({ workspace, home, door: 'bench' });
  try {
    store.engine.remember(
      { door: 'import', name: 'bench' },
      {
        type: 'decision',
        key: ANCHORED_KEY,
        title: 'Invoices are immutable once issued',
        description: 'Corrections are credit notes, never edits',
        anchors: [ANCHORED_FILE],
        provenance: { source: 'user', client: 'bench' },
      },
    );
  } finally {
    store.close();
  }
}

export async function hookSection(options: HookBenchOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-'));
  const workspace = join(parent, 'repo');
  const home = join(parent, 'home');
  mkdirSync(join(workspace, '.git'), { recursive: true });
  const env = { ...process.env, LORE_HOME: home, LORE_EMBED: 'off' };
  const transcript = join(parent, 'transcript.jsonl');
  const transcriptLines = options.quick ? 200 : 5_000;
  writeTranscript(transcript, transcriptLines);
  const input = (event: string) =>
    JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: workspace, hook_event_name: event });
  const [query] = makeQueries(options.seed, 1);
  const edit = (file: string) =>
    JSON.stringify({
      session_id: 'bench',
      cwd: workspace,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: join(workspace, file), old_string: 'a', new_string: 'b' },
    });
  const cpuFile = join(parent, 'cpu.txt');
  const commands: Record<string, { args: string[]; stdin?: string; bare?: boolean }> = {
    node: { args: ['-e', '0'], bare: true },
    preToolUse: { args: ['hook', 'pre-tool-use'], stdin: edit(ANCHORED_FILE) },
    preToolUseNone: { args: ['hook', 'pre-tool-use'], stdin: edit('src/plain.ts') },
    baseline: { args: ['--version'] },
    sessionStart: { args: ['hook', 'session-start'], stdin: input('SessionStart') },
    preCompact: { args: ['hook', 'pre-compact'], stdin: input('PreCompact') },
    memories: { args: ['list', '--limit', '50'] },
    recall: { args: ['recall', query] },
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  const preload = ['--require', resolve(__dirname, 'cpuAtExit.cjs')];
  let preToolUseBytes = 0;
  try {
    seedMemories(workspace, home, options.memories, options.seed);
    seedAnchored(workspace, home);
    for (let run = 0; run < options.runs; run++) {
      for (const [name, command] of Object.entries(commands)) {
        rmSync(cpuFile, { force: true });
        const start = now();
        const r = spawnSync(process.execPath, [...preload, ...(command.bare ? [] : [CLI]), ...command.args], {
          cwd: workspace,
          env: { ...env, LORE_BENCH_CPU: cpuFile },
          input: command.stdin ?? '',
          encoding: 'utf8',
        });
        samples[name].push(elapsedMs(start));
        cpu[name].push(Number(readFileSync(cpuFile, 'utf8').trim()));
        if (r.status !== 0) throw new Error(`lore ${command.args.join(' ')} exited ${r.status}: ${r.stderr}`);
        if (name === 'sessionStart' && !r.stdout.includes('additionalContext'))
          throw new Error('the session-start hook printed no block');
        if (name === 'preToolUse') {
          if (!r.stdout.includes(ANCHORED_KEY))
            throw new Error('the pre-tool-use hook did not name the anchored decision');
          preToolUseBytes = Math.max(preToolUseBytes, Buffer.byteLength(r.stdout));
        }
        if (name === 'preToolUseNone' && r.stdout !== '')
          throw new Error(`the pre-tool-use hook printed for a file with nothing anchored: ${r.stdout}`);
      }
    }
    log(
      `hooks: pre-tool-use ${median(over(samples, 'preToolUse')).toFixed(0)} ms over node -e 0 ` +
        `(${median(over(samples, 'preToolUseNone')).toFixed(0)} ms with nothing anchored), session-start p50 ` +
        `${distribution(samples.sessionStart).p50.toFixed(0)} ms, ` +
        `baseline ${distribution(samples.baseline).p50.toFixed(0)} ms`,
    );
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  const sizes = { memories: options.memories };
  const baseline = { label: 'lore --version p50', runs: [distribution(samples.baseline).p50] };
  const whole = (name: string, key: string, label: string, extra: Record<string, number> = {}, target = true) => {
    const d = distribution(samples[key]);
    return figure({
      name,
      label,
      sizes: { ...sizes, ...extra, runs: options.runs },
      unit: 'ms',
      runs: [d.p50],
      p95Runs: [d.p95],
      baseline,
      ...(target ? { target: { on: 'median' as const, op: '<=' as const, limit: 1000 } } : {}),
    });
  };
  const node = { label: 'node -e 0, same round', runs: samples.node };
  const overNode = (name: string, key: string, label: string, values: Record<string, number[]>, target: boolean) =>
    figure({
      name,
      label,
      sizes: { ...sizes, runs: options.runs },
      unit: 'ms',
      runs: over(values, key),
      ...(values === samples ? { baseline: node } : {}),
      ...(target ? { target: { on: 'median' as const, op: '<=' as const, limit: PRE_TOOL_USE_OVER_NODE_MS } } : {}),
    });
  return {
    bench: 'hooks',
    title: 'Claude Code hooks and slash commands, whole process',
    method: {
      session_start:
        '`node dist/cli.js hook session-start` with the SessionStart JSON ' +
        'on stdin, spawned and waited for; p50 over the runs',
      pre_compact:
        '`lore hook pre-compact` with a transcript of many lines and ' +
        'three fenced candidates (queued once, then already queued)',
      slash:
        "/memories = `lore list --limit 50`; /recall's CLI fallback = `lore recall QUERY`, lexical (LORE_EMBED=off)",
      baseline: '`lore --version` (process start and bundle load, no store), interleaved with the others each round',
      pre_tool_use:
        '`lore hook pre-tool-use` with an Edit of a file one decision is anchored to (and of a file with nothing ' +
        "anchored), each round beside `node -e 0`; the figure is the median of the rounds' differences. It " +
        'answers from the anchor snapshot (src/cli/anchorSnapshot.ts) whenever that is current: the first ' +
        'round, and the one after a round whose pre-compact queued candidates, read the store',
    },
    figures: [
      overNode(
        'hooks.pre_tool_use.over_node',
        'preToolUse',
        'lore hook pre-tool-use (anchored file), wall time over node -e 0',
        samples,
        true,
      ),
      overNode(
        'hooks.pre_tool_use.none.over_node',
        'preToolUseNone',
        'lore hook pre-tool-use (nothing anchored), wall time over node -e 0',
        samples,
        true,
      ),
      overNode(
        'hooks.pre_tool_use.cpu_over_node',
        'preToolUse',
        'lore hook pre-tool-use (anchored file), CPU time over node -e 0',
        cpu,
        true,
      ),
      overNode(
        'hooks.pre_tool_use.none.cpu_over_node',
        'preToolUseNone',
        'lore hook pre-tool-use (nothing anchored), CPU time over node -e 0',
        cpu,
        true,
      ),
      overNode(
        'hooks.session_start.over_node',
        'sessionStart',
        'lore hook session-start, wall time over node -e 0',
        samples,
        false,
      ),
      overNode(
        'hooks.session_start.cpu_over_node',
        'sessionStart',
        'lore hook session-start, CPU time over node -e 0',
        cpu,
        false,
      ),
      whole('hooks.session_start', 'sessionStart', 'lore hook session-start, whole process'),
      whole('hooks.pre_compact', 'preCompact', 'lore hook pre-compact, whole process', {
        transcript_lines: transcriptLines,
      }),
      whole('hooks.slash_memories', 'memories', '/memories (lore list), whole process', {}, false),
      whole('hooks.slash_recall', 'recall', '/recall CLI fallback (lore recall), whole process', {}, false),
    ],
    notes: [
      'a hook is held to 1 s at the median; Claude Code waits for SessionStart before the first prompt',
      `pre-tool-use runs before every edit: held to ${PRE_TOOL_USE_OVER_NODE_MS} ms over node -e 0; ` +
        `its largest output was ${preToolUseBytes} bytes (bounded at 2 KB, checked in test/e2e/verifiedRecall.test.ts)`,
    ],
    seconds: (Date.now() - started) / 1000,
  };
}
