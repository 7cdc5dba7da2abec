// The engine facade: one object the doors (CLI, MCP, VS Code) call. It opens nothing itself; the
// host hands it a migrated SQL connection, a clock and a logger.

import { randomUUID } from 'node:crypto';
import type { RememberInput } from './model/types';
import type { Actor, Clock, Logger, SqlDatabase } from './ports';
import { silentLogger, systemClock } from './ports';
import type { EngineContext } from './memory/context';
import { forget, type ForgetReceipt } from './memory/forget';
import { promote, setStatus, supersede, type LifecycleResult, type StatusChange, type SupersedeResult } from './memory/lifecycle';
import { get, history, list, type GetResult, type HistoryResult, type ListInput, type ListResult } from './memory/read';
import { save, type SaveResult } from './memory/save';
import type { Embedder } from './embed/embedder';
import { indexWorkspace, getIndexState, type FileSource, type IndexOptions, type IndexProgress, type IndexSummary } from './index/indexer';
import { countPending, indexCounts, type IndexCounts } from './index/docStore';
import { recall, type RecallInput, type RecallResult } from './search/recall';
import { VectorCache } from './search/vectors';
import { migrate, SCHEMA_VERSION, currentSchemaVersion } from './store/migrations';
import { auditHead, verifyAudit, type AuditCheckpoint, type AuditVerdict } from './trust/audit';
import { ephemeralSigner, IntegrityChecker } from './trust/integrity';
import type { Signer } from './trust/signatures';

export interface EngineOptions {
  db: SqlDatabase;
  clock?: Clock;
  logger?: Logger;
  /** The local embedding model; without one, recall is lexical only. */
  embedder?: Embedder;
  /** Why there is no embedder, for status. */
  embedderProblem?: string;
  /** This machine's signing key; without one, a key that lives as long as this engine signs. */
  signer?: Signer;
}

export interface IndexStatus extends IndexCounts {
  model: string | null;
  model_problem: string | null;
  pending: number;
  last_update: string | null;
}

export interface StoreStats {
  store_id: string;
  schema_version: number;
  memories: number;
  by_status: Record<string, number>;
  archived_versions: number;
  audit_events: number;
}

export class Engine {
  private readonly ctx: EngineContext;
  private readonly vectors = new VectorCache();
  private embedder: Embedder | undefined;
  private embedderProblem: string | null;

  constructor(options: EngineOptions) {
    const applied = migrate(options.db);
    const logger = options.logger ?? silentLogger;
    if (applied.length) logger.info(`store schema migrated to version ${applied[applied.length - 1]}`);
    const clock = options.clock ?? systemClock;
    const signer = options.signer ?? ephemeralSigner();
    const storeId = ensureStoreId(options.db);
    this.ctx = { db: options.db, clock, logger, storeId, signer, integrity: new IntegrityChecker({ db: options.db, storeId }) };
    this.embedder = options.embedder;
    this.embedderProblem = options.embedder ? null : options.embedderProblem ?? 'no embedding model configured';
  }

  get storeId(): string {
    return this.ctx.storeId;
  }

  remember(actor: Actor, input: RememberInput | Record<string, unknown>): SaveResult {
    return save(this.ctx, actor, input);
  }

  get(key: string, version?: number | null): GetResult {
    return get(this.ctx, key, version);
  }

  list(input?: ListInput): ListResult {
    return list(this.ctx, input);
  }

  recall(input: RecallInput): Promise<RecallResult> {
    return recall(this.ctx, input, { embedder: this.embedder, vectors: this.vectors });
  }

  /** Attaches the embedding model once the host has loaded it (or says why there is none). */
  useEmbedder(embedder: Embedder | undefined, problem?: string): void {
    this.embedder = embedder;
    this.embedderProblem = embedder ? null : problem ?? 'no embedding model configured';
  }

  /** Indexes the workspace's documents; yields progress, returns what changed. */
  index(source: FileSource, options: Omit<IndexOptions, 'embedder'> = {}): AsyncGenerator<IndexProgress, IndexSummary> {
    return indexWorkspace(this.ctx, source, { ...options, embedder: this.embedder });
  }

  indexStatus(): IndexStatus {
    return {
      ...indexCounts(this.ctx.db),
      model: this.embedder?.modelId ?? null,
      model_problem: this.embedderProblem,
      pending: this.embedder ? countPending(this.ctx.db, this.embedder.modelId) : 0,
      last_update: getIndexState(this.ctx, 'last_index'),
    };
  }

  history(key: string): HistoryResult {
    return history(this.ctx, key);
  }

  setStatus(actor: Actor, key: string, status: StatusChange, reason: unknown): LifecycleResult {
    return setStatus(this.ctx, actor, key, status, reason);
  }

  supersede(actor: Actor, oldKey: string, newKey: string, validFrom?: string | null): SupersedeResult {
    return supersede(this.ctx, actor, oldKey, newKey, validFrom);
  }

  promote(actor: Actor, key: string): LifecycleResult {
    return promote(this.ctx, actor, key);
  }

  forget(actor: Actor, key: string): ForgetReceipt {
    return forget(this.ctx, actor, key);
  }

  verifyAudit(checkpoints?: AuditCheckpoint[]): AuditVerdict {
    return verifyAudit(this.ctx.db, checkpoints);
  }

  /** The chain's head, for a checkpoint kept outside the store. */
  auditCheckpoint(): AuditCheckpoint {
    return { ...auditHead(this.ctx.db), at: this.ctx.clock.now().toISOString(), store_id: this.ctx.storeId };
  }

  stats(): StoreStats {
    const db = this.ctx.db;
    const byStatus = db.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM memories WHERE is_current = 1 GROUP BY status');
    return {
      store_id: this.ctx.storeId,
      schema_version: currentSchemaVersion(db),
      memories: byStatus.reduce((sum, s) => sum + s.n, 0),
      by_status: Object.fromEntries(byStatus.map((s) => [s.status, s.n])),
      archived_versions: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE is_current = 0')?.n ?? 0,
      audit_events: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_events')?.n ?? 0,
    };
  }

  /** Runs several engine calls as one transaction: all land or none do. */
  batch<T>(work: () => T): T {
    return this.ctx.db.transaction(work);
  }
}

function ensureStoreId(db: SqlDatabase): string {
  const existing = db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'store_id'");
  if (existing) return existing.value;
  const id = randomUUID();
  db.run("INSERT INTO meta (name, value) VALUES ('store_id', ?)", [id]);
  return id;
}

export { SCHEMA_VERSION };
