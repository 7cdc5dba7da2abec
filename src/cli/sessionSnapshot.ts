// The session snapshot: the lines `lore hook session-start` listed the last time it read the store,
// so the next session starts without loading the command bundle or opening the store. It lives in
// the store's data directory beside the anchor snapshot (0600), is written whole by the hook's own
// store read (./sessionSnapshotWrite.ts), and is trusted only under the anchor snapshot's rules
// (./anchorSnapshot.ts): its MAC verifies under this machine's key; it names this format, this
// workspace and this store's id; the database's change counter is the one it was written at; every
// file a listed record references has the size and mtime it had. One more, for the block's dates:
// no listed record's review date or end of validity (its stale and expired flags) has passed since.

import { join } from 'node:path';
import type { StorePaths } from '../host/dataDir';
import { changeCounter, readMacFile, storeId, unchanged } from './anchorSnapshot';
import { sessionStartOutput } from './sessionStartText';

export const SESSION_SNAPSHOT_FORMAT = 'lore-session-snapshot/1';

export interface SessionSnapshotBody {
  format: string;
  workspace: string;
  store_id: string;
  counter: number;
  total: number;
  items: string[];
  /** [path, size, mtimeMs] of every file the listed records reference. */
  files: Array<[string, number, number]>;
  /** The first moment (ISO) a listed record's flags change with the date; null when none will. */
  until: string | null;
}

export function sessionSnapshotFile(paths: StorePaths): string {
  return join(paths.dir, 'session.snapshot');
}

/** Whether `body` is this store's as of now: everything the header comment lists. */
function current(paths: StorePaths, body: SessionSnapshotBody, now: string): boolean {
  return (
    body.format === SESSION_SNAPSHOT_FORMAT &&
    body.workspace === paths.workspaceRoot &&
    body.store_id === storeId(paths) &&
    body.counter === changeCounter(paths.database) &&
    typeof body.total === 'number' &&
    Array.isArray(body.items) &&
    body.items.every((item) => typeof item === 'string') &&
    Array.isArray(body.files) &&
    (body.until === null || (typeof body.until === 'string' && now < body.until)) &&
    body.files.every(unchanged)
  );
}

/** The verified body if it is current; else null. */
export function currentSessionSnapshot(paths: StorePaths, now = new Date().toISOString()): SessionSnapshotBody | null {
  const body = readMacFile(paths, sessionSnapshotFile(paths)) as SessionSnapshotBody | null;
  return body && typeof body === 'object' && current(paths, body, now) ? body : null;
}

/**
 * The hook's answer from the snapshot: its JSON line, '' when it lists nothing, or null when the
 * snapshot cannot say (missing, foreign, tampered, stale, a referenced file changed, a date passed).
 */
export function sessionSnapshotOutput(paths: StorePaths): string | null {
  const body = currentSessionSnapshot(paths);
  return body ? (sessionStartOutput(body.total, body.items) ?? '') : null;
}
