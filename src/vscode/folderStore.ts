// One workspace folder's store, reached the way the CLI and `lore mcp` reach it (host/connect.ts):
// a live owner (another window's, `lore serve`, `lore mcp`) → its client over loopback `/rpc`;
// none → this window starts the owner as a child process (`lore serve`, ownerProcess.ts) and is
// its client, so SQLite, indexing and drift never run on the extension host's thread. Nothing
// happens until first use. When the owner goes away (its process died, or another's stopped),
// the store reconnects at once — a new owner is found or started — and says so in its state for
// the status bar; after RESTART_LIMIT losses in RESTART_WINDOW_MS it stops trying until next use.
// What happens to the store (by anyone) comes from the owner's event stream (GET /events:
// host/ownerEventStream.ts), reopened with backoff when it drops; a drop whose owner.json names
// another owner, or none, is the owner's loss. A saved file is only a hint to the owner (hint()).

import { isLoreError, LoreError, type Logger } from '../engine';
import { connect } from '../host/connect';
import { storePaths, type StorePaths } from '../host/dataDir';
import { remoteApi } from '../host/engineApi';
import { findLiveOwner } from '../host/owner';
import { readOwner } from '../host/ownerLock';
import { hintChanged } from '../host/changedHint';
import type { DriftEvent } from '../host/ownerEvents';
import { OwnerEventStream } from '../host/ownerEventStream';
import type { LoreApi } from './contract';
import { startOwner, type OwnerProcess } from './ownerProcess';

/** How long a just-started owner has to answer its first health check (HEALTH_DEADLINE_MS for others). */
const STARTED_OWNER_DEADLINE_MS = 20_000;

export interface OwnerEndpoint {
  url: string;
  /** For /rpc: this extension's own calls. */
  token: string;
  /** For /mcp: what VS Code's agents are given. */
  mcpToken: string;
  pid: number;
  /** Whether the owner is this window's own `lore serve`. */
  self: boolean;
}

export type StoreChange = 'data' | 'owner';

/** What the status bar says about the connection: only the troubled states carry a reason. */
export type StoreState =
  | { kind: 'closed' }
  | { kind: 'connecting' }
  | { kind: 'connected' }
  | { kind: 'restarting'; reason: string }
  | { kind: 'stopped'; reason: string };

export interface FolderStoreOptions {
  folder: string;
  home: string;
  logger: Logger;
  /** The bundled CLI (dist/cli.js) the owner process runs. */
  cliPath: string;
  /** The owner process's environment (LORE_HOME, the embedding settings: embedding.ts). */
  env: NodeJS.ProcessEnv;
}

interface Connection {
  api: LoreApi;
  owner: OwnerEndpoint;
  /** This window's owner process, when it started one. */
  child?: OwnerProcess;
  /** The owner's event stream, open while this connection is current. */
  stream?: OwnerEventStream;
}

/** A stranger's event stream that cannot be reopened this many times in a row: its owner is lost. */
const STREAM_FAILURES_LOST = 4;
const RESTART_LIMIT = 3;
const RESTART_WINDOW_MS = 60_000;

export class FolderStore {
  private connection: Promise<Connection> | undefined;
  private current: Connection | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private readonly driftListeners = new Set<(event: DriftEvent) => void>();
  private readonly losses: number[] = [];
  private disposed = false;
  private stateNow: StoreState = { kind: 'closed' };
  readonly api: LoreApi;

