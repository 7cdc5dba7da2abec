// The engine facade: one object the doors (CLI, MCP, VS Code) call. It opens nothing itself; the
// host hands it a migrated SQL connection, a clock and a logger.

import { randomUUID } from 'node:crypto';
import type { MemorySummary, RememberInput } from './model/types';
import type { Actor, Clock, Logger, Signer, SqlDatabase } from './ports';
import { silentLogger, systemClock } from './ports';
import type { EngineContext, RecordHooks } from './context';
import { syncRepoRecord } from './team/repoRecords';
import { openableAnchors } from './drift/anchor';
import { deleteSource } from './drift/store';
import { findContradictions } from './search/contradictions';
import { dropDeadEndCache, findResemblingDeadEnds } from './record/deadEnds';
import { forgetInboxItems } from './steward/inbox';
import { sealEveryRow } from './record/state';
import { sealOlderVersions, sealStoreOnUpgrade } from './record/sealUpgrade';
import { describeProblem, repairSeals, sealProblems, type RepairResult, type SealProblem } from './record/repair';
import { checkClaimedSource } from './record/sourcePolicy';
import { forget, type ForgetReceipt } from './memory/forget';
import {
  promote,
  setStatus,
  supersede,
  type LifecycleResult,
  type StatusChange,
  type SupersedeResult,
} from './memory/lifecycle';
import { liveSummaries } from './memory/read';
import { LoreError } from './errors';
import { LIMITS } from './model/limits';
import { anchoredRecords, sourcesOf, type AnchoredRecord } from './anchored';
import { get, history, list, type GetResult, type HistoryResult, type ListInput, type ListResult } from './memory/read';
import { save, type SaveResult } from './memory/save';
import type { Embedder } from './embed/embedder';
import {
  appliedKindRules,
  indexWorkspace,
  getIndexState,
  type FileSource,
  type IndexOptions,
  type IndexProgress,
  type IndexSummary,
} from './indexing/indexer';
import { classify } from './indexing/classify';
import { countPending, indexCounts, type IndexCounts } from './indexing/docStore';
import { listDocs, type ListDocsInput, type ListDocsResult } from './indexing/docList';
import { globMatcher, kindMatcher, type KindRule } from './indexing/kindCorrections';
import { recall, type RecallInput, type RecallOptions, type RecallResult } from './search/recall';
import { VectorCache } from './record/vectors';
import { migrate, SCHEMA_VERSION, currentSchemaVersion } from './store/migrations';
import type { AuditCheckpoint, AuditVerdict } from './record/audit';
import type { MemoryStorePort } from './record/memoryStore';
import { sqliteMemoryStore } from './record/sqliteMemoryStore';
import { ephemeralSigner, IntegrityChecker, type Refusal } from './record/integrity';
import { annotateGet, annotateRecall, type WithDrift } from './annotate';
import { verifyKeys, verifyRecall, type Verification } from './search/verification';
import { invalid } from './errors';
import { anchoredMemories, anchoredPaths, type AnchoredInput } from './memory/anchored';
import { DriftService, type DriftFilter } from './drift/service';
import { reverifyMemory, type ReverifyResult } from './memory/reverify';
import type { DriftFinding, DriftScanResult, WorkspaceReader } from './drift/types';
import {
  exportBundle,
  importBundle,
  type ExportFilter,
  type ExportOptions,
  type ImportOptions,
  type ImportResult,
} from './team/bundle';
import type { Bundle } from './team/bundleFormat';
import { distrustAuthor, trustAuthor, trustList, type AuthorInfo, type TrustList } from './team/trustedKeys';
import { canonicalize, type CanonicalizeOptions, type CanonicalizeResult } from './team/canonicalize';
import type { RepoFiles } from './team/repoFiles';
import { DRIFTED_STATES, driftByMemory, type DriftSignal } from './steward/driftSignal';
import { listInbox, type InboxFilter, type InboxList } from './steward/inbox';
import type { MemoryWrites } from './steward/memoryWrites';
import { resolveInbox, type ResolveResult } from './steward/resolve';
import { runSteward, type StewardRunOptions, type StewardRunResult } from './steward/run';
import { sessionClose, type SessionCloseInput, type SessionCloseResult } from './steward/sessionClose';
import { driftReadsText } from './driftReads';

