// `lore hook session-end --background`: the capture in a detached process, so the hook returns at
// once. Claude Code gives a plugin's SessionEnd hooks 1.5 s in all (the hook's own `timeout` does
// not count; only CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS changes it) and cancels what is still
// running when it exits, which a capture on a busy machine was (seen in the real-host tier). So the
// hand-off happens in dist/cli.js (../start.ts) before the command bundle is even read: this module
// uses Node's built-ins only. The child runs the same command without --background, with the hook's
// JSON in LORE_HOOK_INPUT (its stdin is not ours to pass on), in its own process group so the
// cancellation does not reach it.

import { spawn } from 'node:child_process';

export const HOOK_INPUT_ENV = 'LORE_HOOK_INPUT';
/** A host that keeps stdin open without writing must not hold the hook. */
const STDIN_WAIT_MS = 1000;

/** Whether a command line (argv after node and the script) is `hook session-end --background`. */
export function isBackgroundSessionEnd(args: string[]): boolean {
  const hook = args.indexOf('hook');
  return hook >= 0 && args[hook + 1] === 'session-end' && args.includes('--background');
}

/** The hook's input as piped in (empty for a terminal or a silent stdin). */
function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    const done = () => {
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once('end', done);
    process.stdin.once('error', done);
    setTimeout(done, STDIN_WAIT_MS).unref();
  });
}

/** Starts the same hook, without --background, detached, with `input` as its hook JSON; does not wait. */
export function runDetached(args: string[], input: string): void {
  const child = spawn(
    process.execPath,
    [...process.execArgv, process.argv[1], ...args.filter((a) => a !== '--background')],
    { detached: true, stdio: 'ignore', env: { ...process.env, [HOOK_INPUT_ENV]: input }, windowsHide: true },
  );
  child.on('error', () => undefined);
  child.unref();
}

/** The whole foreground part of `hook session-end --background`: read stdin, hand off, exit 0. */
export async function handOffSessionEnd(args: string[]): Promise<void> {
  try {
    runDetached(args, await readStdin());
  } catch {
    // Silent by contract: a hook never blocks or fails the session.
  }
  process.exitCode = 0;
}
