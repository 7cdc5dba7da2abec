// Opens a workspace's store as its owner: data dir, owner lock, SQLite connection, engine.

import { Engine, type Logger } from '../engine';
import { ensureStoreDir, storePaths, type StorePaths } from './dataDir';
import { loadMachineSigner } from './machineKey';
import { acquireOwnerLock, type OwnerLock } from './ownerLock';
import { WasmSqlDatabase } from './sqlite';
import { DiskWorkspaceReader, githubRepositories } from './workspaceReader';

export interface OpenStore {
  engine: Engine;
  paths: StorePaths;
  lock: OwnerLock;
  close(): void;
}

export interface OpenStoreOptions {
  workspace: string;
  home?: string;
  door: string;
  logger?: Logger;
}

export function openStore(options: OpenStoreOptions): OpenStore {
  const paths = storePaths(options.workspace, options.home);
  ensureStoreDir(paths);
  const lock = acquireOwnerLock(paths.owner, paths.database, options.door);
  let db: WasmSqlDatabase | undefined;
  try {
    db = new WasmSqlDatabase(paths.database);
    const engine = new Engine({ db, logger: options.logger, signer: loadMachineSigner(paths.home), files: new DiskWorkspaceReader(paths.workspaceRoot), repositories: githubRepositories(paths.workspaceRoot) });
    const opened = db;
    return {
      engine,
      paths,
      lock,
      close: () => {
        opened.close();
        lock.release();
      },
    };
  } catch (error) {
    db?.close();
    lock.release();
    throw error;
  }
}
