// The memory store port: the named operations the memory features (save, get, list, history,
// lifecycle, forget, audit) need from a store, and nothing else. Two adapters implement it: SQLite
// (sqliteMemoryStore.ts, over the owners' named queries) and PostgreSQL (host/store/postgres/,
// through a synchronous bridge to `pg`). The port is synchronous because the engine is: see
// docs/postgres.md for why a bridge rather than an async engine.
//
// What a version says (its digest, signatures, state seal, audit event's hash) is decided by the
// record layer, above the port; an adapter only stores and reads it. Within `transaction`, a
// PostgreSQL adapter holds the key's row lock from `current` on, and the chain's lock from
// `appendAudit` on, until the transaction ends.

import type { Actor } from '../ports';
import type { Memory, Status } from '../model/types';
import type { AuditCheckpoint, AuditEvent, AuditEventInput, AuditVerdict } from './auditTypes';
import type { CurrentFilter, FactHolder, MemoryRow, RowSeal } from './rows';

export type MemoryEventKind =
  | 'created'
  | 'updated'
  | 'deprecated'
  | 'disputed'
  | 'retracted'
  | 'superseded'
  | 'supersedes'
  | 'promoted'
  | 'quarantined'
  | 'merged'
  | 'imported'
  | 'canonicalized';

export interface MemoryEvent {
  key: string;
  version: number;
  event: MemoryEventKind;
  reason: string | null;
  related_key: string | null;
  valid_at: string | null;
  at: string;
  actor: string;
}

/** A status change of a written version (record/state.ts writeStatus); undefined fields are kept. */
export interface StateChange {
  status?: Status;
  reason?: string | null;
  now?: string;
}

export interface MemoryStorePort {
  readonly kind: 'sqlite' | 'postgresql';
  /** Runs `work` as one transaction of this store (and the engine's local one), rolled back on throw. Nests. */
  transaction<T>(work: () => T): T;

  /** A key's current version; in a transaction, PostgreSQL holds the key's lock from here to the end. */
  current(key: string): MemoryRow | undefined;
  /** A kept version of a key. */
  version(key: string, version: number): MemoryRow | undefined;
  /** Every kept version of a key, oldest first. */
  versions(key: string): MemoryRow[];
  /** A page of current rows, newest change first, and how many match. */
  page(filter: CurrentFilter): { rows: MemoryRow[]; total: number };
  /** The current, live rows of `keys`. */
  liveRows(keys: readonly string[]): MemoryRow[];
  /** The live records holding `factKey`, other than `exceptKey`, oldest first. */
  liveByFactKey(factKey: string, exceptKey: string): FactHolder[];
  /** Every row, current and archived, by key and version. */
  everyRow(): MemoryRow[];

  /** Writes a new current version (already signed and sealed); returns its row id. */
  insertVersion(memory: Memory, seal: RowSeal): number;
  /** Archives the current version, its valid interval ending at `until`; keeps the newest `keep` archived. */
  archive(current: { id: number; key: string }, until: string, keep: number): void;
  /** Sets a version's successor and the end of its valid interval. */
  setSuccessor(id: number, successor: string, validUntil: string): void;
  /** Sets a version's predecessor (and updated_at when given). */
  setPredecessor(id: number, predecessor: string, updatedAt?: string): void;
  /** Changes a version's status and signs its new state; returns the state's digest for the audit event. */
  writeState(id: number, change: StateChange): string;
  /** Deletes every version, vector and history event of a key; returns the versions removed, oldest first. */
  removeKey(key: string): Array<{ id: number; content_digest: string }>;

  recordEvent(event: MemoryEvent): void;
  events(key: string): MemoryEvent[];

  /** Appends to the audit chain (record/audit.ts nextAuditEvent makes the event). */
  appendAudit(actor: Actor, at: string, input: AuditEventInput): AuditEvent;
  auditHead(): { seq: number; hash: string };
  /** The chain verified (record/audit.ts verifyChain) against the rows, head and checkpoints. */
  verifyAudit(checkpoints?: AuditCheckpoint[]): AuditVerdict;

  /** A mark below every row written after it, and the keys written since one. */
  mark(): number;
  keysWrittenSince(mark: number): string[];
  counts(): { byStatus: Record<string, number>; archived: number; auditEvents: number };
}
