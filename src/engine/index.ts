// The engine's public surface. Doors import from here, never from the modules behind it.

export {
  Engine,
  SCHEMA_VERSION,
  type EngineOptions,
  type IndexDriftChecked,
  type IndexStatus,
  type StoreStats,
} from './engine';
export type { Embedder, EmbedderUnavailable } from './embed/embedder';
export type { FileSource, SourceFile, IndexOptions, IndexProgress, IndexSummary } from './indexing/indexer';
export { DOC_KINDS, type DocKind } from './model/kinds';
export type { DocSummary, ListDocsInput, ListDocsResult } from './indexing/docList';
export { classify, chartRootsOf } from './indexing/classify';
export { explainKind, renderKindExplanation, type KindExplanation } from './indexing/explainKind';
export {
  KIND_RULES_FILE,
  kindNamed,
  literalGlob,
  requireKindNamed,
  type KindRule,
  type KindRuleProblem,
  type KindRules,
} from './indexing/kindCorrections';
export { LoreError, isLoreError, type ErrorCode } from './errors';
export type { Actor, Clock, Logger, SqlDatabase, SqlParams, SqlValue, RunResult } from './ports';
export { silentLogger, systemClock } from './ports';
export { LIMITS } from './model/limits';
export { validateRemember } from './model/validate';
export { MEMORY_TYPES, STATUSES, BASES, SOURCE_KINDS, SCOPES } from './model/types';
export { LIVE_STATUSES } from './model/types';
export { TYPE_INFO, typeInfo, typeChoice, typeHeading, typeGuide, type TypeInfo } from './model/typeInfo';
export { LORE_VERSION } from './model/version';
export type { Memory, MemorySummary, MemoryType, Status, Basis, SourceKind, RememberInput } from './model/types';
export type { SaveResult } from './memory/save';
export type { ForgetReceipt } from './memory/forget';
export type { LifecycleResult, StatusChange, SupersedeResult, Transition } from './memory/lifecycle';
export { canBecome } from './memory/lifecycle';
export type { GetResult, HistoryResult, ListInput, ListResult } from './memory/read';
export type { RecallInput, RecallResult, RecallHit, MemoryHit, DocHit, ScoreParts } from './search/recall';
export { meaningHint } from './search/hint';
export {
  VERIFICATION_STATES,
  describeVerification,
  briefVerification,
  stillHolds,
  type Verification,
  type VerificationState,
  type RelatedRecord,
} from './search/verification';
export type { AuditCheckpoint, AuditVerdict } from './record/audit';
export { findSecrets, SECRET_RULES } from './model/secretRules';
export { redact } from './indexing/redact';
export {
  INBOX_ACTIONS,
  INBOX_KINDS,
  PLAN_ACTIONS,
  RISKS,
  SESSION_KINDS,
  type Finding,
  type InboxAction,
  type InboxItem,
  type InboxKind,
  type Risk,
  type SessionKind,
  type SessionProposal,
} from './steward/types';
export type { InboxFilter, InboxList } from './steward/inbox';
export { describeInboxAction } from './steward/actionWords';
export type { ResolveResult } from './steward/resolve';
export type { StewardRunOptions, StewardRunResult, StewardFinding, FindingOutcome } from './steward/run';
export type { SessionCloseInput, SessionCloseResult, SessionMode, PlanItem } from './steward/sessionClose';
export { MAX_CANDIDATES } from './steward/sessionClose';
export { AGENT_SOURCES } from './record/sourcePolicy';
export type { ExportFilter, ExportOptions, ImportOptions, ImportResult, ImportItem } from './team/bundle';
export type { Bundle, BundleRecord, BundleAuthor } from './team/bundleFormat';
export type { AuthorInfo, TrustList } from './team/trustedKeys';
export type { CanonicalizeOptions, CanonicalizeResult } from './team/canonicalize';
export type { RepoFiles } from './team/repoFiles';
export type { RepoRecordsSummary } from './team/repoRecords';
export {
  DRIFT_STATES,
  NOT_FINDINGS,
  type DriftState,
  type DriftFinding,
  type DriftFlag,
  type DriftScanResult,
  type WorkspaceReader,
  type FileStat,
} from './drift/types';
export { driftReadsText } from './driftReads';
export type { DriftFilter } from './drift/service';
export type { ReverifyResult } from './memory/reverify';
export { describeDrift, type WithDrift } from './annotate';
export { anchorTarget, openableAnchors, type AnchorTarget } from './drift/anchor';
export { PATTERN_FINDER } from './drift/finders';
export type { ParsedDeclaration, SymbolParser } from './drift/types';
export { discoveryMatcher, type DiscoveryConfig } from './indexing/discovery';
export { keyIdOf, type Refusal } from './record/integrity';
export { describeProblem, problemsDigest, type RepairResult, type SealProblem } from './record/repair';
export { MAX_BUNDLE_CHARS } from './team/bundleFormat';
export { findDefinitions, definesSymbols } from './drift/symbols';
export { MARKDOWN } from './drift/resolve';
export { headingSlug } from './text/slug';
export { markdownHeadings, type PageHeading } from './text/headings';
export { embedParts, rewriteEmbed } from './drift/embeds';
export { joinPath } from './text/paths';
export { keyFor, parseKey } from './model/keys';
export { ANCHORED_DOC_KINDS, type AnchoredRecord } from './anchored';
export {
  INSTRUCTION_FILES,
  INSTRUCTION_FORMATS,
  currentBlock,
  findBlock,
  renderInstructions,
  spliceBlock,
  type InstructionBlock,
  type InstructionFormat,
  type InstructionRecord,
} from './search/instructions';
