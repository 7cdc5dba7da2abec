// Record types: the memory record and the values its fields may take (PRODUCT.md "Records").
// Field names are snake_case because they are the wire format every door speaks.

export const MEMORY_TYPES = [
  'decision',
  'dead_end',
  'runbook',
  'incident',
  'postmortem',
  'convention',
  'fact',
  'preference',
  'reference',
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const STATUSES = ['active', 'deprecated', 'disputed', 'superseded', 'retracted', 'quarantined'] as const;
export type Status = (typeof STATUSES)[number];

/**
 * The statuses of a record still in play: recall returns them, they can supersede and be
 * superseded, a fact_key or a dead end is matched among them, and the steward scans them.
 */
export const LIVE_STATUSES = ['active', 'deprecated', 'disputed'] as const satisfies readonly Status[];
/** LIVE_STATUSES as an SQL list, for `status IN ${LIVE_STATUSES_SQL}`. */
export const LIVE_STATUSES_SQL = `(${LIVE_STATUSES.map((s) => `'${s}'`).join(', ')})`;
/** Whether a status is one of LIVE_STATUSES. */
export const isLiveStatus = (status: string): boolean => (LIVE_STATUSES as readonly string[]).includes(status);

export const BASES = ['declared', 'verified', 'observed', 'inferred', 'unstated'] as const;
export type Basis = (typeof BASES)[number];

export const SOURCE_KINDS = ['user', 'agent', 'file', 'webpage', 'tool', 'import'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const SCOPES = ['workspace', 'user'] as const;
export type Scope = (typeof SCOPES)[number];

/** Sources whose text is untrusted: their records land quarantined until a person promotes them. */
export const UNTRUSTED_SOURCES: readonly SourceKind[] = ['webpage', 'tool'];

export interface Provenance {
  source: SourceKind;
  client?: string;
  agent?: string;
  session_id?: string;
  turn?: number;
  created_at: string;
  evidence: string[];
}

export interface Memory {
  key: string;
  type: MemoryType;
  title: string;
  description: string;
  body: string;
  links: string[];
  anchors: string[];
  tags: string[];
  scope: Scope;
  status: Status;
  status_reason: string | null;
  superseded_by: string | null;
  supersedes: string | null;
  basis: Basis;
  confidence: number | null;
  provenance: Provenance;
  valid_from: string;
  valid_until: string | null;
  recorded_at: string;
  updated_at: string;
  review_after: string | null;
  fact_key: string | null;
  version: number;
  author: string | null;
  signature: string | null;
  content_digest: string;
  /** For an imported version: where its author signed it (null or absent for records written here). */
  origin?: RecordOrigin | null;
}

/** The author's own signature of an imported version, kept beside the signature this store made for it. */
export interface RecordOrigin {
  /** The store the author signed it in, and the version it had there. */
  store_id: string;
  version: number;
  signature: string;
  /** The key that signed it for this store (the importing machine). */
  signer: string;
  imported_at: string;
}

/** What a caller may send to `remember`. Everything not listed here is Lore's to decide. */
export interface RememberInput {
  type: MemoryType;
  title: string;
  description: string;
  body?: string;
  key?: string;
  links?: string[];
  anchors?: string[];
  tags?: string[];
  scope?: Scope;
  basis?: Basis;
  confidence?: number;
  provenance: {
    source: SourceKind;
    client?: string;
    agent?: string;
    session_id?: string;
    turn?: number;
    evidence?: string[];
  };
  valid_from?: string;
  valid_until?: string;
  review_after?: string;
  fact_key?: string;
  expected_version?: number;
}

/** The lean view recall and list hand out: never the body. */
export interface MemorySummary {
  key: string;
  type: MemoryType;
  title: string;
  description: string;
  status: Status;
  status_reason: string | null;
  superseded_by: string | null;
  basis: Basis;
  confidence: number | null;
  source: SourceKind;
  version: number;
  valid_from: string;
  valid_until: string | null;
  recorded_at: string;
  updated_at: string;
  review_after: string | null;
  flags: string[];
  /** Whether the record has anything Open Anchor can open (drift/anchor.ts openableAnchors). */
  anchored: boolean;
}

/** A live dead end a new record resembles (a save's warning). */
export interface DeadEndMatch {
  key: string;
  title: string;
  description: string;
  status: string;
  resemblance: number;
}

/** A live record a new one disagrees with on a value (a save's warning). */
export interface ContradictionMatch {
  key: string;
  title: string;
  description: string;
  /** The kind of value the two records disagree on (weekday, month, frequency). */
  value_kind: string;
  /** The existing record's values, then the new record's. */
  values: [string[], string[]];
  /** When the existing record's statement took effect (which of the two is newer). */
  valid_from: string;
}

/** What a save warns about: dead ends its record resembles, live records it contradicts. */
export interface SaveWarnings {
  dead_ends: DeadEndMatch[];
  contradictions: ContradictionMatch[];
}
