// Writing the anchor snapshot (./anchorSnapshot.ts says what it is and when it is trusted). A
// process that opened the store itself refreshes it as it closes the store, when it wrote to the
// store or found the snapshot stale: the body is read through the engine, exactly as the hook
// would read it (verifiedAnchoredTo per path), and stamped with the change counter read after the
// database closed and before the owner lock is released, so no other write can come between.

import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DRIFT_STATES, type Engine } from '../engine';
import type { StorePaths } from '../host/dataDir';
import type { OpenStore } from '../host/openStore';
import { DiskWorkspaceReader } from '../host/workspaceReader';
import {
  SNAPSHOT_FORMAT,
  changeCounter,
  macOf,
  readSnapshot,
  snapshotCurrent,
  snapshotFile,
  snapshotKey,
  type SnapshotBody,
  type SnapshotEntry,
} from './anchorSnapshot';
import { anchoredLines } from './anchoredLines';
import { PRE_EDIT_LIMIT, PRE_EDIT_TYPES } from './preToolUseText';

/** Past this many anchored paths no snapshot is kept (the hook reads the store): it stays small. */
export const SNAPSHOT_MAX_PATHS = 5000;
/** Drift states whose read-time check looks beyond the target's own file: only the store can judge them. */
const STORE_ONLY_STATES = new Set(['relocated', 'gone', 'broken']);

/** The snapshot's body as of now (without its counter), or null when there are too many paths to keep. */
export function buildSnapshot(
  engine: Engine,
  paths: StorePaths,
  storeId: string,
): Omit<SnapshotBody, 'counter'> | null {
  const candidates = engine.anchoredPaths(PRE_EDIT_TYPES);
  if (candidates.length > SNAPSHOT_MAX_PATHS) return null;
  const filesOf = new Map<string, Array<[string, number, number]> | null>();
  const referenced = (key: string): Array<[string, number, number]> | null => {
    if (filesOf.has(key)) return filesOf.get(key)!;
    let files: Array<[string, number, number]> | null = [];
    for (const finding of engine.driftFindings({ key, states: [...DRIFT_STATES] })) {
      if (finding.source.kind !== 'memory' || finding.source.key !== key) continue;
      if (STORE_ONLY_STATES.has(finding.state)) files = null;
      for (const target of [finding.reference.target_path, finding.evidence.new_path]) {
        if (!files || !target) continue;
        try {
          const stat = statSync(join(paths.workspaceRoot, target));
          files.push([join(paths.workspaceRoot, target), stat.size, stat.mtimeMs]);
        } catch {
          files = null;
        }
      }
    }
    filesOf.set(key, files);
    return files;
  };
  const out: Record<string, SnapshotEntry | null> = {};
  for (const path of candidates) {
    if (path.length > 1000) continue;
    const { items } = engine.verifiedAnchoredTo({ path, types: PRE_EDIT_TYPES, limit: PRE_EDIT_LIMIT });
    if (!items.length) continue;
    const files: Array<[string, number, number]> = [];
    let storeOnly = false;
    for (const item of items) {
      const theirs = referenced(item.key);
      if (!theirs) storeOnly = true;
      else files.push(...theirs);
    }
    out[path] = storeOnly ? null : { lines: anchoredLines(items), files };
  }
  return {
    format: SNAPSHOT_FORMAT,
    workspace: paths.workspaceRoot,
    store_id: storeId,
    types: PRE_EDIT_TYPES,
    limit: PRE_EDIT_LIMIT,
    paths: out,
  };
}

/** Writes the body stamped with the database's counter now, whole (temp file, then rename), 0600. */
export function writeSnapshot(paths: StorePaths, body: Omit<SnapshotBody, 'counter'>): boolean {
  const key = snapshotKey(paths.home);
  const counter = changeCounter(paths.database);
  if (!key || counter === null) return false;
  const text = JSON.stringify({ ...body, counter });
  const file = snapshotFile(paths);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(temp, `${macOf(key, text)}\n${text}`, { mode: 0o600 });
    renameSync(temp, file);
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}

/**
 * Closes the store, refreshing the snapshot first when this process wrote to the store or the
 * snapshot is not current. A failure leaves the old snapshot, which the counter then marks stale.
 */
export function closeWithSnapshot(store: OpenStore): void {
  let body: Omit<SnapshotBody, 'counter'> | null = null;
  try {
    const current = store.changes() === 0 && snapshotIsCurrent(store.paths);
    if (!current) {
      // Read as the hook's own store read reads (commands/hookPreToolUse.ts opens the store without
      // drift's symbol parser), so the answer does not depend on which process wrote the snapshot.
      // The store closes next: nothing else reads with this reader.
      store.engine.useFiles(new DiskWorkspaceReader(store.paths.workspaceRoot));
      body = buildSnapshot(store.engine, store.paths, store.engine.storeId);
    }
  } catch {
    body = null;
  }
  store.close(body ? () => writeSnapshot(store.paths, body!) : undefined);
}

function snapshotIsCurrent(paths: StorePaths): boolean {
  const body = readSnapshot(paths);
  return body !== null && snapshotCurrent(paths, body);
}