  constructor(readonly options: FolderStoreOptions) {
    // Connects on first use; a client whose owner went away reconnects.
    this.api = new Proxy({} as LoreApi, {
      get:
        (_target, op: string) =>
        async (...args: unknown[]) => {
          const connection = await this.connect();
          try {
            const ops = connection.api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
            return await ops[op](...args);
          } catch (error) {
            // This window's own owner is watched through its process; another's only by its answers.
            const unavailable = isLoreError(error) && error.code === 'STORE_UNAVAILABLE';
            if (!connection.child && unavailable) this.lost(connection, (error as Error).message);
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

  get state(): StoreState {
    return this.stateNow;
  }

  onDidChange(listener: (change: StoreChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** What the owner's drift check found for files changed on disk (saved here, or anywhere else). */
  onDidDrift(listener: (event: DriftEvent) => void): { dispose(): void } {
    this.driftListeners.add(listener);
    return { dispose: () => this.driftListeners.delete(listener) };
  }

  /**
   * "Check these paths now": the owner gives them its one reaction to a file change (index, then
   * drift), whose findings come back on the event stream. Connects (a store whose owner was lost
   * comes back with the next save, as any other use brings it back); callers decide whether a
   * folder should have a store at all.
   */
  hint(paths: readonly string[]): Promise<void> {
    if (!paths.length) return Promise.resolve();
    // One request per turn: a save's index hint and drift hint (and a Save All's files) travel together.
    for (const path of paths) this.hinted.add(path);
    this.hintSent ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const batch = [...this.hinted];
      this.hinted.clear();
      this.hintSent = undefined;
      const { owner, stream } = await this.connect();
      // After the subscription, so the findings the hint leads to are not missed.
      await stream?.ready;
      await hintChanged(owner.url, owner.token, batch);
    });
    return this.hintSent;
  }

  private readonly hinted = new Set<string>();
  private hintSent: Promise<void> | undefined;

  /** The owner agents should talk to, connecting first. */
  async owner(): Promise<OwnerEndpoint> {
    return (await this.connect()).owner;
  }

  connect(): Promise<Connection> {
    if (this.disposed) return Promise.reject(new Error('this workspace folder was closed'));
    if (!this.connection) {
      const attempt = this.open();
      this.connection = attempt;
      if (this.stateNow.kind !== 'restarting') this.stateNow = { kind: 'connecting' };
      attempt.then(
        (connection) => {
          if (this.connection !== attempt) return;
          this.current = connection;
          this.stateNow = { kind: 'connected' };
          this.emit('owner');
        },
        (error: Error) => {
          if (this.connection !== attempt) return;
          this.connection = undefined; // not latched: the next use retries
          this.stateNow = { kind: 'stopped', reason: error.message };
          this.emit('owner');
        },
      );
    }
    return this.connection;
  }

  private async open(): Promise<Connection> {
    const paths = this.paths;
    const found = await connect(this.folder, {
      home: this.options.home,
      become: () =>
        startOwner({
          folder: this.folder,
          cliPath: this.options.cliPath,
          env: this.options.env,
          logger: this.options.logger,
        }),
    });
    const child = found.kind === 'owner' ? found.store : undefined;
    // The owner this window has just started is given longer to answer its first health check than
    // a stranger's: on a loaded machine its first answer can take seconds, and giving up stops it
    // (no store until the next use, minutes later in a quiet window).
    const live =
      found.kind === 'client'
        ? found.owner
        : await findLiveOwner(paths.owner, child ? STARTED_OWNER_DEADLINE_MS : undefined);
    if (!live || (child && live.info.pid !== child.pid)) {
      await child?.stop();
      const silent = `the lore serve started for ${this.folder} does not answer`;
      throw new LoreError('STORE_UNAVAILABLE', silent, 'see the Lore log (Lore: Show Log)');
    }
    const { info } = live;
    const owner: OwnerEndpoint = {
      url: live.url,
      token: info.token,
      mcpToken: info.mcp_token ?? info.token,
      pid: info.pid,
      self: child !== undefined,
    };
    // The editor's modal is the person's confirmation; the owner it started sends the act's code up
    // its pipe. Served by another process (no pipe), a person's act is refused: the terminal does it.
    const confirmer = child && { channel: { parent: true as const }, code: (id: string) => child.codeFor(id) };
    const api = remoteApi(`${live.url}/rpc`, live.info.token, undefined, confirmer) as LoreApi;
    const connection: Connection = { api, owner, child };
    if (child) {
      const log = this.options.logger;
      log.info(`${this.folder}: started lore serve (pid ${child.pid}) for ${paths.database}; MCP at ${live.url}/mcp`);
      void child.exited.then(({ code, signal }) => {
        this.lost(connection, `its process (pid ${child.pid}) ended (${signal ?? `exit code ${code}`})`);
      });
    } else {
      this.options.logger.info(
        `${this.folder}: using the store served by pid ${info.pid} (${info.door}) at ${live.url}`,
      );
    }
    this.subscribe(paths, connection);
    return connection;
  }

  /** Listens to the owner's event stream; a drop is looked into (owner.json) and reopened with backoff. */
  private subscribe(paths: StorePaths, connection: Connection): void {
    connection.stream = new OwnerEventStream({
      url: connection.owner.url,
      token: connection.owner.token,
      events: ['data', 'drift'],
      onEvent: (event) => {
        if (this.current !== connection) return;
        if (event.event === 'data') this.emit('data');
        else if (event.event === 'drift') for (const listener of [...this.driftListeners]) listener(event);
      },
      // Reopened: what changed while it was down was missed, so everything is read again.
      onSubscribed: (again) => again && this.current === connection && this.emit('data'),
      onDown: (why, failures) => {
        if (this.disposed || this.connection === undefined) return false;
        if (this.current !== undefined && this.current !== connection) return false;
        const now = readOwner(paths.owner);
        if (!now || now.token !== connection.owner.token) {
          this.lost(connection, `the owner (pid ${connection.owner.pid}) stopped serving`);
          return false;
        }
        // This window's own owner is watched through its process; another's stream failing again and
        // again while its owner.json stays means it no longer answers.
        if (!connection.child && failures >= STREAM_FAILURES_LOST) {
          this.lost(connection, `its event stream cannot be reopened (${why})`);
          return false;
        }
        this.options.logger.debug(`${this.folder}: the owner's event stream dropped (${why}); reopening`);
        return true;
      },
    });
  }

  /** The owner behind `connection` went away: forget it and reconnect now (within the limit). */
  private lost(connection: Connection, why: string): void {
    if (this.disposed || this.current !== connection) return;
    this.current = undefined;
    this.connection = undefined;
    connection.stream?.close();
    void connection.child?.stop();
    const now = Date.now();
    this.losses.push(now);
    while (this.losses.length && this.losses[0] < now - RESTART_WINDOW_MS) this.losses.shift();
    const reason = `Lore's store for ${this.folder} lost its owner: ${why}`;
    if (this.losses.length > RESTART_LIMIT) {
      const times = this.losses.length;
      this.options.logger.error(
        `${reason}; ${times} times in a minute, so Lore stops restarting it (the next action tries again)`,
      );
      this.stateNow = { kind: 'stopped', reason: `${reason} (${this.losses.length} times in a minute)` };
    } else {
      this.options.logger.warn(`${reason}; reconnecting`);
      this.stateNow = { kind: 'restarting', reason };
    }
    this.emit('owner');
    this.emit('data');
    if (this.stateNow.kind === 'restarting') this.connect().catch(() => undefined);
  }

  private emit(change: StoreChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.listeners.clear();
    this.driftListeners.clear();
    const connection = await this.connection?.catch(() => undefined);
    connection?.stream?.close();
    this.connection = undefined;
    this.current = undefined;
    await connection?.child?.stop();
  }
}
