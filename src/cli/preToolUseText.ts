// What `lore hook pre-tool-use` says, shared by its two paths (commands/hookPreToolUse.ts, which
// reads the store, and hookFast.ts, which reads the anchor snapshot): which tool calls it answers,
// the edited file's workspace path, and the fenced block around the anchored records' lines.
// Light on purpose: the fast path loads this and little else.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fence } from '../mcp/fence';

export const PRE_EDIT_BLOCK_BYTES = 2048;
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit']);
/** The record types an agent about to edit a file is told of. */
export const PRE_EDIT_TYPES = ['dead_end', 'decision'];
/** How many anchored records one answer reads (and verifies). */
export const PRE_EDIT_LIMIT = 10;

export interface PreToolUseInput {
  cwd?: unknown;
  tool_name?: unknown;
  tool_input?: { file_path?: unknown } | null;
}

/** The workspace-relative path (forward slashes) an edit tool call changes; null for anything else. */
export function editedPath(input: PreToolUseInput, workspace: string): string | null {
  const file = input.tool_input?.file_path;
  if (typeof input.tool_name !== 'string' || !EDIT_TOOLS.has(input.tool_name) || typeof file !== 'string') return null;
  const native = relative(workspace, isAbsolute(file) ? file : resolve(workspace, file));
  if (!native || native.startsWith('..') || isAbsolute(native)) return null;
  return native.split(sep).join('/');
}

/** The hook's JSON output for the records' lines (already ordered), or null when there are none. */
export function preToolUseOutput(path: string, lines: readonly string[]): string | null {
  if (!lines.length) return null;
  const block = fence(`memory anchored to ${path}`, [...lines], {
    maxBytes: PRE_EDIT_BLOCK_BYTES - 200,
    more: 'call recall for the rest',
  });
  const additionalContext = `Lore: before you change ${path}, read what is anchored to it.\n` + block.text;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext } });
}
