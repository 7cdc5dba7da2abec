// Writer child processes for the PostgreSQL tests, started one way: `node --import tsx <script>
// '<json options>'`, one JSON line per outcome on stdout. A writer opens its store, says
// {"type":"ready"}, and waits for its stdin to close before it writes: so every writer is connected
// before any fault is injected, and all start writing at once. Whatever a test did, no writer
// outlives it: `stopWriters` (an `after` hook) and the run's exit kill those still running, since a
// writer left alone after a failed test retried a stopped server for ever and the run never ended.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(__dirname, '..', '..');

export interface WriterProcess<Line> {
  /** Every line the writer printed so far, in order (its `ready` line left out). */
  lines: Line[];
  /** Resolves once the writer has printed `n` lines of type 'ack'. */
  acked(n: number): Promise<void>;
  /** Resolves once the writer has printed `n` outcomes ('ack' or 'refused': a slow writer may lose every race). */
  answered(n: number): Promise<void>;
  /** Resolves when the writer exits 0; rejects with its stderr otherwise. */
  done: Promise<void>;
}

const children = new Set<ChildProcess>();

/** Kills every writer still running (an `after` hook's cleanup, and the run's exit). */
export function stopWriters(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}
process.once('exit', stopWriters);

function startOne<Line extends { type: string }>(
  script: string,
  options: { writer: number },
): { process: WriterProcess<Line>; ready: Promise<void>; child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: Line[] = [];
  const waiting: Array<{ n: number; of: 'acks' | 'answers'; resolve: () => void }> = [];
  const count = { acks: 0, answers: 0 };
  let stderr = '';
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    if (line.type === 'ready') return markReady();
    lines.push(line);
    if (line.type === 'ack') count.acks++;
    if (line.type === 'ack' || line.type === 'refused') count.answers++;
    for (const w of waiting.filter((w) => count[w.of] >= w.n)) w.resolve();
  });
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`writer ${options.writer} exited ${code ?? signal}: ${stderr}`));
    }),
  );
  const reach = (n: number, of: 'acks' | 'answers') =>
    count[of] >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, of, resolve }));
  return {
    child,
    ready,
    process: {
      lines,
      acked: (n) => reach(n, 'acks'),
      answered: (n) => reach(n, 'answers'),
      done,
    },
  };
}

/**
 * Starts one writer per options object, waits until each has opened its store, then lets them all
 * write. A writer that fails before it is ready fails this call.
 */
export async function startWriters<Line extends { type: string }>(
  script: 'test/support/engineWriter.ts' | 'test/support/pgWriter.ts',
  all: Array<{ writer: number }>,
): Promise<WriterProcess<Line>[]> {
  const started = all.map((options) => startOne<Line>(script, options));
  await Promise.all(started.map((s) => Promise.race([s.ready, s.process.done])));
  for (const s of started) s.child.stdin!.end();
  return started.map((s) => s.process);
}

/** In a writer, once its store is open: says so, and blocks until the test lets it write (stdin closes). */
export function readyThenWait(): void {
  writeSync(1, `${JSON.stringify({ type: 'ready' })}\n`);
  readFileSync(0);
}
