// The data directory's own record that a store exists (`store.json`: its id and when it was
// first opened), so a damaged database is refused instead of silently replaced. Without it, a
// lore.db that became 0 bytes (a full disk, a bad copy), was cut short, or was swapped for another
// file opened as a new, empty store, and `doctor` and `audit verify` then reported all was well.

import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../engine';
import type { StorePaths } from './dataDir';

export interface StoreRecord {
  store_id: string;
  created_at: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

export function storeRecordFile(paths: StorePaths): string {
  return join(paths.dir, 'store.json');
}

export function readStoreRecord(paths: StorePaths): StoreRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(storeRecordFile(paths), 'utf8')) as StoreRecord;
    return typeof record.store_id === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Notes the store (first open, or a store from before this record existed). */
export function recordStore(paths: StorePaths, storeId: string): void {
  const record: StoreRecord = { store_id: storeId, created_at: new Date().toISOString() };
  writeFileSync(storeRecordFile(paths), JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
}

function refused(paths: StorePaths, record: StoreRecord, what: string): LoreError {
  return new LoreError(
    'INTEGRITY',
    `the store's database ${paths.database} ${what}, though a store (id ${record.store_id}) was ` +
      `kept here since ${record.created_at}; Lore will not start a new, empty store in its place`,
    `restore lore.db from a backup (or import an export with \`lore import\` into a fresh store); ` +
      `to start over on purpose, move the folder ${paths.dir} away first`,
    { database: paths.database, store_id: record.store_id },
  );
}

/** Reads the database file's header, up to 100 bytes; empty when the file cannot be read. */
function header(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(100);
    const read = readSync(fd, buffer, 0, 100, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Before opening: where the record says a store exists, its database must be there and whole — a
 * SQLite file at least as long as its own header says. A hot journal (a crash mid-write) is left
 * for SQLite to roll back. Throws INTEGRITY naming what is wrong and what to do.
 */
export function checkStoreFile(paths: StorePaths): void {
  const record = readStoreRecord(paths);
  if (!record) return;
  if (!existsSync(paths.database)) throw refused(paths, record, 'is missing');
  const size = statSync(paths.database).size;
  if (size === 0) throw refused(paths, record, 'is empty (0 bytes)');
  const head = header(paths.database);
  if (head.length < 100 || head.toString('latin1', 0, 16) !== SQLITE_MAGIC)
    throw refused(paths, record, 'is not a SQLite database');
  if (existsSync(`${paths.database}-journal`)) return;
  const pageSize = head.readUInt16BE(16) === 1 ? 65536 : head.readUInt16BE(16);
  const pages = head.readUInt32BE(28);
  // The page count in the header is valid when its "version valid for" matches the change counter.
  const countValid = head.readUInt32BE(92) === head.readUInt32BE(24);
  if (countValid && pages > 0 && size < pages * pageSize)
    throw refused(paths, record, `is cut short (${size} of ${pages * pageSize} bytes)`);
}

/** After opening: the database must be the recorded store, not another one put in its place. */
export function checkStoreIdentity(paths: StorePaths, storeId: string | undefined): void {
  const record = readStoreRecord(paths);
  if (!record) return;
  if (storeId !== record.store_id)
    throw refused(paths, record, storeId ? `holds another store (id ${storeId})` : 'holds no Lore store');
}
