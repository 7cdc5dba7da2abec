// The engine's memory store port on PostgreSQL: each operation is one synchronous call through the
// bridge (syncBridge.ts) to the worker that runs it (memoryQueries.ts). A transaction spans the
// PostgreSQL one and the engine's local SQLite one (its authors, Inbox, drift references), so a
// failure in either rolls both back. A status change is sealed here, on the engine's thread where
// its signer is, by record/state.ts's rules, and written with its seal in one statement.

import type { EngineContext } from '../../../engine/context';
import type { SharedMemoryStore } from '../../../engine/engine';
import type { MemoryStorePort, StateChange } from '../../../engine/record/memoryStore';
import { memoryToRow, type MemoryRow } from '../../../engine/record/rows';
import { verifyChain } from '../../../engine/record/audit';
import { registerAuthor } from '../../../engine/record/integrity';
import { rowState, sealState, stateDigest } from '../../../engine/record/state';
import type { PostgresSettings } from './connectionSettings';
import type { memoryQueries } from './memoryQueries';
import type { OpenedStore } from './memoryWorker';
import { SyncBridge } from './syncBridge';

type Queries = typeof memoryQueries;
/** An operation's arguments after its scope, which the worker supplies. */
type Args<K extends keyof Queries> = Parameters<Queries[K]> extends [unknown, ...infer Rest] ? Rest : never;
type Answer<K extends keyof Queries> = Awaited<ReturnType<Queries[K]>>;

export interface PostgresMemoryStore extends SharedMemoryStore {
  /** The repository's normalised remote and the store's host:port/database (never a password). */
  remote: string;
  label: string;
  /** The same connection scoped to another repository (the store serves one at a time). */
  repository(remote: string): PostgresMemoryStore;
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
): PostgresMemoryStore {
  const bridge = new SyncBridge({ settings, remote, loreVersion });
  try {
    return scoped(bridge, bridge.call<OpenedStore>('open'));
  } catch (error) {
    bridge.close();
    throw error;
  }
}

function scoped(bridge: SyncBridge, store: OpenedStore): PostgresMemoryStore {
  return {
    storeId: store.storeId,
    remote: store.remote,
    label: store.label,
    port: (ctx) => postgresMemoryPort(bridge, ctx),
    repository: (remote) => scoped(bridge, bridge.call<OpenedStore>('repository', remote)),
    close: () => bridge.close(),
  };
}

function postgresMemoryPort(bridge: SyncBridge, ctx: () => EngineContext): MemoryStorePort {
  const call = <K extends keyof Queries>(op: K, ...args: Args<K>): Answer<K> => bridge.call<Answer<K>>(op, ...args);

  // Signatures are checked against the engine's local list of authors (record/integrity.ts): this
  // machine's key is shared through the store when it first signs, and another machine's key is
  // copied from the store into the local list before a row it signed is handed to the engine.
  const known = new Set<string>();
  const shareSigner = () => {
    const { signer, clock } = ctx();
    if (known.has(signer.keyId)) return;
    call('registerAuthor', {
      key_id: signer.keyId,
      public_key: signer.publicKey,
      // Another machine reads this row: "this machine" is only this one's word for its key.
      label: null,
      added_at: clock.now().toISOString(),
      trusted: 0,
    });
    known.add(signer.keyId);
  };
  const withAuthors = <R extends Pick<MemoryRow, 'author' | 'state_signer'>>(rows: R[]): R[] => {
    const missing = new Set<string>();
    for (const row of rows) for (const id of [row.author, row.state_signer]) if (id && !known.has(id)) missing.add(id);
    if (missing.size) {
      for (const author of call('authors', [...missing])) {
        const key = { keyId: author.key_id, publicKey: author.public_key };
        registerAuthor(ctx(), key, author.label, author.trusted === 1);
      }
      for (const id of missing) known.add(id);
    }
    return rows;
  };
  const one = (row: MemoryRow | undefined) => (row ? withAuthors([row])[0] : undefined);

  const writeState = (id: number, change: StateChange): string => {
    const { signer, storeId } = ctx();
    const row = call('byId', id);
    if (!row) throw new Error(`no memory row ${id} in this repository`);
    const next: MemoryRow = {
      ...row,
      status: change.status ?? row.status,
      status_reason: change.reason === undefined ? row.status_reason : change.reason,
      updated_at: change.now ?? row.updated_at,
    };
    registerAuthor(ctx(), signer, 'this machine');
    shareSigner();
    const fields = rowState(next);
    const seal = sealState(signer, storeId, fields);
    call('writeSealedState', id, {
      status: next.status,
      status_reason: next.status_reason,
      updated_at: next.updated_at,
      ...seal,
    });
    return stateDigest(fields);
  };

  return {
    kind: 'postgresql',
    transaction<T>(work: () => T): T {
      bridge.call('begin');
      let result: T;
      try {
        result = ctx().db.transaction(work);
      } catch (error) {
        bridge.call('rollback');
        throw error;
      }
      bridge.call('commit');
      return result;
    },
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
      shareSigner();
      const { is_current: _current, ...row } = memoryToRow(memory, true, seal);
      return call('insertVersion', row);
    },
    archive: (current, until, keep) => call('archive', { id: current.id, key: current.key }, until, keep),
    setSuccessor: (id, successor, validUntil) => call('setSuccessor', id, successor, validUntil),
    setPredecessor: (id, predecessor, updatedAt) => call('setPredecessor', id, predecessor, updatedAt ?? null),
    writeState,
    removeKey: (key) => call('removeKey', key),
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
  };
}
