// The engine's public surface. Doors import from here, never from the modules behind it.

export { Engine, SCHEMA_VERSION, type EngineOptions, type IndexStatus, type StoreStats } from './engine';
export type { Embedder, EmbedderUnavailable } from './embed/embedder';
export type { FileSource, SourceFile, IndexOptions, IndexProgress, IndexSummary } from './index/indexer';
export { DOC_KINDS, type DocKind } from './index/kinds';
export { classify, chartRootsOf } from './index/classify';
export { LoreError, isLoreError, type ErrorCode } from './errors';
export type { Actor, Clock, Logger, SqlDatabase, SqlParams, SqlValue, RunResult } from './ports';
export { silentLogger, systemClock } from './ports';
export { LIMITS } from './model/limits';
export { validateRemember } from './model/validate';
export { MEMORY_TYPES, STATUSES, BASES, SOURCE_KINDS, SCOPES } from './model/types';
export type { Memory, MemorySummary, MemoryType, Status, Basis, SourceKind, RememberInput } from './model/types';
export type { SaveResult } from './memory/save';
export type { ForgetReceipt } from './memory/forget';
export type { LifecycleResult, StatusChange, SupersedeResult } from './memory/lifecycle';
export type { GetResult, HistoryResult, ListInput, ListResult } from './memory/read';
export type { RecallInput, RecallResult, RecallHit, MemoryHit, DocHit, ScoreParts } from './search/recall';
export type { AuditCheckpoint, AuditVerdict } from './trust/audit';
export { findSecrets, SECRET_RULES } from './trust/secretRules';
export { redact } from './index/redact';
