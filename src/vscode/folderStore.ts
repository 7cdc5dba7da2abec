// One workspace folder's store, reached the way the CLI reaches it: a live owner (another window,
// `lore serve`, `lore mcp`) → its client over loopback; none → this extension host becomes the owner
// and serves MCP/RPC over loopback HTTP, so the MCP definition can point agents at it. Nothing
// happens until first use. Changes to the store (by anyone) and to its owner are noticed by watching
// the store's folder, not by polling.

import { watch, type FSWatcher } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { isLoreError, type Engine, type Logger } from '../engine';
import { storePaths, type StorePaths } from '../host/dataDir';
import { localApi, remoteApi } from '../host/engineApi';
import { findLiveOwner } from '../host/owner';
import { readOwner } from '../host/ownerLock';
import { ownerServer, type OwnerServer } from '../host/ownerServer';
import type { OpenStore } from '../host/openStore';
import type { LoreApi } from './contract';

export interface OwnerEndpoint {
  url: string;
  /** For /rpc: this extension's own calls. */
  token: string;
  /** For /mcp: what VS Code's agents are given. */
  mcpToken: string;
  pid: number;
  /** Whether this extension host is the owner. */
  self: boolean;
}

export type StoreChange = 'data' | 'owner';

export interface FolderStoreOptions {
  folder: string;
  home: string;
  logger: Logger;
  attachEmbedder?: (store: OpenStore) => Promise<() => Promise<void>>;
}

interface Connection {
  api: LoreApi;
  owner: OwnerEndpoint;
  server?: OwnerServer;
  engine?: Engine;
  /** This window's store: settles once drift's symbol parser has loaded (see OpenStore.symbols). */
  symbols?: Promise<void>;
}

/**
 * Operations that locate symbols. Until the parser has loaded, a symbol fingerprinted by it is
 * "not re-checked" and reads as current, so a save right after the store opened would report no
 * drift; these wait for it, as a CLI command does.
 */
const SYMBOL_OPS = new Set(['driftCheck', 'driftFindings', 'driftScan', 'reverify']);

/** How long to wait for a short-lived process (a CLI command) holding the store to let go. */
const BUSY_WAIT_MS = 5000;
/** Writes arrive as bursts of file events; one refresh per burst. */
const SETTLE_MS = 150;

export class FolderStore {
  private connection: Promise<Connection> | undefined;
  private watcher: FSWatcher | undefined;
  private settle: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private disposed = false;
  readonly api: LoreApi;

  constructor(readonly options: FolderStoreOptions) {
    // Calls connect on first use; a client whose owner went away reconnects on the next call.
    this.api = new Proxy({} as LoreApi, {
      get: (_target, op: string) => async (...args: unknown[]) => {
        const connection = await this.connect();
        if (SYMBOL_OPS.has(op)) await connection.symbols;
        try {
          return await (connection.api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[op](...args);
        } catch (error) {
          if (!connection.owner.self && isLoreError(error) && error.code === 'STORE_UNAVAILABLE') this.drop('owner');
          throw error;
        }
      },
    });
  }

  get folder(): string {
    return this.options.folder;
  }

  get paths(): StorePaths {
    return storePaths(this.options.folder, this.options.home);
  }

  /** Whether the store has been reached (the views and status say "not opened yet" otherwise). */
  get connected(): boolean {
    return this.connection !== undefined;
  }

  onDidChange(listener: (change: StoreChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The owner agents should talk to, connecting first. */
  async owner(): Promise<OwnerEndpoint> {
    return (await this.connect()).owner;
  }

  /** The engine when this extension host owns the store (indexing with progress and cancel needs it). */
  async localEngine(): Promise<Engine | undefined> {
    return (await this.connect()).engine;
  }

  connect(): Promise<Connection> {
    if (this.disposed) return Promise.reject(new Error('this workspace folder was closed'));
    if (!this.connection) {
      const attempt = this.open();
      this.connection = attempt;
      attempt.then(
        () => this.emit('owner'),
        () => {
          if (this.connection === attempt) this.connection = undefined; // not latched: the next use retries
        },
      );
    }
    return this.connection;
  }

  private async open(): Promise<Connection> {
    const paths = this.paths;
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (;;) {
      const live = await findLiveOwner(paths.owner);
      if (live) {
        this.options.logger.info(`${this.folder}: using the store served by pid ${live.info.pid} (${live.info.door}) at ${live.url}`);
        const connection = { api: remoteApi(`${live.url}/rpc`, live.info.token) as LoreApi, owner: { url: live.url, token: live.info.token, mcpToken: live.info.mcp_token ?? live.info.token, pid: live.info.pid, self: false } };
        this.startWatching(paths, connection.owner);
        return connection;
      }
      const server = ownerServer({ workspace: this.folder, home: this.options.home, door: 'vscode', logger: this.options.logger, attachEmbedder: this.options.attachEmbedder });
      let store: OpenStore;
      try {
        store = server.access.open();
      } catch (error) {
        await server.close();
        // Another process holds the store for a moment (a CLI command); wait for it, then look again.
        if (isLoreError(error) && error.code === 'STORE_BUSY' && Date.now() < deadline) {
          await delay(100);
          continue;
        }
        throw error;
      }
      const http = await server.http();
      this.options.logger.info(`${this.folder}: opened ${store.paths.database}; serving MCP at ${http.url}/mcp`);
      const owner = { url: http.url, token: store.lock.info.token, mcpToken: store.lock.info.mcp_token ?? store.lock.info.token, pid: process.pid, self: true };
      this.startWatching(paths, owner);
      const api = localApi(store.engine, store.paths.workspaceRoot) as LoreApi;
      return { api, owner, server, engine: store.engine, symbols: store.symbols };
    }
  }

  private startWatching(paths: StorePaths, owner: OwnerEndpoint): void {
    this.watcher?.close();
    try {
      this.watcher = watch(paths.dir, (_event, name) => {
        if (name === 'owner.json') {
          const now = readOwner(paths.owner);
          if (!now || now.token !== owner.token) this.drop('owner');
        } else if (name === 'lore.db' || name === 'lore.db-journal') {
          clearTimeout(this.settle);
          this.settle = setTimeout(() => this.emit('data'), SETTLE_MS);
        }
      });
      this.watcher.on('error', (error) => this.options.logger.warn(`stopped watching ${paths.dir}: ${error.message}`));
    } catch (error) {
      this.options.logger.warn(`cannot watch ${paths.dir} for changes (views refresh after your own actions only): ${(error as Error).message}`);
    }
  }

  /** Forgets the connection (the owner went away or changed); the next use reconnects. */
  private drop(change: StoreChange): void {
    const previous = this.connection;
    if (!previous) return;
    previous.then((c) => {
      if (c.owner.self || this.connection !== previous) return;
      this.options.logger.info(`${this.folder}: the store's owner (pid ${c.owner.pid}) changed or went away; reconnecting on next use`);
      this.connection = undefined;
      this.watcher?.close();
      this.watcher = undefined;
      this.emit(change);
      this.emit('data');
    }, () => undefined);
  }

  private emit(change: StoreChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.settle);
    this.watcher?.close();
    this.listeners.clear();
    const connection = await this.connection?.catch(() => undefined);
    this.connection = undefined;
    await connection?.server?.close();
  }
}