/**
 * What the index's drift checks of its committed batches found (current references too): `paths`
 * the batch's paths, `findings` undefined when the check failed (logged; the next change checks them).
 */
export type IndexDriftChecked = (paths: string[], findings: DriftFinding[] | undefined) => void;

export type EngineIndexOptions = Omit<IndexOptions, 'embedder'> & { driftChecked?: IndexDriftChecked };

/** How many indexed paths one drift check takes (see index()). */
const INDEXED_PATHS_PER_CHECK = 200;

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
  /** The workspace's files, for drift; without them references are neither fingerprinted nor checked. */
  files?: WorkspaceReader;
  /**
   * `owner/name` of the repository's remotes: URLs to them are references to this workspace. A function
   * is asked again at each resolution, so a remote added after the store opened counts.
   */
  repositories?: readonly string[] | (() => readonly string[]);
  /**
   * Where memories, their history and the audit chain live, and the store id their signatures name
   * (a shared PostgreSQL store's repository). Default: the SQLite store `db`.
   */
  memoryStore?: SharedMemoryStore;
}

/** A memory store other than the SQLite file: its adapter, made once the engine's context exists. */
export interface SharedMemoryStore {
  storeId: string;
  port(ctx: () => EngineContext): MemoryStorePort;
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

/**
 * The features' reactions to a record, in one list: memory calls these and never a sibling. A save
 * is warned by search's dead ends and contradictions; a forget drops the steward's Inbox items,
 * search's dead-end cache and drift's references; a summary says whether drift can open what the
 * record names; an index's `.lore/` record files are verified and imported by the team feature.
 * Drift's fingerprints of what was written are taken by Engine.writes().
 */
export const recordHooks: RecordHooks = {
  opens: (memory) => openableAnchors(memory).length > 0,
  saving: (ctx, input) => ({
    dead_ends:
      input.type === 'dead_end'
        ? []
        : findResemblingDeadEnds(ctx, [input.title, `${input.title} ${input.description}`], input.key),
    contradictions: findContradictions(ctx, input),
  }),
  forgotten: (ctx, key) => {
    dropDeadEndCache(ctx.storeId);
    forgetInboxItems(ctx.db, key);
    // The record's references (its anchors and links, as written) are its text too.
    deleteSource(ctx.db, 'memory', key);
  },
  recordFile: syncRepoRecord,
};

/** Memory's own save and lifecycle paths, the port the steward and the Inbox write through. */
const memoryWrites: MemoryWrites = { save, supersede, promote, setStatus };

export class Engine {
  private readonly ctx: EngineContext;
  private readonly vectors = new VectorCache();
  private embedder: Embedder | undefined;
  private embedderProblem: string | null;
  private readonly drift: DriftService;

