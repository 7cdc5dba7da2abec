// `lore hook session-start`: the JSON a Claude Code SessionStart hook reads, carrying a bounded
// (9,500 characters, which Claude Code shows whole), fenced block of what this repository's memory
// holds (dead ends first). `pre-compact` and `session-end` hand the session to session_close
// review-first (./hookCapture.ts). On any failure each prints nothing and exits 0, so a missing or
// broken store never blocks a session.

import { existsSync } from 'node:fs';
import { storePaths } from '../../host/dataDir';
import { findLiveOwner } from '../../host/owner';
import type { Command } from '../command';
import { withStore } from '../command';
import { sessionStartBlock, type SessionStartBlock } from '../sessionStartBlock';
import { sessionStartOutput } from '../sessionStartText';
import { HOOK_INPUT_ENV } from './hookBackground';
import { captureSession, type HookInput } from './hookCapture';
import { preToolUse, type PreToolUseInput } from './hookPreToolUse';

const EVENTS = ['session-start', 'pre-tool-use', 'pre-compact', 'session-end'];

/** Reads the hook's JSON input if one is being piped in; an interactive or silent stdin yields nothing. */
async function readHookInput(): Promise<HookInput> {
  const handed = process.env[HOOK_INPUT_ENV];
  if (handed !== undefined) return parseHookInput(handed);
  if (process.stdin.isTTY) return {};
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve) => {
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once('end', resolve);
    process.stdin.once('error', resolve);
    // A host that keeps stdin open without writing must not hang the session start.
    setTimeout(resolve, 1000).unref();
  });
  await done;
  process.stdin.pause();
  return parseHookInput(Buffer.concat(chunks).toString('utf8'));
}

function parseHookInput(text: string): HookInput {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as HookInput) : {};
  } catch {
    return {};
  }
}

export const hookCommand: Command = {
  name: 'hook',
  summary:
    'Claude Code hooks: session-start (a bounded recall block), pre-tool-use (memory anchored to the file an ' +
    'edit changes), pre-compact and session-end (to the Inbox)',
  usage:
    'lore hook session-start | pre-tool-use | pre-compact | session-end [--background] [--workspace DIR]   ' +
    '(reads the hook JSON on stdin; --background: session-end hands the capture to a detached process ' +
    'and returns at once)',
  // --background is handled in dist/cli.js before this bundle loads (./hookBackground.ts).
  options: { background: { type: 'boolean' } },
  positionals: { min: 1, max: 1, names: EVENTS.join(' | ') },
  async run(ctx, _values, [event]) {
    if (!EVENTS.includes(event)) return 0;
    try {
      const input = await readHookInput();
      const workspace = !ctx.workspaceGiven && typeof input.cwd === 'string' ? input.cwd : ctx.workspace;
      if (event === 'pre-tool-use') {
        const output = await preToolUse(input as PreToolUseInput, workspace);
        if (output) process.stdout.write(output + '\n');
        return 0;
      }
      if (event !== 'session-start') {
        const result = await captureSession(workspace, input);
        if (result?.queued) {
          const what = `${result.queued} candidate memor${result.queued === 1 ? 'y' : 'ies'}`;
          const systemMessage = `Lore: ${what} from this session wait in the Inbox for you (lore inbox).`;
          process.stdout.write(JSON.stringify({ systemMessage }) + '\n');
        }
        return 0;
      }
      // A repository Lore has never seen gets no block, and no store is created for it.
      const paths = storePaths(workspace);
      if (!existsSync(paths.database) && !(await findLiveOwner(paths.owner))) return 0;
      // What it lists is also kept as the session snapshot (../sessionSnapshot.ts), from which
      // dist/hookFast.js answers the next session start while the store has not changed.
      let listed: SessionStartBlock | undefined;
      const block = await withStore(workspace, async (engine) => (listed = await sessionStartBlock(engine)), {
        create: false,
        symbols: false,
        session: () => listed,
      });
      const output = sessionStartOutput(block.total, block.items);
      if (output) process.stdout.write(output + '\n');
    } catch {
      // Silent by contract: the session starts without Lore's block.
    }
    return 0;
  },
};
