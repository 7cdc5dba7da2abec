// The anchor snapshot: for every workspace path a live decision or dead end is anchored to, the
// lines `lore hook pre-tool-use` shows for it (with their verification state), so the hook can
// answer before every edit without opening the store. It lives in the store's data directory
// (0600), is written whole (a rename) by a process that holds the store (./anchorSnapshotWrite.ts),
// and is trusted only when all of these hold, else the hook reads the store as before:
//   - its MAC verifies, under a key derived from this machine's signing key (a foreign or edited
//     file fails);
//   - it names this workspace, this store's id, and the hook's types and limit;
//   - the database's file change counter (SQLite header offset 24, bumped by every commit) is the
//     one it was written at, and no rollback journal is present (no write in progress);
//   - every file the path's records reference has the size and mtime it had when written (the
//     store's own read-time drift check re-reads a file only when these changed).
// Its content is data from the store (titles and descriptions that passed the secret rules when
// saved): the hook fences it as it fences the store's answer.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StorePaths } from '../host/dataDir';
import { PRE_EDIT_LIMIT, PRE_EDIT_TYPES } from './preToolUseText';

export const SNAPSHOT_FORMAT = 'lore-anchor-snapshot/1';

/** One path's answer: the lines shown, and [path, size, mtimeMs] of every file its records reference. */
export interface SnapshotEntry {
  lines: string[];
  files: Array<[string, number, number]>;
}

export interface SnapshotBody {
  format: string;
  workspace: string;
  store_id: string;
  /** The database's file change counter the body was read at. */
  counter: number;
  types: string[];
  limit: number;
  /**
   * Every path something may be anchored to (a path not here has nothing anchored). null: the
   * path's records reference something only the store can judge (a target gone or relocated).
   */
  paths: Record<string, SnapshotEntry | null>;
}

export function snapshotFile(paths: StorePaths): string {
  return join(paths.dir, 'anchors.snapshot');
}

/** The MAC key: this machine's signing key, hashed for this one use; null without a key. */
export function snapshotKey(home: string): Buffer | null {
  try {
    const file = JSON.parse(readFileSync(join(home, 'keys', 'machine-ed25519.json'), 'utf8')) as {
      private_key?: unknown;
    };
    if (typeof file.private_key !== 'string' || !file.private_key) return null;
    return createHash('sha256').update(`${SNAPSHOT_FORMAT}\0${file.private_key}`).digest();
  } catch {
    return null;
  }
}

export function macOf(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('hex');
}

/** The database file's change counter; null when it is not a SQLite file or a write is in progress. */
export function changeCounter(database: string): number | null {
  if (existsSync(`${database}-journal`)) return null;
  let fd: number | undefined;
  try {
    fd = openSync(database, 'r');
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100) return null;
    if (header.subarray(0, 16).toString('latin1') !== 'SQLite format 3\0') return null;
    return header.readUInt32BE(24);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function storeId(paths: StorePaths): string | null {
  try {
    const record = JSON.parse(readFileSync(join(paths.dir, 'store.json'), 'utf8')) as { store_id?: unknown };
    return typeof record.store_id === 'string' ? record.store_id : null;
  } catch {
    return null;
  }
}

/** The snapshot's body if its MAC verifies (first line: the MAC; the rest: the JSON body); else null. */
export function readSnapshot(paths: StorePaths): SnapshotBody | null {
  const key = snapshotKey(paths.home);
  if (!key) return null;
  let text: string;
  try {
    text = readFileSync(snapshotFile(paths), 'utf8');
  } catch {
    return null;
  }
  const newline = text.indexOf('\n');
  if (newline !== 64) return null;
  const body = text.slice(newline + 1);
  const given = Buffer.from(text.slice(0, newline), 'hex');
  const expected = Buffer.from(macOf(key, body), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(body) as SnapshotBody;
    return parsed && typeof parsed === 'object' && parsed.paths && typeof parsed.paths === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/** Whether `body` is this store's, as of now, for this hook (everything but the files' stats). */
export function snapshotCurrent(paths: StorePaths, body: SnapshotBody): boolean {
  return (
    body.format === SNAPSHOT_FORMAT &&
    body.workspace === paths.workspaceRoot &&
    body.limit === PRE_EDIT_LIMIT &&
    JSON.stringify(body.types) === JSON.stringify(PRE_EDIT_TYPES) &&
    body.store_id === storeId(paths) &&
    body.counter === changeCounter(paths.database)
  );
}

const unchanged = ([path, size, mtimeMs]: [string, number, number]): boolean => {
  try {
    const stat = statSync(path);
    return stat.size === size && stat.mtimeMs === mtimeMs;
  } catch {
    return false;
  }
};

/**
 * The lines the hook shows for `path` ([] when nothing is anchored to it), or null when the
 * snapshot cannot say (missing, foreign, tampered, stale, or a referenced file changed since).
 */
export function snapshotLines(paths: StorePaths, path: string): string[] | null {
  const body = readSnapshot(paths);
  if (!body || !snapshotCurrent(paths, body)) return null;
  const key = path.replace(/\\/g, '/').replace(/^\.\//, '');
  if (!Object.prototype.hasOwnProperty.call(body.paths, key)) return [];
  const entry = body.paths[key];
  if (!entry || !Array.isArray(entry.lines) || !Array.isArray(entry.files)) return null;
  return entry.files.every(unchanged) ? entry.lines : null;
}
