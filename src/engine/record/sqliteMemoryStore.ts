// The memory store port on the engine's SQLite store: each operation is a named query of the
// table's owner (rows.ts, events.ts, audit.ts, vectors.ts) or a record-layer rule (state.ts
// writeStatus); this file adds no SQL of its own.

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
} from './rows';
import { deleteEventsOfKey, eventsOfKey, insertEvent } from './events';
import { appendAudit, auditEventCount, auditHead, verifyAudit } from './audit';
import { deleteMemoryVectors } from './vectors';
import { writeStatus } from './state';

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
    insertVersion: (memory, seal) => insertMemoryRow(db, memory, true, seal),
    archive: (current, until, keep) => archiveRow(db, current, until, keep),
    setSuccessor: (id, successor, validUntil) => setSuccessor(db, id, successor, validUntil),
    setPredecessor: (id, predecessor, updatedAt) => setPredecessor(db, id, predecessor, updatedAt),
    writeState: (id, change) => writeStatus(ctx(), id, change),
    removeKey: (key) => {
      const versions = rowsOfKey(db, key).map((row) => row.id);
      deleteMemoryVectors(db, versions);
      const removed = deleteKeyRows(db, key);
      deleteEventsOfKey(db, key);
      return removed;
    },
    recordEvent: (event) => insertEvent(db, event),
    events: (key) => eventsOfKey(db, key),
    appendAudit: (actor, at, input) => appendAudit(db, actor, at, input),
    auditHead: () => auditHead(db),
    verifyAudit: (checkpoints) => verifyAudit(db, checkpoints),
    mark: () => newestRowId(db),
    keysWrittenSince: (mark) => keysWrittenAfter(db, mark),
    counts: () => ({ ...rowCounts(db), auditEvents: auditEventCount(db) }),
  };
}