  constructor(options: EngineOptions) {
    const logger = options.logger ?? silentLogger;
    const clock = options.clock ?? systemClock;
    const signer = options.signer ?? ephemeralSigner();
    const applied = migrate(options.db, {
      sealStates: (db) => {
        const sealed = sealEveryRow({ db, clock, signer, storeId: ensureStoreId(db) });
        if (sealed) logger.info(`signed the status and provenance of ${sealed} stored record version(s)`);
      },
      sealEverything: (db) => {
        const storeId = ensureStoreId(db);
        const { sealed, left } = sealStoreOnUpgrade({ db, clock, signer, storeId });
        if (sealed)
          logger.info(`sealed the lifecycle of ${sealed} stored record version(s), their history and authors`);
        if (left)
          logger.warn(`${left} record version(s) did not hold their signature and were left unsealed: run lore doctor`);
      },
    });
    if (applied.length) logger.info(`store schema migrated to version ${applied[applied.length - 1]}`);
    // The local store keeps its own id; records are signed with the shared store's when there is one.
    const localStoreId = ensureStoreId(options.db);
    const storeId = options.memoryStore?.storeId ?? localStoreId;
    const context = () => this.ctx;
    this.ctx = {
      db: options.db,
      memories: options.memoryStore?.port(context) ?? sqliteMemoryStore(options.db, context),
      clock,
      logger,
      storeId,
      signer,
      integrity: new IntegrityChecker({ db: options.db, storeId, signer }),
      hooks: recordHooks,
    };
    sealOlderVersions(this.ctx);
    this.embedder = options.embedder;
    this.embedderProblem = options.embedder ? null : (options.embedderProblem ?? 'no embedding model configured');
    const repositories = options.repositories;
    this.drift = new DriftService(
      this.ctx,
      options.files,
      typeof repositories === 'function' ? repositories : () => repositories ?? [],
      // A page the index has not classified yet is classified as the index would: drift does not import indexing.
      (path, text) => classify(path, text),
    );
  }

  get storeId(): string {
    return this.ctx.storeId;
  }

  remember(actor: Actor, input: RememberInput | Record<string, unknown>): SaveResult {
    checkClaimedSource(actor, input);
    return this.writes(() => save(this.ctx, actor, input));
  }

  /** The newest memory row's id: every write after it adds rows above it. */
  private memoryMark(): number {
    return this.ctx.memories.mark();
  }

  /** The memories written since `mark` (and `also`), fingerprinted: drift is measured from here. */
  private trackSince(mark: number, also: readonly string[] = []): void {
    const keys = this.ctx.memories.keysWrittenSince(mark);
    this.drift.trackMemories([...keys, ...also]);
  }

  /**
   * Every write path goes through here, so a record saved by any door (remember, session close,
   * the Inbox, a bundle, supersede, the steward) has its anchors fingerprinted, once, in the engine.
   */
  private writes<T>(work: () => T, also: (result: T) => readonly string[] = () => []): T {
    return this.ctx.memories.transaction(() => {
      const mark = this.memoryMark();
      const result = work();
      this.trackSince(mark, also(result));
      return result;
    });
  }

  get(key: string, version?: number | null): WithDrift<GetResult> {
    return annotateGet(this.drift, get(this.ctx, key, version));
  }

  list(input?: ListInput): ListResult {
    return list(this.ctx, input);
  }

  /** `options` switch ranking features off for the evals (measured on and off). */
  recall(input: RecallInput, options?: RecallOptions): Promise<RecallResult> {
    const embedder = this.embedder;
    return recall(this.ctx, input, { embedder, vectors: this.vectors }, options)
      .catch((error: Error) => {
        // A remote embedder that stops answering: this recall is lexical, and status says why.
        if (!embedder || error?.name !== 'EmbedderUnreachable') throw error;
        this.embedderProblem = `${error.message}; recall is lexical until it answers`;
        return recall(this.ctx, input, { vectors: this.vectors }, options);
      })
      .then((result) => {
        if (result.vectors && embedder === this.embedder) this.embedderProblem = null;
        return verifyRecall(this.ctx, annotateRecall(this.drift, result));
      });
  }

  /** Whether each live memory named still holds (anchors' drift, contradictions, duplicates), by key. */
  verifyMemories(keys: string[]): Record<string, Verification> {
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string'))
      throw invalid('keys must be a list of memory keys', 'pass e.g. ["decision/use-postgres"]');
    const bounded = keys.slice(0, LIMITS.recallMax * 10);
    return Object.fromEntries(verifyKeys(this.ctx, bounded, this.drift.flags('memory', bounded)));
  }

  /** Live memories anchored to a workspace file, each with whether it still holds (the pre-edit hook). */
  verifiedAnchoredTo(input: AnchoredInput): {
    items: Array<MemorySummary & { verification: Verification }>;
    refused: Refusal[];
  } {
    const { items, refused } = anchoredMemories(this.ctx, input);
    const verified = this.verifyMemories(items.map((m) => m.key));
    return { items: items.map((m) => ({ ...m, verification: verified[m.key] })), refused };
  }

