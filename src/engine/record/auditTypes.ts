// The audit chain's shapes: an event, what a writer hands in, a verifier's findings and a checkpoint.
// Apart from audit.ts so the memory store port (memoryStore.ts) can name them without its rules.

export interface AuditEventInput {
  event: string;
  key?: string | null;
  version?: number | null;
  /** Named digests (content digests, receipts); values must be digests or counts, never text. */
  digests?: Record<string, string | number | string[]>;
}

export interface AuditEvent {
  seq: number;
  at: string;
  event: string;
  key_digest: string | null;
  version: number | null;
  actor: string;
  digests: string;
  prev_hash: string;
  hash: string;
}

export interface AuditProblem {
  /** The event the problem is at; 0 for a memory row no event accounts for. */
  seq: number;
  problem: string;
  /** For a memory row that does not match the chain: its key, when any trace of it is left. */
  key?: string | null;
}

export interface AuditVerdict {
  ok: boolean;
  events: number;
  head: string;
  problems: AuditProblem[];
}

/** A chain head written somewhere else (a file a person can anchor), to catch truncation or rewriting. */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
  at?: string;
  store_id?: string;
}
