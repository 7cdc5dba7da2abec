// The steward's vocabulary: what a scan finds, how risky acting on it is, the inbox items a person
// resolves and the actions they may take. Field names are snake_case: they are the wire format.

import type { RememberInput } from '../model/types';

export const FINDING_KINDS = ['duplicate', 'conflict', 'stale', 'dead_end_collision'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export const INBOX_KINDS = [...FINDING_KINDS, 'session'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const RISKS = ['low', 'medium', 'high'] as const;
export type Risk = (typeof RISKS)[number];

/**
 * What a person may do with an inbox item. Each item lists the ones that fit it; the first is the
 * suggestion. merge: the others become superseded by the first key (history kept); supersede: the
 * older record gives way to the newer; deprecate / dispute: keep the record, ranked lower, with the
 * item's reason; add / promote: apply a queued session proposal; dismiss: keep things as they are.
 */
export const INBOX_ACTIONS = ['merge', 'supersede', 'deprecate', 'dispute', 'add', 'promote', 'dismiss'] as const;
export type InboxAction = (typeof INBOX_ACTIONS)[number];

export type StaleReason = 'review_due' | 'unverified' | 'anchor_drift';

export interface Finding {
  kind: FindingKind;
  /** The records concerned. duplicate: the survivor first; conflict: oldest first, newest last. */
  keys: string[];
  /** One line for a person. */
  summary: string;
  evidence: Record<string, unknown>;
  /** Names what was found, including the versions involved, so the same finding is queued once. */
  fingerprint: string;
  /** Valid resolutions, the suggested one first. */
  actions: InboxAction[];
}

export interface Assessment {
  risk: Risk;
  /** Whether the policy applies it without a person. */
  auto: boolean;
  reason: string;
}

export const SESSION_KINDS = ['routine', 'incident', 'migration'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export const PLAN_ACTIONS = ['add', 'merge', 'supersede', 'promote'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

/** A record as a queued session proposal saw it (kept in the item's evidence as `seen`). */
export interface SeenRecord {
  version: number;
  status: string;
}

/** A session-close proposal kept in the inbox until a person applies or dismisses it. */
export interface SessionProposal {
  action: PlanAction;
  /** The key the candidate saves under. */
  key: string;
  /** merge: the record it merges into; supersede: the record it replaces. */
  target: string | null;
  candidate: RememberInput;
  session: { kind: SessionKind; id: string | null };
}

export interface InboxItem {
  id: number;
  kind: InboxKind;
  state: 'open' | 'resolved' | 'dismissed';
  keys: string[];
  summary: string;
  evidence: Record<string, unknown>;
  risk: Risk;
  actions: InboxAction[];
  suggested_action: InboxAction;
  proposal: SessionProposal | null;
  created_at: string;
  created_by: string;
  resolution: { action: InboxAction; by: string; at: string; note: string | null } | null;
}