  /** Every path live memories of `types` may be anchored to (a superset: see memory/anchored.ts). */
  anchoredPaths(types: string[]): string[] {
    return anchoredPaths(this.ctx, types);
  }

  /** Attaches the embedding model once the host has loaded it (or says why there is none). */
  useEmbedder(embedder: Embedder | undefined, problem?: string): void {
    this.embedder = embedder;
    this.embedderProblem = embedder ? null : (problem ?? 'no embedding model configured');
  }

  /** Indexes the workspace's documents; yields progress, returns what changed. */
  async *index(source: FileSource, options: EngineIndexOptions = {}): AsyncGenerator<IndexProgress, IndexSummary> {
    const mark = this.memoryMark();
    // The changed documents' references are kept current as the run goes: committed batches are
    // handed to drift a few hundred paths at a time (each check has a fixed cost), between the
    // index's steps, where drift can turn the thread between its own small slices.
    let pending: string[] = [];
    // The texts the index read of the pending documents: drift's check takes them instead of reading the files again.
    let texts = new Map<string, string>();
    const flush = async () => {
      const paths = pending;
      const read = texts;
      pending = [];
      texts = new Map();
      if (!paths.length) return;
      const findings = await this.drift.indexed(paths, read);
      options.driftChecked?.(paths, findings);
    };
    const committed = (paths: string[], batchTexts: ReadonlyMap<string, string>) => {
      options.committed?.(paths, batchTexts);
      pending.push(...paths);
      for (const [path, text] of batchTexts) {
        if (driftReadsText(path, Buffer.byteLength(text))) texts.set(path, text);
      }
    };
    const { driftChecked: _told, ...indexOptions } = options;
    const run = indexWorkspace(this.ctx, source, { ...indexOptions, embedder: this.embedder, committed });
    for (;;) {
      const step = await run.next();
      if (step.done) {
        await flush();
        // `.lore/` records the run imported are fingerprinted like any other write.
        this.trackSince(mark);
        return step.value;
      }
      if (step.value.phase === 'embed' || pending.length >= INDEXED_PATHS_PER_CHECK) await flush();
      yield step.value;
    }
  }

  indexStatus(): IndexStatus {
    return {
      ...indexCounts(this.ctx.db),
      model: this.embedder?.modelId ?? null,
      model_problem: this.embedderProblem,
      pending: this.embedder
        ? countPending(this.ctx.db, this.embedder.modelId) +
          (this.ctx.memories.search?.vectors?.countPending(this.embedder.modelId) ?? 0)
        : 0,
      last_update: getIndexState(this.ctx, 'last_index'),
    };
  }

  /** Indexed documents, page by page (path, kind, title; never the text). */
  listDocs(input?: ListDocsInput): ListDocsResult {
    return listDocs(this.ctx.db, input, kindMatcher(appliedKindRules(this.ctx)));
  }

  /**
   * For each `.lore/kinds` rule: how many indexed documents its glob matches, and how many it
   * decides (the last rule that matches a document decides its kind).
   */
  countKindRules(rules: readonly KindRule[]): Array<{ matches: number; decides: number }> {
    const counts = rules.map(() => ({ matches: 0, decides: 0 }));
    const tests = rules.map((rule) => globMatcher(rule.glob));
    for (const { path } of this.ctx.db.all<{ path: string }>('SELECT path FROM docs')) {
      let last = -1;
      tests.forEach((test, i) => {
        if (!test(path)) return;
        counts[i].matches++;
        last = i;
      });
      if (last >= 0) counts[last].decides++;
    }
    return counts;
  }

  history(key: string): HistoryResult {
    return history(this.ctx, key);
  }

  setStatus(actor: Actor, key: string, status: StatusChange, reason: unknown): LifecycleResult {
    return this.writes(
      () => setStatus(this.ctx, actor, key, status, reason),
      () => [key],
    );
  }

