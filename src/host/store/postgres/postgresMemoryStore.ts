// The engine's memory store port on PostgreSQL: each operation is one synchronous call through the
// bridge (syncBridge.ts) to the worker that runs it (memoryQueries.ts). A transaction spans the
// PostgreSQL one and the engine's local SQLite one (its authors, Inbox, drift references), so a
// failure in either rolls both back. A lifecycle change (status, successor, predecessor, archive)
// is sealed here, on the engine's thread where its signer is, by record/state.ts's rules: the row
// must hold its seal before, and the state and its seal are written in one statement after.

import { randomUUID } from 'node:crypto';
import { LoreError } from '../../../engine';
import type { EngineContext } from '../../../engine/context';
import type { SharedMemoryStore } from '../../../engine/engine';
import type { MemoryStorePort, StateChange } from '../../../engine/record/memoryStore';
import { memoryToRow, type MemoryRow } from '../../../engine/record/rows';
import { verifyChain } from '../../../engine/record/audit';
import { registerAuthor } from '../../../engine/record/integrity';
import { refuseUnsealed, rowState, sealState, stateDigest } from '../../../engine/record/state';
import type { PostgresSettings } from './connectionSettings';
import { portCall, type PortCall } from './portCall';
import { postgresMemorySearch } from './postgresMemorySearch';
import { sharedAuthors, type SharedAuthors } from './sharedAuthors';
import type { OpenedStore } from './memoryWorker';
import { SyncBridge } from './syncBridge';

export interface PostgresMemoryStore extends SharedMemoryStore {
  /** The repository's normalised remote and the store's host:port/database (never a password). */
  remote: string;
  label: string;
  /**
   * Another repository on the same connection (one worker, one pool): each scope's engine reads and
   * writes only its own repository's rows, whichever scope was opened last.
   */
  repository(remote: string): PostgresMemoryStore;
  /** Closes the connection, which every scope made by `repository` shares. */
  close(): void;
}

/**
 * Opens the shared store for one repository (by its remote URL), migrating its schema if older;
 * synchronous, like the engine that will use it. The engine signs its records with the
 * repository's store id.
 */
export function openPostgresMemoryStore(
  settings: PostgresSettings,
  remote: string,
  loreVersion: string,
  options: { retryForMs?: number } = {},
): PostgresMemoryStore {
  const bridge = new SyncBridge({ settings, remote, loreVersion });
  try {
    return scoped(bridge, bridge.call<OpenedStore>('open'), options.retryForMs ?? RETRY_FOR_MS);
  } catch (error) {
    bridge.close();
    throw error;
  }
}

function scoped(bridge: SyncBridge, store: OpenedStore, retryForMs: number): PostgresMemoryStore {
  return {
    storeId: store.storeId,
    remote: store.remote,
    label: store.label,
    port: (ctx) => postgresMemoryPort(bridge, store.repoId, ctx, retryForMs),
    repository: (remote) => scoped(bridge, bridge.call<OpenedStore>('repository', remote), retryForMs),
    close: () => bridge.close(),
  };
}

/**
 * The shared store's state writes, sealed here where the signer is (record/state.ts does the same for
 * SQLite): a row must hold its seal before it is written, and is sealed again as it then stands.
 */
function sealedStateWrites(call: PortCall, authors: SharedAuthors, ctx: () => EngineContext) {
  const one = (row: MemoryRow | undefined) => (row ? authors.withAuthors([row])[0] : undefined);

  /** Seals a row's state as `change` leaves it (the row as it stands when `change` is empty). */
  const sealAs = (row: MemoryRow, change: StateChange): string => {
    const { signer, storeId } = ctx();
    const next: MemoryRow = {
      ...row,
      status: change.status ?? row.status,
      status_reason: change.reason === undefined ? row.status_reason : change.reason,
      updated_at: change.now ?? row.updated_at,
    };
    registerAuthor(ctx(), signer, 'this machine');
    authors.shareSigner();
    const fields = rowState(next);
    const seal = sealState(signer, storeId, fields);
    call('writeSealedState', row.id, {
      status: next.status,
      status_reason: next.status_reason,
      updated_at: next.updated_at,
      ...seal,
    });
    return stateDigest(fields);
  };

  const writeState = (id: number, change: StateChange): string => {
    const row = one(call('byId', id));
    if (!row) throw new Error(`no memory row ${id} in this repository`);
    refuseUnsealed(ctx(), row);
    return sealAs(row, change);
  };

  /** A lifecycle write on a row that holds its seal, sealed again as it then stands. */
  const sealedWrite = (id: number, write: () => void): void => {
    const before = one(call('byId', id));
    if (before) refuseUnsealed(ctx(), before);
    write();
    const after = call('byId', id);
    if (after) sealAs(after, {});
  };

  /** Removes a key; other rows' pointers to it are cleared, and those that held their seal are sealed again. */
  const removeKey = (key: string) => {
    const pointing = authors.withAuthors(call('everyRow')).filter((row) => {
      if (row.superseded_by !== key && row.supersedes !== key) return false;
      const verdict = ctx().integrity.check(row);
      return verdict.ok || verdict.legacy === true;
    });
    const removed = call('removeKey', key);
    for (const { id } of pointing) {
      const row = call('byId', id);
      if (row) sealAs(row, {});
    }
    return removed;
  };

  return { writeState, sealedWrite, removeKey };
}

