// dist/hookFast.js: `lore hook pre-tool-use` without the command bundle. Claude Code runs the hook
// before every edit, so its start is most of its cost: this entry loads a few small modules, reads
// the hook's JSON, and answers from the anchor snapshot (./anchorSnapshot.ts) when it is current.
// Whenever it cannot answer for certain (an owner process serves the store, the snapshot is
// missing, stale, foreign or tampered, a referenced file changed), it hands the input it read to
// the full command (dist/cliMain.js, commands/hook.ts), which reads the store as it always did and
// refreshes the snapshot. It prints nothing on any failure, as the full hook does.

import { existsSync } from 'node:fs';
import { findWorkspaceRoot, storePaths } from '../host/dataDir';
import { isLive, readOwner } from '../host/ownerLock';
import { snapshotLines } from './anchorSnapshot';
import { HOOK_INPUT_ENV } from './commands/hookBackground';
import { editedPath, preToolUseOutput, type PreToolUseInput } from './preToolUseText';

/** The workspace given with --workspace/-w, '' when none, or null when the arguments are not only the hook's. */
function hookArgs(argv: readonly string[]): string | null {
  let workspace = '';
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if ((arg === '--workspace' || arg === '-w') && i + 1 < argv.length) workspace = argv[++i];
    else if (arg.startsWith('--workspace=')) workspace = arg.slice('--workspace='.length);
    else rest.push(arg);
  }
  return rest.length === 2 && rest[0] === 'hook' && rest[1] === 'pre-tool-use' ? workspace : null;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.once('end', resolve);
    process.stdin.once('error', resolve);
    // A host that keeps stdin open without writing must not hang the edit (as commands/hook.ts).
    setTimeout(resolve, 1000).unref();
  });
  process.stdin.pause();
  return Buffer.concat(chunks).toString('utf8');
}

function parse(text: string): PreToolUseInput {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as PreToolUseInput) : {};
  } catch {
    return {};
  }
}

/**
 * Answers the hook if it can: true when it has (printed the answer, or nothing), false when the
 * full command must; then the input it read is in $LORE_HOOK_INPUT for it.
 */
export async function preToolUseFast(argv: readonly string[]): Promise<boolean> {
  const given = hookArgs(argv);
  // Memories in a shared store change without the local file changing: only the full command knows.
  if (given === null || process.env.LORE_STORE) return false;
  const text = process.env[HOOK_INPUT_ENV] ?? (await readStdin());
  process.env[HOOK_INPUT_ENV] = text;
  try {
    const input = parse(text);
    const workspace = given || (typeof input.cwd === 'string' ? input.cwd : findWorkspaceRoot(process.cwd()));
    const path = editedPath(input, workspace);
    if (!path) return true;
    const paths = storePaths(workspace);
    const owner = readOwner(paths.owner);
    // A live owner answers over its loopback HTTP: the full command asks it.
    if (owner && isLive(owner, paths.owner)) return false;
    // A repository Lore has never seen gets nothing, and no store is created for it.
    if (!existsSync(paths.database)) return true;
    const lines = snapshotLines(paths, path);
    if (lines === null) return false;
    const output = preToolUseOutput(path, lines);
    if (output) process.stdout.write(output + '\n');
    return true;
  } catch {
    return false;
  }
}
