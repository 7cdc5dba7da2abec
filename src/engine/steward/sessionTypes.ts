// The shapes a session close passes between its steps: what an agent hands in, the validated
// session, each candidate's draft plan, and the plan items a reviewer reads. Types only.

import type { RememberInput, SourceKind } from '../model/types';
import type { ValidRemember } from '../model/validate';
import type { DeadEndMatch } from '../record/deadEnds';
import type { PlanAction, Risk, SessionKind } from './types';

export interface SessionCloseInput {
  kind?: SessionKind;
  summary?: string;
  session_id?: string;
  agent?: string;
  client?: string;
  /** Default provenance source of the candidates (default agent). */
  source?: SourceKind;
  /** Candidate memories: the remember fields, plus optionally `supersedes: KEY`. */
  memories?: Array<Record<string, unknown>>;
}

export type SessionMode = 'review' | 'accept';

export interface SessionCloseOptions {
  mode?: unknown;
  /** Queue every item for a person whatever the kind (a hook hands in what nobody has looked at yet). */
  reviewFirst?: boolean;
}

export interface PlanItem {
  id: number;
  action: PlanAction;
  /** The key the candidate saves under. */
  key: string;
  /** merge: the record it merges into; supersede: the record it replaces. */
  target: string | null;
  /** Index of the candidate in `memories`. */
  candidate: number;
  title: string;
  risk: Risk;
  reason: string;
  /** Whether accept applies it (low risk in a routine session, and never promote). */
  applies: boolean;
  /** After accept: what happened. */
  outcome?: 'applied' | 'unchanged' | 'queued' | 'already_queued' | 'dismissed_before';
  version?: number | null;
  inbox_id?: number | null;
}

export interface SessionCloseResult {
  mode: SessionMode;
  kind: SessionKind;
  review_first: boolean;
  items: PlanItem[];
  notes: string[];
  applied: number;
  queued: number;
}

export interface Candidate {
  index: number;
  input: RememberInput;
  valid: ValidRemember;
  supersedes: string | null;
}

export interface ValidSession {
  kind: SessionKind;
  summary: string | null;
  session_id: string | null;
  candidates: Candidate[];
}

/** What one candidate would do, before it is numbered into a plan item. */
export interface Draft {
  action: PlanAction;
  target: string | null;
  risk: Risk;
  reason: string;
  noop: boolean;
  dead_ends: DeadEndMatch[];
  similarity?: number;
}

export interface PlannedItem {
  item: PlanItem;
  draft: Draft;
  candidate: Candidate;
}
