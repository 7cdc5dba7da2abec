// The shape of a `lore` command and what it is handed: parsed options, the workspace, an output
// function that prints JSON under --json and readable text otherwise, and the store on demand.

import { hostname, userInfo } from 'node:os';
import { existsSync } from 'node:fs';
import { Engine, LORE_VERSION, type Actor } from '../engine';
import { WasmSqlDatabase } from '../host/sqlite';
import { storePaths } from '../host/dataDir';
import { localApi, remoteApi, type EngineApi } from '../host/engineApi';
import { stderrLogger } from '../host/logger';
import { openStore, type OpenStore } from '../host/openStore';
import { startEmbedder } from '../host/embedSettings';
import { findLiveOwner, ownerRecorded } from '../host/owner';
import { connect } from '../host/connect';
import { readStoreRecord } from '../host/storeRecord';
import { confirmHere, type PersonAct } from './personAct';
import { closeWithSnapshot } from './anchorSnapshotWrite';
import type { SessionStartBlock } from './sessionStartBlock';
import { sessionSnapshotWriter } from './sessionSnapshotWrite';
import { chooseStore } from '../host/store/storeSetting';
import type { PostgresSettings } from '../host/store/postgres/connectionSettings';
import { openPostgresMemoryStore } from '../host/store/postgres/postgresMemoryStore';
import { workspaceRemote } from '../host/store/workspaceRemote';

export type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  positionals: { min: number; max: number; names: string };
  run(
    ctx: CommandContext,
    values: Record<string, string | boolean | string[] | undefined>,
    positionals: string[],
  ): Promise<number> | number;
}

export interface CommandContext {
  workspace: string;
  /** Whether --workspace was given (else the workspace is the current folder). */
  workspaceGiven: boolean;
  json: boolean;
  interactive: boolean;
  /** Prints `result` as JSON with --json, else the human rendering. */
  print<T>(result: T, human: (result: T) => string): void;
  withEngine<T>(work: (engine: EngineApi) => T | Promise<T>, use?: StoreUse): Promise<T>;
  actor(): Actor;
  ask(question: string): Promise<string>;
}

export function cliActor(human = false): Actor {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // Some containers have no passwd entry for the uid; the actor is still recorded.
  }
  return { door: 'cli', name, human };
}

/** How this machine's key is labelled in what it signs for others (bundles, `.lore/` records): user@host. */
export function machineLabel(): string {
  return `${cliActor().name}@${hostname()}`;
}

export interface StoreUse {
  /** Only a command that saves may create a workspace's store; the others read an empty one. */
  create: boolean;
  /** Load the embedding model (recall, index); without one, recall is lexical. */
  embed?: boolean;
  /**
   * The command may start before the model has loaded (recall): the store opens and the lexical
   * search runs while it loads, and a model that fails to load leaves this answer lexical.
   */
  embedLate?: boolean;
  /** Load drift's symbol parser (default true); false for a read that fingerprints nothing. */
  symbols?: boolean;
  /** A person's act: its one-time code is shown and typed back before it runs (personAct.ts). */
  person?: PersonAct;
  /** The session-start hook: what it listed, written as the session snapshot when the store closes. */
  session?: () => SessionStartBlock | undefined;
}

/**
 * Runs `work` against the workspace's store: through the live owner when one serves (`lore serve`,
 * `lore mcp`, the editor), else by opening the store itself for the duration of the command. A
 * workspace that has no store yet is read as an empty one (in memory), so looking never writes.
 */
export async function withStore<T>(
  workspace: string,
  work: (engine: EngineApi) => T | Promise<T>,
  use: StoreUse = { create: false },
  storeFlag?: string,
): Promise<T> {
  const chosen = chooseStore(storeFlag, process.env);
  if (chosen.kind === 'postgresql') return await withSharedStore(workspace, chosen.settings, work, use);
  const paths = storePaths(workspace);
  // Empty only when nothing is there: an owner recorded as alive (answering or not) has a store.
  // …and a store the data directory records is opened (and refused if its file is gone), never read as empty.
  if (!use.create && !existsSync(paths.database) && !ownerRecorded(paths.owner) && !readStoreRecord(paths)) {
    const empty = new WasmSqlDatabase(':memory:');
    try {
      return await work(localApi(new Engine({ db: empty })));
    } finally {
      empty.close();
    }
  }
  // A live owner answers with its own model; otherwise the model loads (in its worker) while
  // this process opens the store.
  const model =
    use.embed && !(await findLiveOwner(paths.owner))
      ? startEmbedder(paths.home, stderrLogger(), { late: use.embedLate === true })
      : undefined;
  // Another command may hold the store for a moment (an owner with no port yet): connect waits.
  let found: Awaited<ReturnType<typeof connect<OpenStore>>>;
  try {
    found = await connect(workspace, {
      become: () => openStore({ workspace, door: 'cli', logger: stderrLogger(), symbols: use.symbols }),
    });
  } catch (error) {
    await model?.release();
    throw error;
  }
  if (found.kind === 'client') {
    await model?.release();
    return await work(remoteApi(`${found.owner.url}/rpc`, found.owner.info.token, undefined, use.person?.confirmer));
  }
  const store = found.store;
  // Drift's symbol parser loads in ~0.1 s; waiting gives this command the owner's fingerprints.
  await store.symbols;
  const releaseEmbedder = use.embed
    ? await (model ?? startEmbedder(paths.home, stderrLogger())).attach(store.engine)
    : async () => {};
  try {
    if (use.person) await confirmHere(use.person);
    return await work(localApi(store.engine, store.paths.workspaceRoot));
  } finally {
    await releaseEmbedder();
    closeWithSnapshot(store, sessionSnapshotWriter(store, use.session?.()));
  }
}

/**
 * Runs `work` with the workspace's memories in a shared PostgreSQL store (scoped to the
 * repository's remote): this command opens it itself, beside the workspace's local store for what
 * is not shared yet (docs index, Inbox, drift references), and closes both when done.
 */
async function withSharedStore<T>(
  workspace: string,
  settings: PostgresSettings,
  work: (engine: EngineApi) => T | Promise<T>,
  use: StoreUse,
): Promise<T> {
  // The model loads (in its worker) while the stores open, as on SQLite: recall embeds its question
  // and `lore index` the shared memories, with the same model and settings.
  const model = use.embed
    ? startEmbedder(storePaths(workspace).home, stderrLogger(), { late: use.embedLate === true })
    : undefined;
  let store: OpenStore;
  try {
    const shared = openPostgresMemoryStore(settings, workspaceRemote(workspace), LORE_VERSION);
    store = openStore({ workspace, door: 'cli', logger: stderrLogger(), symbols: use.symbols, shared });
  } catch (error) {
    await model?.release();
    throw error;
  }
  try {
    await store.symbols;
    const releaseEmbedder = model ? await model.attach(store.engine) : async () => {};
    try {
      if (use.person) await confirmHere(use.person);
      return await work(localApi(store.engine, store.paths.workspaceRoot));
    } finally {
      await releaseEmbedder();
    }
  } finally {
    store.close();
  }
}
