// What every engine operation works with (memory, trust, search, steward, drift alike): the store
// connection, time, logging, the store's id, its signer and its integrity checker.

import type { Memory, SaveWarnings } from './model/types';
import type { RepoRecordsSummary } from './model/repoRecordFiles';
import type { Clock, Logger, Signer, SqlDatabase } from './ports';
import type { IntegrityChecker } from './record/integrity';
import type { MemoryStorePort } from './record/memoryStore';

export interface EngineContext {
  db: SqlDatabase;
  /** Memories, their history and the audit chain: the SQLite store's or a shared PostgreSQL store's. */
  memories: MemoryStorePort;
  clock: Clock;
  logger: Logger;
  storeId: string;
  signer: Signer;
  integrity: IntegrityChecker;
  /** The features' reactions to a record, composed by the engine (engine.ts recordHooks). */
  hooks: RecordHooks;
}

/**
 * Cross-feature reactions to a record. A feature never calls a sibling: memory's save and forget call
 * these, and the engine (L3) fills them with search's, steward's and drift's parts.
 */
export interface RecordHooks {
  /** Whether a record names something a person can open: an anchor, or a link to a workspace file. */
  opens(memory: Pick<Memory, 'anchors' | 'links'>): boolean;
  /** Before a save writes: what to warn about (resembled dead ends, contradicted live records). */
  saving(ctx: EngineContext, input: SavingRecord): SaveWarnings;
  /** Inside a forget's transaction, after the record's rows are gone: each feature drops what it keeps. */
  forgotten(ctx: EngineContext, key: string): void;
  /** An index read a `.lore/` record file: the team feature verifies it and brings it in, adding to `summary`. */
  recordFile(ctx: EngineContext, path: string, text: string, summary: RepoRecordsSummary): void;
}

/** What a save's warnings are read from. */
export interface SavingRecord {
  key: string;
  type: string;
  title: string;
  description: string;
  fact_key?: string | null;
}

export function nowIso(ctx: EngineContext): string {
  return ctx.clock.now().toISOString();
}