/** How long an engine's write keeps retrying through a lost connection (a restarted server). */
const RETRY_FOR_MS = 15_000;
const RETRY_PAUSE_MS = 250;

/** Blocks this thread for `ms` (the engine is synchronous: it waits here as it waits for an answer). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A failure that may be a lost connection: the store could not be reached or stopped answering. */
function lostConnection(error: unknown): error is LoreError {
  return error instanceof LoreError && error.code === 'STORE_UNAVAILABLE';
}

/**
 * A transaction of the shared store around one of the engine's local store. The outermost one
 * carries a write id, and its commit leaves a receipt (write_receipts) in the same transaction.
 * A lost connection (a restarted server) is retried with a new attempt of the whole work for up to
 * `retryForMs`: one lost before the commit wrote nothing; one lost while committing is asked about
 * by its write id, and counts as done when its receipt is there. So an acknowledged write is never
 * lost and a retry never writes twice; past the deadline the error names the store.
 */
function transactionOver(bridge: SyncBridge, repoId: number, ctx: () => EngineContext, retryForMs: number) {
  let depth = 0;
  const attempt = <T>(work: () => T, writeId: string | undefined): T => {
    bridge.call('begin', writeId, repoId);
    depth++;
    let result: T;
    try {
      result = ctx().db.transaction(work);
    } catch (error) {
      depth--;
      try {
        bridge.call('rollback');
      } catch {
        // A lost connection has rolled the transaction back already.
      }
      throw error;
    }
    depth--;
    try {
      bridge.call('commit');
    } catch (error) {
      if (writeId && lostConnection(error) && committedAfterAll(writeId)) return result;
      throw error;
    }
    return result;
  };
  /** Whether the write landed after all, asked until the server answers (or the deadline passes). */
  const committedAfterAll = (writeId: string): boolean => {
    const deadline = Date.now() + retryForMs;
    for (;;) {
      try {
        return bridge.call<boolean>('committed', writeId);
      } catch (error) {
        if (!lostConnection(error) || Date.now() >= deadline) throw error;
        pause(RETRY_PAUSE_MS);
      }
    }
  };
  return <T>(work: () => T): T => {
    if (depth > 0) return attempt(work, undefined);
    const deadline = Date.now() + retryForMs;
    for (let retries = 0; ; retries++) {
      try {
        return attempt(work, randomUUID());
      } catch (error) {
        if (!lostConnection(error) || Date.now() >= deadline) {
          if (retries > 0 && error instanceof LoreError)
            throw new LoreError(
              error.code,
              error.message,
              `${error.hint ? `${error.hint}; ` : ''}the write was tried ${retries + 1} times over ` +
                `${Math.round(retryForMs / 1000)} s and not acknowledged`,
              error.details,
            );
          throw error;
        }
        pause(RETRY_PAUSE_MS);
      }
    }
  };
}

function postgresMemoryPort(
  bridge: SyncBridge,
  repoId: number,
  ctx: () => EngineContext,
  retryForMs: number,
): MemoryStorePort {
  const call = portCall(bridge, repoId);
  const authors = sharedAuthors(call, ctx);
  const { withAuthors } = authors;
  const one = (row: MemoryRow | undefined) => (row ? withAuthors([row])[0] : undefined);
  const sealed = sealedStateWrites(call, authors, ctx);
  return {
    kind: 'postgresql',
    transaction: transactionOver(bridge, repoId, ctx, retryForMs),
    current: (key) => one(call('current', key)),
    version: (key, version) => one(call('version', key, version)),
    versions: (key) => withAuthors(call('versions', key)),
    page: (filter) => {
      const found = call('page', filter);
      return { rows: withAuthors(found.rows), total: found.total };
    },
    liveRows: (keys) => withAuthors(call('liveRows', [...keys])),
    liveByFactKey: (factKey, exceptKey) => call('liveByFactKey', factKey, exceptKey),
    everyRow: () => withAuthors(call('everyRow')),
    insertVersion: (memory, seal) => {
      authors.shareSigner();
      const { is_current: _current, ...row } = memoryToRow(memory, true, seal);
      return call('insertVersion', row);
    },
    archive: (current, until, keep) =>
      sealed.sealedWrite(current.id, () => call('archive', { id: current.id, key: current.key }, until, keep)),
    setSuccessor: (id, successor, validUntil) =>
      sealed.sealedWrite(id, () => call('setSuccessor', id, successor, validUntil)),
    setPredecessor: (id, predecessor, updatedAt) =>
      sealed.sealedWrite(id, () => call('setPredecessor', id, predecessor, updatedAt ?? null)),
    writeState: sealed.writeState,
    removeKey: sealed.removeKey,
    unsealed: () => withAuthors(call('unsealed')),
    recordEvent: (event) => call('recordEvent', event),
    events: (key) => call('events', key),
    appendAudit: (actor, at, input) => call('appendAudit', actor, at, input),
    auditHead: () => call('auditHead'),
    verifyAudit: (checkpoints) => {
      const snapshot = call('chainSnapshot');
      return verifyChain({ ...snapshot, eventKeys: () => snapshot.eventKeys }, checkpoints);
    },
    mark: () => call('mark'),
    keysWrittenSince: (mark) => call('keysWrittenSince', mark),
    counts: () => call('counts'),
    search: postgresMemorySearch(call, authors, ctx),
  };
}
