// The memory store port on the engine's SQLite store: each operation is a named query of the
// table's owner (rows.ts, events.ts, audit.ts, vectors.ts) or a record-layer rule (state.ts
// sealedWrite: every lifecycle write is made on a row that holds its seal, and sealed again);
// this file adds no SQL of its own.

import type { SqlDatabase } from '../ports';
import type { EngineContext } from '../context';
import type { MemoryStorePort } from './memoryStore';
import {
  archiveRow,
  currentRow,
  deleteKeyRows,
  everyRow,
  insertMemoryRow,
  keysWrittenAfter,
  liveByFactKey,
  liveRowsOf,
  newestRowId,
  pageOfCurrent,
  rowByVersion,
  rowCounts,
  rowsOfKey,
  setPredecessor,
  setSuccessor,
  unsealedRows,
} from './rows';
import { deleteEventsOfKey, eventsOfKey, insertEvent } from './events';
import { appendAudit, auditEventCount, auditHead, verifyAudit } from './audit';
import { deleteMemoryVectors } from './vectors';
import { removeSealed, sealedWrite, writeStatus } from './state';
import { localStoreId } from './integrity';
import { eventHolds } from './repair';

/** `ctx` gives writeStatus its signer, store id and clock; it is read when a state is written. */
export function sqliteMemoryStore(db: SqlDatabase, ctx: () => EngineContext): MemoryStorePort {
  return {
    kind: 'sqlite',
    transaction: (work) => db.transaction(work),
    current: (key) => currentRow(db, key),
    version: (key, version) => rowByVersion(db, key, version),
    versions: (key) => rowsOfKey(db, key),
    page: (filter) => pageOfCurrent(db, filter),
    liveRows: (keys) => liveRowsOf(db, keys),
    liveByFactKey: (factKey, exceptKey) => liveByFactKey(db, factKey, exceptKey),
    everyRow: () => everyRow(db),
    unsealed: () => unsealedRows(db),
    insertVersion: (memory, seal) => insertMemoryRow(db, memory, true, seal),
    archive: (current, until, keep) => {
      sealedWrite(ctx(), current.id, () => archiveRow(db, current, until, keep));
    },
    setSuccessor: (id, successor, validUntil) => {
      sealedWrite(ctx(), id, () => setSuccessor(db, id, successor, validUntil));
    },
    setPredecessor: (id, predecessor, updatedAt) => {
      sealedWrite(ctx(), id, () => setPredecessor(db, id, predecessor, updatedAt));
    },
    writeState: (id, change) => writeStatus(ctx(), id, change),
    removeKey: (key) =>
      removeSealed(ctx(), key, () => {
        const versions = rowsOfKey(db, key).map((row) => row.id);
        deleteMemoryVectors(db, versions);
        const removed = deleteKeyRows(db, key);
        const { signer } = ctx();
        deleteEventsOfKey(db, key, signer, localStoreId(db), (row) => eventHolds(ctx(), row));
        return removed;
      }),
    recordEvent: (event) => insertEvent(db, ctx().signer, localStoreId(db), event),
    events: (key) => eventsOfKey(db, key),
    appendAudit: (actor, at, input) => appendAudit(db, actor, at, input),
    auditHead: () => auditHead(db),
    verifyAudit: (checkpoints) => verifyAudit(db, checkpoints),
    mark: () => newestRowId(db),
    keysWrittenSince: (mark) => keysWrittenAfter(db, mark),
    counts: () => ({ ...rowCounts(db), auditEvents: auditEventCount(db) }),
  };
}