  supersede(actor: Actor, oldKey: string, newKey: string, validFrom?: string | null): SupersedeResult {
    return this.writes(
      () => supersede(this.ctx, actor, oldKey, newKey, validFrom),
      () => [oldKey, newKey],
    );
  }

  promote(actor: Actor, key: string): LifecycleResult {
    return this.writes(
      () => promote(this.ctx, actor, key),
      () => [key],
    );
  }

  forget(actor: Actor, key: string): ForgetReceipt {
    return forget(this.ctx, actor, key);
  }

  /** The chain, and every sealed row against its seal (record/repair.ts): an edited sealed field is a problem. */
  verifyAudit(checkpoints?: AuditCheckpoint[]): AuditVerdict {
    const verdict = this.ctx.memories.verifyAudit(checkpoints);
    // A version the chain comparison already names is not named twice.
    const named = new Set(verdict.problems.map((p) => p.key).filter(Boolean));
    const seals = sealProblems(this.ctx)
      .filter((p) => p.table !== 'memories' || !named.has(p.key))
      .map((p) => ({ seq: 0, key: p.key, problem: describeProblem(p) }));
    return { ...verdict, ok: verdict.ok && seals.length === 0, problems: [...verdict.problems, ...seals] };
  }

  /** Every sealed row (memory state, history, author) whose fields are not what Lore sealed, field by field. */
  sealProblems(): SealProblem[] {
    return sealProblems(this.ctx);
  }

  /** Writes back the sealed values of every edited row whose seal holds: a person's act (`lore doctor --repair`). */
  repairSeals(actor: Actor, shown?: string): RepairResult {
    return this.writes(() => repairSeals(this.ctx, actor, shown));
  }

  /** Every stored version (current and archived) checked as a read checks it: the ones refused, with reasons. */
  verifyRecords(): { checked: number; refused: Refusal[] } {
    const rows = this.ctx.memories.everyRow();
    return { checked: rows.length, refused: this.ctx.integrity.partition(rows).refused };
  }

  /** The chain's head, for a checkpoint kept outside the store. */
  auditCheckpoint(): AuditCheckpoint {
    return { ...this.ctx.memories.auditHead(), at: this.ctx.clock.now().toISOString(), store_id: this.ctx.storeId };
  }

  stats(): StoreStats {
    const counts = this.ctx.memories.counts();
    return {
      store_id: this.ctx.storeId,
      schema_version: currentSchemaVersion(this.ctx.db),
      memories: Object.values(counts.byStatus).reduce((sum, n) => sum + n, 0),
      by_status: counts.byStatus,
      archived_versions: counts.archived,
      audit_events: counts.auditEvents,
    };
  }

  /**
   * Scans for duplicates, conflicts, stale records and dead-end collisions; merges exact duplicates, queues the rest.
   */
  stewardRun(options?: StewardRunOptions): StewardRunResult {
    return this.writes(() => runSteward(this.ctx, memoryWrites, options, this.stewardDrift()));
  }

  /** The steward's Inbox: open items (or all with `state: 'all'`). */
  inbox(filter?: InboxFilter): InboxList {
    return listInbox(this.ctx.db, filter);
  }

  /** Resolves an Inbox item with one of the actions it lists. */
  resolveInbox(actor: Actor, id: number | string, action: string, note?: string | null): ResolveResult {
    return this.writes(() => resolveInbox(this.ctx, memoryWrites, actor, id, action, note));
  }

  /** A session's candidate memories in, a plan out; accept applies the low-risk items and queues the rest. */
  sessionClose(
    actor: Actor,
    input: SessionCloseInput | Record<string, unknown>,
    options?: { mode?: 'review' | 'accept'; reviewFirst?: boolean },
  ): SessionCloseResult {
    return this.writes(() => sessionClose(this.ctx, memoryWrites, actor, input, options));
  }

  /** Drifted anchors for the steward: the drift findings in a drifted state, by memory key. */
  private stewardDrift(): Map<string, DriftSignal[]> {
    return driftByMemory(this.driftFindings({ states: [...DRIFTED_STATES] }));
  }

