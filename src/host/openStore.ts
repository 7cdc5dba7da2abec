// Opens a workspace's store as its owner: data dir, owner lock, SQLite connection, engine.

import { Engine, type Logger } from '../engine';
import { ensureStoreDir, storePaths, type StorePaths } from './dataDir';
import { loadMachineSigner } from './machineKey';
import { acquireOwnerLock, type OwnerLock } from './ownerLock';
import { WasmSqlDatabase } from './sqlite';
import { checkStoreFile, checkStoreIdentity, readStoreRecord, recordStore } from './storeRecord';
import { treeSitterSymbols } from './symbols/treeSitter';
import { DiskWorkspaceReader, liveRepositories } from './workspaceReader';
import type { PostgresMemoryStore } from './store/postgres/postgresMemoryStore';

export interface OpenStore {
  engine: Engine;
  paths: StorePaths;
  lock: OwnerLock;
  /**
   * Settles once drift's symbol parser has loaded its grammars (or failed to): from then on
   * symbols are located by the parser. Until then, by patterns; a one-shot command waits for it.
   */
  symbols: Promise<void>;
  /** Rows this process's connection has changed so far (SQLite's total_changes): a rise means a write. */
  changes(): number;
  close(): void;
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

export function openStore(options: OpenStoreOptions): OpenStore {
  const paths = storePaths(options.workspace, options.home);
  ensureStoreDir(paths);
  const lock = acquireOwnerLock(paths.owner, paths.database, options.door);
  let db: WasmSqlDatabase | undefined;
  try {
    // A store the data directory knows of is never replaced by a new one (storeRecord.ts).
    checkStoreFile(paths);
    const known = readStoreRecord(paths);
    db = new WasmSqlDatabase(paths.database);
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
    if (!known) recordStore(paths, recordedStoreId(db) ?? engine.storeId);
    const opened = db;
    return {
      engine,
      paths,
      lock,
      symbols: parser?.whenReady ?? Promise.resolve(),
      changes: () => opened.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0,
      close: () => {
        options.shared?.close();
        opened.close();
        lock.release();
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
