// A victim process for the kill -9 tests (test/e2e/*Crash.test.ts): runs a test/support script with
// its options as JSON, waits for the one line it prints when it has reached the moment to be
// killed, kills it with SIGKILL and hands back that line, parsed, and how the process ended.

import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../..');

export async function runAndKill<Signal>(
  victim: string,
  options: unknown,
  env: NodeJS.ProcessEnv = {},
): Promise<{ signal: Signal; exitSignal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, victim), JSON.stringify(options)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    void exited.then(({ code, signal }) =>
      fail(new Error(`${victim} ended (code ${code}, signal ${signal}) before it was to be killed:\n${stderr}`)),
    );
  });
  child.kill('SIGKILL');
  const { signal } = await exited;
  return { signal: JSON.parse(line) as Signal, exitSignal: signal };
}
