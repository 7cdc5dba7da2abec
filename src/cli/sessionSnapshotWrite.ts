// Writing the session snapshot (./sessionSnapshot.ts says what it is and when it is trusted): the
// session-start hook that read the store hands over what it listed, and it is written as the store
// closes, stamped with the change counter read after the database closed and before the owner lock
// is released (as the anchor snapshot is), so no other write can come between.

import type { Engine } from '../engine';
import type { StorePaths } from '../host/dataDir';
import type { OpenStore } from '../host/openStore';
import { referencedFiles, writeSnapshot } from './anchorSnapshotWrite';
import { SESSION_SNAPSHOT_FORMAT, sessionSnapshotFile, type SessionSnapshotBody } from './sessionSnapshot';
import type { SessionStartBlock } from './sessionStartBlock';

/** The body for `block` as of now (without its counter), or null when only the store can judge it. */
export function buildSessionSnapshot(
  engine: Engine,
  paths: StorePaths,
  block: SessionStartBlock,
  now = new Date().toISOString(),
): Omit<SessionSnapshotBody, 'counter'> | null {
  const memo = new Map<string, Array<[string, number, number]> | null>();
  const files: Array<[string, number, number]> = [];
  let until: string | null = null;
  for (const record of block.listed) {
    const theirs = referencedFiles(engine, paths, record.key, memo);
    if (!theirs) return null;
    files.push(...theirs);
    // flagsFor (engine/record/rows.ts) marks a record stale or expired once the date reaches these.
    for (const date of [record.review_after, record.valid_until])
      if (date && date > now && (until === null || date < until)) until = date;
  }
  return {
    format: SESSION_SNAPSHOT_FORMAT,
    workspace: paths.workspaceRoot,
    store_id: engine.storeId,
    total: block.total,
    items: block.items,
    files,
    until,
  };
}

/**
 * The write to run as the store closes (closeWithSnapshot's `alsoLocked`) for what the hook listed,
 * or undefined when there is nothing to write: the process wrote to the store (what it listed may
 * be older than what it leaves), or only the store can judge a listed record.
 */
export function sessionSnapshotWriter(
  store: OpenStore,
  block: SessionStartBlock | undefined,
): (() => void) | undefined {
  if (!block) return undefined;
  try {
    if (store.changes() !== 0) return undefined;
    const body = buildSessionSnapshot(store.engine, store.paths, block);
    return body ? () => void writeSnapshot(store.paths, body, sessionSnapshotFile(store.paths)) : undefined;
  } catch {
    return undefined;
  }
}
