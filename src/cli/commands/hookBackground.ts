// `lore hook session-end --background`: the capture in a detached process, so the hook returns at
// once. Claude Code gives a plugin's SessionEnd hooks 1.5 s in all (the hook's own `timeout` does
// not count; only CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS changes it) and cancels what is still
// running when it exits, which a capture on a busy machine was (seen in the real-host tier). The
// child runs the same command without --background, with the hook's JSON in LORE_HOOK_INPUT (its
// stdin is not ours to pass on), in its own process group so the cancellation does not reach it.

import { spawn } from 'node:child_process';

export const HOOK_INPUT_ENV = 'LORE_HOOK_INPUT';

/** Starts the same hook, without --background, detached; returns without waiting for it. */
export function runDetached(input: unknown): void {
  const args = process.argv.slice(2).filter((a) => a !== '--background');
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...args], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [HOOK_INPUT_ENV]: JSON.stringify(input) },
    windowsHide: true,
  });
  child.on('error', () => undefined);
  child.unref();
}
