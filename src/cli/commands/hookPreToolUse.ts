// `lore hook pre-tool-use`: Claude Code's PreToolUse hook on Edit, Write and MultiEdit. Before the
// agent changes a file, it is told the decisions and dead ends anchored to that file, each with
// whether it still holds, in a fenced block of at most PRE_EDIT_BLOCK_BYTES. With nothing anchored
// (or no store, or another tool) it prints nothing, so ordinary edits cost the agent no tokens.
// This is the path through the store; ../hookFast.ts answers first from the anchor snapshot when
// that is current (../anchorSnapshot.ts), and falls back to here when it is not.

import { existsSync } from 'node:fs';
import { storePaths } from '../../host/dataDir';
import { findLiveOwner } from '../../host/owner';
import { anchoredLines } from '../anchoredLines';
import { withStore } from '../command';
import { PRE_EDIT_LIMIT, PRE_EDIT_TYPES, editedPath, preToolUseOutput, type PreToolUseInput } from '../preToolUseText';

export { PRE_EDIT_BLOCK_BYTES, type PreToolUseInput } from '../preToolUseText';

/** The hook's JSON output, or null when there is nothing to say. */
export async function preToolUse(input: PreToolUseInput, workspace: string): Promise<string | null> {
  const path = editedPath(input, workspace);
  if (!path) return null;
  // A repository Lore has never seen gets nothing, and no store is created for it.
  const paths = storePaths(workspace);
  if (!existsSync(paths.database) && !(await findLiveOwner(paths.owner))) return null;
  const found = await withStore(
    workspace,
    (engine) => engine.verifiedAnchoredTo({ path, types: PRE_EDIT_TYPES, limit: PRE_EDIT_LIMIT }),
    { create: false, symbols: false },
  );
  return preToolUseOutput(path, anchoredLines(found.items));
}
