// Opens a workspace's store as its owner: data dir, owner lock, SQLite connection, engine.
// A data folder on a read-only disk still serves reads: the store opens read-only, without the
// owner lock (nothing can write there, so there is nothing to exclude), and every write is refused
// with STORE_READ_ONLY (sqliteFaults.ts).

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Engine, type Logger } from '../engine';
import { ensureStoreDir, storePaths, type StorePaths } from './dataDir';
import { loadMachineSigner } from './machineKey';
import { acquireOwnerLock, type OwnerLock } from './ownerLock';
import { WasmSqlDatabase } from './sqlite';
import { diskFault, readOnlyStore } from './sqliteFaults';
import { checkStoreFile, checkStoreIdentity, readStoreRecord, recordStore } from './storeRecord';
import { treeSitterSymbols } from './symbols/treeSitter';
import { DiskWorkspaceReader, liveRepositories } from './workspaceReader';
import type { PostgresMemoryStore } from './store/postgres/postgresMemoryStore';

export interface OpenStore {
  engine: Engine;
  paths: StorePaths;
  lock: OwnerLock;
  /** The data folder is read-only: the store was opened to be read, and writes are refused. */
  readOnly: boolean;
  /**
   * Settles once drift's symbol parser has loaded its grammars (or failed to): from then on
   * symbols are located by the parser. Until then, by patterns; a one-shot command waits for it.
   */
  symbols: Promise<void>;
  /** Rows this process's connection has changed so far (SQLite's total_changes): a rise means a write. */
  changes(): number;
  /** Closes the database, runs `whileLocked` (still the owner, the database closed), releases the lock. */
  close(whileLocked?: () => void): void;
}

export interface OpenStoreOptions {
  workspace: string;
  home?: string;
  door: string;
  logger?: Logger;
  /**
   * Load drift's symbol parser (default true). A one-shot read that locates no symbols (a lexical
   * recall, the session-start hook) skips its grammars and the start-up time they cost.
   */
  symbols?: boolean;
  /** Memories, history and audit chain in a shared PostgreSQL store (closed with this store). */
  shared?: PostgresMemoryStore;
}

/** Whether the data folder can be written; a read-only disk (or folder) answers false. */
function writableStoreDir(paths: StorePaths): boolean {
  try {
    ensureStoreDir(paths);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return false;
    throw diskFault(error, paths.dir);
  }
}

/** Stands in for the owner lock of a store opened read-only: there is no lock, and no port to publish. */
function noLock(door: string, paths: StorePaths): OwnerLock {
  return {
    info: {
      pid: process.pid,
      host: '',
      port: null,
      token: randomBytes(32).toString('hex'),
      mcp_token: randomBytes(32).toString('hex'),
      door,
      started_at: new Date().toISOString(),
    },
    publish: () => {
      throw readOnlyStore(paths.dir);
    },
    release: () => {},
  };
}

export function openStore(options: OpenStoreOptions): OpenStore {
  const paths = storePaths(options.workspace, options.home);
  const readOnly = !writableStoreDir(paths);
  if (readOnly && !existsSync(paths.database)) throw readOnlyStore(paths.dir);
  let lock: OwnerLock;
  try {
    lock = readOnly ? noLock(options.door, paths) : acquireOwnerLock(paths.owner, paths.database, options.door);
  } catch (error) {
    throw diskFault(error, paths.dir);
  }
  let db: WasmSqlDatabase | undefined;
  try {
    // A store the data directory knows of is never replaced by a new one (storeRecord.ts).
    checkStoreFile(paths);
    const known = readStoreRecord(paths);
    // Under the owner lock no other process opens the file: its SQLite lock is held until close.
    db = new WasmSqlDatabase(paths.database, readOnly, !readOnly);
    if (known) checkStoreIdentity(paths, recordedStoreId(db));
    // Loading starts here, the one place every door opens a store (once per process).
    const parser = options.symbols === false ? undefined : treeSitterSymbols(options.logger);
    const engine = new Engine({
      db,
      logger: options.logger,
      signer: loadMachineSigner(paths.home),
      files: new DiskWorkspaceReader(paths.workspaceRoot, parser),
      repositories: liveRepositories(paths.workspaceRoot),
      memoryStore: options.shared,
    });
    if (!known && !readOnly) recordStore(paths, recordedStoreId(db) ?? engine.storeId);
    const opened = db;
    return {
      engine,
      paths,
      lock,
      readOnly,
      symbols: parser?.whenReady ?? Promise.resolve(),
      changes: () => opened.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0,
      close: (whileLocked) => {
        try {
          options.shared?.close();
          opened.close();
          whileLocked?.();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    options.shared?.close();
    db?.close();
    lock.release();
    throw error;
  }
}

/** The id a database file holds, read before anything migrates it; undefined for one that is not a Lore store. */
function recordedStoreId(db: WasmSqlDatabase): string | undefined {
  try {
    return db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'store_id'")?.value;
  } catch {
    return undefined;
  }
}
