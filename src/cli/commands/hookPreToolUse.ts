// `lore hook pre-tool-use`: Claude Code's PreToolUse hook on Edit, Write and MultiEdit. Before the
// agent changes a file, it is told the decisions and dead ends anchored to that file, each with
// whether it still holds, in a fenced block of at most PRE_EDIT_BLOCK_BYTES. With nothing anchored
// (or no store, or another tool) it prints nothing, so ordinary edits cost the agent no tokens.

import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { describeVerification, type MemorySummary, type Verification } from '../../engine';
import { storePaths } from '../../host/dataDir';
import { findLiveOwner } from '../../host/owner';
import { fence } from '../../mcp/fence';
import { withStore } from '../command';

export const PRE_EDIT_BLOCK_BYTES = 2048;
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit']);
const TYPES = ['dead_end', 'decision'];

export interface PreToolUseInput {
  cwd?: unknown;
  tool_name?: unknown;
  tool_input?: { file_path?: unknown } | null;
}

function line(m: MemorySummary & { verification: Verification }): string {
  const v = m.verification;
  const holds = v.state === 'holds' || v.state === 'unanchored';
  const state = holds ? ` (${v.state})` : `\n  ${describeVerification(v)}`;
  return `- ${m.type === 'dead_end' ? 'DEAD END ' : ''}${m.key}: ${m.title} — ${m.description}${state}`;
}

/** The hook's JSON output, or null when there is nothing to say. */
export async function preToolUse(input: PreToolUseInput, workspace: string): Promise<string | null> {
  const file = input.tool_input?.file_path;
  if (typeof input.tool_name !== 'string' || !EDIT_TOOLS.has(input.tool_name) || typeof file !== 'string') return null;
  const native = relative(workspace, isAbsolute(file) ? file : resolve(workspace, file));
  if (!native || native.startsWith('..') || isAbsolute(native)) return null;
  const path = native.split(sep).join('/');
  // A repository Lore has never seen gets nothing, and no store is created for it.
  const paths = storePaths(workspace);
  if (!existsSync(paths.database) && !(await findLiveOwner(paths.owner))) return null;
  const found = await withStore(
    workspace,
    (engine) => engine.verifiedAnchoredTo({ path: path, types: TYPES, limit: 10 }),
    {
      create: false,
      symbols: false,
    },
  );
  if (!found.items.length) return null;
  // Dead ends first, then what still holds, then what no longer does.
  const rank = (m: (typeof found.items)[number]) =>
    (m.type === 'dead_end' ? 0 : 2) +
    (m.verification.state === 'contradicted' || m.verification.state === 'anchors_gone' ? 1 : 0);
  const ordered = [...found.items].sort((a, b) => rank(a) - rank(b));
  const block = fence(`memory anchored to ${path}`, ordered.map(line), {
    maxBytes: PRE_EDIT_BLOCK_BYTES - 200,
    more: 'call recall for the rest',
  });
  const additionalContext = `Lore: before you change ${path}, read what is anchored to it.\n` + block.text;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext } });
}