  /**
   * A signed bundle of the current records the filter selects (default: every status but retracted and quarantined).
   */
  exportBundle(filter?: ExportFilter, options?: ExportOptions): Bundle {
    return exportBundle(this.ctx, filter, options);
  }

  /** Verifies a bundle (text or parsed JSON) completely, then imports all of it in one transaction, or nothing. */
  importBundle(actor: Actor, bundle: unknown, options?: ImportOptions): ImportResult {
    return this.writes(() => importBundle(this.ctx, actor, bundle, options));
  }

  /** Writes a record into the repository (an ADR, or a signed `.lore/` record) through the host's files. */
  canonicalize(actor: Actor, key: string, options: CanonicalizeOptions, repo: RepoFiles): CanonicalizeResult {
    return canonicalize(this.ctx, actor, key, options, repo);
  }

  /** This machine's key and every author this store knows, with whether it is trusted. */
  trustedKeys(): TrustList {
    return trustList(this.ctx);
  }

  /** Trusts an author (key id already seen here, or a public key): a person's act. */
  trustAuthor(actor: Actor, key: string, label?: string | null): AuthorInfo {
    return trustAuthor(this.ctx, actor, key, label);
  }

  distrustAuthor(actor: Actor, keyId: string): AuthorInfo {
    return distrustAuthor(this.ctx, actor, keyId);
  }

  /** Gives drift the workspace's files (or takes them away). */
  useFiles(files: WorkspaceReader | undefined): void {
    this.drift.useReader(files);
  }

  /** A full drift scan: every document's and live memory's references extracted and classified. */
  driftScan(): DriftScanResult {
    return this.drift.scan();
  }

  /** The per-save check: references to (or made by) these workspace-relative paths, classified now. */
  driftCheck(paths: string[]): DriftFinding[] {
    return this.drift.check(paths);
  }

  /**
   * The per-save check in slices, for an owner that keeps answering meanwhile (a branch switch's
   * thousands of paths): the same findings as driftCheck, each slice's writes in one transaction.
   */
  driftCheckInSlices(paths: string[]): Promise<DriftFinding[]> {
    return this.drift.checkInSlices(paths);
  }

  /**
   * The live memories and ADRs anchored to the workspace-relative `path` (the editor's lens and
   * hover): the references into it by the drift table's target index, then their sources in one read each.
   */
  anchoredTo(path: string): AnchoredRecord[] {
    if (typeof path !== 'string' || !path.trim())
      throw new LoreError('INVALID_INPUT', 'anchoredTo: path must be a workspace-relative file path');
    const findings = this.drift.referencesTo(path);
    const { keys, docs } = sourcesOf(findings);
    const memories = liveSummaries(this.ctx, keys);
    const limit = LIMITS.listMax;
    const listed = docs.length ? listDocs(this.ctx.db, { paths: docs.slice(0, limit), limit }).items : [];
    return anchoredRecords(path, findings, memories, listed);
  }

  /** Stored drift findings (every state but current and ambiguous unless `states` says otherwise), new drift first. */
  driftFindings(filter?: DriftFilter): DriftFinding[] {
    return this.drift.findings(filter);
  }

  /** Re-verifies a memory against its references: fresh fingerprints, basis verified, audited. */
  reverify(actor: Actor, key: string): ReverifyResult {
    return reverifyMemory(this.ctx, this.drift, actor, key);
  }

  /** Re-verifies one reference a document makes (a finding's id): its target accepted as it is now. */
  reverifyReference(actor: Actor, id: string): DriftFinding {
    return this.drift.reverifyReference(actor, id);
  }

  /** "Not about this file": a document's reference untied from its target for good (a finding's id). Audited. */
  dismissReference(actor: Actor, id: string): DriftFinding {
    return this.drift.dismissReference(actor, id);
  }

  /** Runs several engine calls as one transaction: all land or none do. */
  batch<T>(work: () => T): T {
    return this.ctx.memories.transaction(work);
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
