// What an agent host pays for Lore's Claude Code hooks and slash commands, whole process each
// time (node starting dist/cli.js, opening the store, answering, exiting), as Claude Code runs
// them: `lore hook session-start` and `lore hook pre-compact` with the hook JSON on stdin, and the
// CLI behind the slash commands (`/memories` runs `lore list --limit 50`; `/recall` falls back to
// `lore recall` when the MCP server is not connected). Baseline: `lore --version`, the same process
// start with no store work, interleaved with the others in every round.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../test/support/processes';
import { distribution, makeQueries } from './memory';
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
  const commands: Record<string, { args: string[]; stdin?: string }> = {
    baseline: { args: ['--version'] },
    sessionStart: { args: ['hook', 'session-start'], stdin: input('SessionStart') },
    preCompact: { args: ['hook', 'pre-compact'], stdin: input('PreCompact') },
    memories: { args: ['list', '--limit', '50'] },
    recall: { args: ['recall', query] },
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  try {
    seedMemories(workspace, home, options.memories, options.seed);
    for (let run = 0; run < options.runs; run++) {
      for (const [name, command] of Object.entries(commands)) {
        const start = now();
        const r = spawnSync(process.execPath, [CLI, ...command.args], {
          cwd: workspace,
          env,
          input: command.stdin ?? '',
          encoding: 'utf8',
        });
        samples[name].push(elapsedMs(start));
        if (r.status !== 0) throw new Error(`lore ${command.args.join(' ')} exited ${r.status}: ${r.stderr}`);
        if (name === 'sessionStart' && !r.stdout.includes('additionalContext'))
          throw new Error('the session-start hook printed no block');
      }
    }
    log(
      `hooks: session-start p50 ` +
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
    },
    figures: [
      whole('hooks.session_start', 'sessionStart', 'lore hook session-start, whole process'),
      whole('hooks.pre_compact', 'preCompact', 'lore hook pre-compact, whole process', {
        transcript_lines: transcriptLines,
      }),
      whole('hooks.slash_memories', 'memories', '/memories (lore list), whole process', {}, false),
      whole('hooks.slash_recall', 'recall', '/recall CLI fallback (lore recall), whole process', {}, false),
    ],
    notes: ['a hook is held to 1 s at the median; Claude Code waits for SessionStart before the first prompt'],
    seconds: (Date.now() - started) / 1000,
  };
}
