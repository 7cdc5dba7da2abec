// Session close: an agent hands in what a session settled — candidate memories (the remember
// fields) and/or a summary — and gets a plan: add / merge / supersede / promote, each with a risk
// and a reason. Review is a dry run that writes nothing. Accept applies the low-risk items of a
// routine session and queues the rest in the Inbox; incident and migration sessions are
// review-first, so accept queues everything. Promote is never applied here: it is a person's act.
// Lore does not extract memories from a summary (agents extract, Lore stores and guards); the
// summary is checked for secrets and dead ends and its digest goes into the audit.

import { LoreError, invalid } from '../errors';
import { LIMITS } from '../model/limits';
import { LIVE_STATUSES_SQL, UNTRUSTED_SOURCES, type Memory, type RememberInput, type SourceKind } from '../model/types';
import { requireEnum, requireText, validateRemember, type ValidRemember } from '../model/validate';
import { parseKey } from '../model/keys';
import type { Actor } from '../ports';
import { requireClaimableSource } from '../record/sourcePolicy';
import { nowIso, type EngineContext } from '../context';
import { deadEndProbes, findResemblingDeadEnds, type DeadEndMatch } from '../record/deadEnds';
import { ftsQuery } from '../text/words';
import { rowToMemory, type MemoryRow } from '../record/rows';
import { digestOf } from '../model/digest';
import { applyProposal } from './apply';
import { candidateLikeness, itemByFingerprint, joinItem, openItem, openLikeItem } from './inbox';
import { NEAR_DUPLICATE_SIMILARITY, cosine, round, substanceDigest, termVector } from '../model/similarity';
import {
  SESSION_KINDS,
  type InboxAction,
  type PlanAction,
  type Risk,
  type SeenRecord,
  type SessionKind,
  type SessionProposal,
} from './types';

/** At most this many candidate memories per session: a session settles a handful of things. */
export const MAX_CANDIDATES = 50;
/** Records read per candidate to look for one it repeats. */
const NEIGHBOURS = 20;
const KNOWN_FIELDS = new Set(['kind', 'summary', 'session_id', 'agent', 'client', 'source', 'memories']);

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

interface Candidate {
  index: number;
  input: RememberInput;
  valid: ValidRemember;
  supersedes: string | null;
}

interface ValidSession {
  kind: SessionKind;
  summary: string | null;
  session_id: string | null;
  candidates: Candidate[];
}

function optionalText(field: string, value: unknown, max: number): string | undefined {
  return value === undefined || value === null ? undefined : requireText(field, value, max);
}

export function validateSession(actor: Actor, raw: unknown): ValidSession {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw invalid('a session close is an object: { kind, summary?, memories? }');
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length)
    throw invalid(
      `the session has unknown field(s): ${unknown.join(', ')}`,
      `allowed: ${[...KNOWN_FIELDS].join(', ')}`,
    );
  const kind = input.kind === undefined ? 'routine' : requireEnum('kind', input.kind, SESSION_KINDS);
  const summary =
    input.summary === undefined || input.summary === null
      ? null
      : requireText('summary', input.summary, Number.MAX_SAFE_INTEGER, {
          maxBytes: LIMITS.bodyBytes,
          limitHint: 'summarise it; put what should be remembered in memories',
        });
  const source = input.source === undefined ? 'agent' : requireClaimableSource(actor, 'source', input.source);
  const session_id = optionalText('session_id', input.session_id, LIMITS.provenanceFieldChars) ?? null;
  const agent = optionalText('agent', input.agent, LIMITS.provenanceFieldChars);
  const client = optionalText('client', input.client, LIMITS.provenanceFieldChars);
  if (input.memories !== undefined && !Array.isArray(input.memories))
    throw invalid('memories must be a list of candidate memories (the remember fields)');
  const memories = (input.memories ?? []) as unknown[];
  if (memories.length > MAX_CANDIDATES)
    throw new LoreError(
      'LIMIT_EXCEEDED',
      `the session has ${memories.length} candidate memories; the limit is ${MAX_CANDIDATES}`,
      'send the ones that matter, or close the session in parts',
    );
  if (!memories.length && summary === null)
    throw invalid(
      'the session has neither a summary nor memories',
      'send memories (candidate records with the remember fields) and/or a summary',
    );

  const seen = new Map<string, number>();
  const candidates = memories.map((m, index): Candidate => {
    const at = `memories[${index}]`;
    if (m === null || typeof m !== 'object' || Array.isArray(m))
      throw invalid(`${at} must be an object with the remember fields`);
    const { supersedes: rawSupersedes, provenance: rawProvenance, ...fields } = m as Record<string, unknown>;
    if (
      rawProvenance !== undefined &&
      (rawProvenance === null || typeof rawProvenance !== 'object' || Array.isArray(rawProvenance))
    )
      throw invalid(`${at}.provenance must be an object`);
    // The candidate's own provenance wins; the session fills in what it leaves out.
    const provenance = {
      source,
      ...(client ? { client } : {}),
      ...(agent ? { agent } : {}),
      ...(session_id ? { session_id } : {}),
      ...(rawProvenance as Record<string, unknown> | undefined),
    };
    requireClaimableSource(actor, `${at}.provenance.source`, provenance.source);
    const candidate = { ...fields, provenance } as unknown as RememberInput;
    let valid: ValidRemember;
    try {
      valid = validateRemember(candidate);
    } catch (error) {
      if (error instanceof LoreError)
        throw new LoreError(error.code, `${at}: ${error.message}`, error.hint, error.details);
      throw error;
    }
    if (seen.has(valid.key))
      throw invalid(
        `memories[${seen.get(valid.key)}] and ${at} both save ${valid.key}`,
        'send one candidate per record',
      );
    seen.set(valid.key, index);
    let supersedes: string | null = null;
    if (rawSupersedes !== undefined && rawSupersedes !== null) {
      if (typeof rawSupersedes !== 'string') throw invalid(`${at}.supersedes must be a memory key`);
      parseKey(rawSupersedes);
      if (rawSupersedes === valid.key) throw invalid(`${at} cannot supersede itself`);
      supersedes = rawSupersedes;
    }
    return { index, input: { ...candidate, key: valid.key }, valid, supersedes };
  });
  return { kind, summary, session_id, candidates };
}

/** Live records of the candidate's type that share its words, best first (verified ones only). */
function neighbours(ctx: EngineContext, c: ValidRemember): Memory[] {
  const match = ftsQuery(`${c.title} ${c.description}`);
  if (!match) return [];
  const ranked = ctx.db.all<{ id: number }>(
    'SELECT rowid AS id FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT ?',
    [match, NEIGHBOURS * 3],
  );
  if (!ranked.length) return [];
  const order = new Map(ranked.map((r, i) => [r.id, i]));
  const rows = ctx.db.all<MemoryRow>(
    `SELECT * FROM memories WHERE id IN ` +
      `(${ranked.map(() => '?').join(', ')}) AND is_current = 1 AND ` +
      `status IN ${LIVE_STATUSES_SQL} AND type = ? AND key <> ?`,
    [...ranked.map((r) => r.id), c.type, c.key],
  );
  return ctx.integrity
    .partition(rows)
    .accepted.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    .slice(0, NEIGHBOURS)
    .map(rowToMemory);
}

interface Draft {
  action: PlanAction;
  target: string | null;
  risk: Risk;
  reason: string;
  noop: boolean;
  dead_ends: DeadEndMatch[];
  similarity?: number;
}

function planCandidate(ctx: EngineContext, c: Candidate): Draft[] {
  const v = c.valid;
  const untrusted = UNTRUSTED_SOURCES.includes(v.provenance.source);
  const substance = substanceDigest(v);
  const deadEnds = v.type === 'dead_end' ? [] : findResemblingDeadEnds(ctx, deadEndProbes(v), v.key);
  const deadEndNote = deadEnds.length ? `; it resembles the dead end ${deadEnds[0].key} ("${deadEnds[0].title}")` : '';
  let draft: Draft;

  const existingRow = ctx.memories.current(v.key);
  const existing = existingRow && ctx.integrity.check(existingRow).ok ? rowToMemory(existingRow) : null;
  if (existingRow && !existing) {
    draft = {
      action: 'merge',
      target: v.key,
      risk: 'high',
      reason: `${v.key} exists but fails verification; a person must look at it first`,
      noop: false,
      dead_ends: deadEnds,
    };
  } else if (existing && existing.status === 'retracted') {
    draft = {
      action: 'add',
      target: null,
      risk: 'medium',
      reason: `${v.key} was retracted; this would bring it back${deadEndNote}`,
      noop: false,
      dead_ends: deadEnds,
    };
  } else if (existing && substanceDigest(existing) === substance) {
    draft = {
      action: 'merge',
      target: v.key,
      risk: 'low',
      reason: `already recorded as ${v.key} (v${existing.version}); nothing to write`,
      noop: true,
      dead_ends: deadEnds,
    };
  } else if (existing) {
    draft = {
      action: 'merge',
      target: v.key,
      risk: 'medium',
      reason:
        `${v.key} exists (v${existing.version}, ${existing.status}); this ` +
        `would become its next version${deadEndNote}`,
      noop: false,
      dead_ends: deadEnds,
    };
  } else {
    const vector = termVector(v);
    const near = neighbours(ctx, v)
      .map((m) => ({ m, exact: substanceDigest(m) === substance, similarity: cosine(vector, termVector(m)) }))
      .sort((a, b) => Number(b.exact) - Number(a.exact) || b.similarity - a.similarity)[0];
    const holders = v.fact_key
      ? ctx.memories
          .liveByFactKey(v.fact_key, v.key)
          .map((r) => r.key)
          .sort()
      : [];
    if (near?.exact) {
      draft = {
        action: 'merge',
        target: near.m.key,
        risk: 'low',
        reason: `already recorded as ${near.m.key} (same content); nothing to write`,
        noop: true,
        dead_ends: deadEnds,
        similarity: 1,
      };
    } else if (near && near.similarity >= NEAR_DUPLICATE_SIMILARITY) {
      draft = {
        action: 'merge',
        target: near.m.key,
        risk: 'medium',
        reason:
          `nearly repeats ${near.m.key} (similarity ` +
          `${round(near.similarity)}); merging adds its anchors, links and ` +
          `tags there${deadEndNote}`,
        noop: false,
        dead_ends: deadEnds,
        similarity: round(near.similarity),
      };
    } else if (c.supersedes || holders.length) {
      const target = c.supersedes ?? holders[0];
      const why = c.supersedes
        ? `it says it supersedes ${target}`
        : `it restates the fact "${v.fact_key}" that ${target} holds`;
      draft = {
        action: 'supersede',
        target,
        risk: 'medium',
        reason: `${why}; ${target} would stop being valid${deadEndNote}`,
        noop: false,
        dead_ends: deadEnds,
      };
    } else {
      draft = deadEnds.length
        ? {
            action: 'add',
            target: null,
            risk: 'medium',
            reason: `a new record${deadEndNote}`,
            noop: false,
            dead_ends: deadEnds,
          }
        : {
            action: 'add',
            target: null,
            risk: 'low',
            reason: untrusted ? 'a new record; it lands quarantined (untrusted source)' : 'a new record',
            noop: false,
            dead_ends: deadEnds,
          };
    }
  }
  if (untrusted && !draft.noop && draft.action !== 'add') {
    draft = { ...draft, risk: 'high', reason: `${draft.reason}; from an untrusted source (${v.provenance.source})` };
  }
  const drafts = [draft];
  // Untrusted text enters quarantined; letting it into recall is a person's act, proposed here.
  if (untrusted && draft.action === 'add') {
    drafts.push({
      action: 'promote',
      target: null,
      risk: 'high',
      reason: `from an untrusted source (${v.provenance.source}): stays quarantined until a person promotes it`,
      noop: false,
      dead_ends: [],
    });
  }
  return drafts;
}

/**
 * What the records a queued proposal writes looked like when it was queued (null: no such record),
 * so resolving it later refuses a plan the store has moved past. A promote is checked against the
 * candidate's text instead: its record is only written when the add before it is applied.
 */
function seenNow(ctx: EngineContext, keys: string[]): Record<string, SeenRecord | null> {
  const seen: Record<string, SeenRecord | null> = {};
  for (const key of keys) {
    const row = ctx.memories.current(key);
    seen[key] = row ? { version: row.version, status: row.status } : null;
  }
  return seen;
}

const ACTIONS_FOR: Record<PlanAction, (d: Draft, key: string) => InboxAction[]> = {
  add: () => ['add', 'dismiss'],
  merge: (d, key) => (d.target === key ? ['merge', 'dismiss'] : ['merge', 'add', 'dismiss']),
  supersede: () => ['supersede', 'add', 'dismiss'],
  promote: () => ['promote', 'dismiss'],
};

export interface SessionCloseOptions {
  mode?: unknown;
  /** Queue every item for a person whatever the kind (a hook hands in what nobody has looked at yet). */
  reviewFirst?: boolean;
}

interface PlannedItem {
  item: PlanItem;
  draft: Draft;
  candidate: Candidate;
}

/** Step 2: what each candidate would do, with the notes a reviewer reads; reads only. */
function planSession(
  ctx: EngineContext,
  session: ValidSession,
  reviewFirst: boolean,
): { notes: string[]; plans: PlannedItem[] } {
  const notes: string[] = [];
  if (!session.candidates.length)
    notes.push('no candidate memories: Lore does not extract memories from a summary; send them in `memories`');
  if (reviewFirst) {
    const who = session.kind !== 'routine' ? `${session.kind} sessions are` : 'this session was handed in';
    notes.push(`${who} review-first: accept applies nothing and queues every item in the Inbox`);
  }
  if (session.summary) {
    for (const d of findResemblingDeadEnds(ctx, session.summary.slice(0, LIMITS.queryChars))) {
      notes.push(`the summary resembles the dead end ${d.key} ("${d.title}")`);
    }
  }
  const plans: PlannedItem[] = [];
  for (const candidate of session.candidates) {
    for (const draft of planCandidate(ctx, candidate)) {
      const item: PlanItem = {
        id: plans.length + 1,
        action: draft.action,
        key: candidate.valid.key,
        target: draft.target,
        candidate: candidate.index,
        title: candidate.valid.title,
        risk: draft.risk,
        reason: draft.reason,
        applies: !reviewFirst && draft.risk === 'low' && draft.action !== 'promote',
      };
      plans.push({ item, draft, candidate });
    }
  }
  return { notes, plans };
}

/** An item a person must decide: queued in the Inbox once (the same proposal is not queued twice). */
function queueForReview(
  ctx: EngineContext,
  actor: Actor,
  session: ValidSession,
  planned: PlannedItem,
  proposal: SessionProposal,
  now: string,
): void {
  const { item, draft, candidate } = planned;
  const fingerprint = `session:${item.action}:${item.key}:${item.target ?? ''}:${digestOf(candidate.input)}`;
  const from = { kind: session.kind, id: session.session_id };
  const earlier = itemByFingerprint(ctx.db, fingerprint);
  if (earlier) {
    item.outcome = earlier.state === 'dismissed' ? 'dismissed_before' : 'already_queued';
    item.inbox_id = earlier.id;
    if (earlier.state === 'open') joinItem(ctx, actor, earlier, from, now);
    return;
  }
  // The same candidate from another session (same type, title and description, told apart only by
  // case or spacing) joins the open item, which lists the sessions it came from.
  const twin = openLikeItem(ctx.db, proposal, candidateLikeness(candidate.input));
  if (twin) {
    item.outcome = 'already_queued';
    item.inbox_id = twin.id;
    joinItem(ctx, actor, twin, from, now);
    return;
  }
  const keys = [...new Set([item.key, ...(item.target ? [item.target] : [])])];
  const into =
    item.target && item.target !== item.key
      ? ` (${item.action === 'merge' ? 'into' : 'replacing'} ${item.target})`
      : '';
  const evidence = {
    reason: item.reason,
    session_kind: session.kind,
    session_id: session.session_id,
    sessions: [from],
    source: candidate.valid.provenance.source,
    ...(draft.dead_ends.length ? { dead_ends: draft.dead_ends } : {}),
    ...(draft.similarity !== undefined ? { similarity: draft.similarity } : {}),
    ...(item.action === 'promote' ? {} : { seen: seenNow(ctx, keys) }),
  };
  const opened = openItem(
    ctx,
    actor,
    {
      fingerprint,
      kind: 'session',
      keys,
      summary: `${session.kind} session proposes to ${item.action} ${item.key}${into}: ${item.title}`,
      evidence,
      risk: item.risk,
      actions: ACTIONS_FOR[item.action](draft, item.key),
      proposal,
    },
    now,
  );
  item.outcome = 'queued';
  item.inbox_id = opened.id;
}

/** Step 3: low-risk items are applied, the rest queued for a person; one audit event for the close. */
function applyPlan(
  ctx: EngineContext,
  actor: Actor,
  session: ValidSession,
  plans: PlannedItem[],
): { applied: number; queued: number } {
  const now = nowIso(ctx);
  for (const planned of plans) {
    const { item, draft, candidate } = planned;
    const proposal: SessionProposal = {
      action: item.action,
      key: item.key,
      target: item.target,
      candidate: candidate.input,
      session: { kind: session.kind, id: session.session_id },
    };
    // Already recorded: nothing to write, and nothing for a person to review either.
    if (draft.noop) {
      item.outcome = 'unchanged';
    } else if (item.applies) {
      const outcome = applyProposal(ctx, actor, proposal);
      item.outcome = outcome.unchanged ? 'unchanged' : 'applied';
      item.version = outcome.version;
    } else {
      queueForReview(ctx, actor, session, planned, proposal, now);
    }
  }
  const applied = plans.filter((p) => p.item.outcome === 'applied').length;
  const queued = plans.filter((p) => p.item.outcome === 'queued').length;
  const summary: Record<string, string> = session.summary ? { summary: digestOf(session.summary) } : {};
  ctx.memories.appendAudit(actor, now, {
    event: 'session.close',
    digests: { ...summary, candidates: session.candidates.length, applied, queued },
  });
  return { applied, queued };
}

/** Closes a session in three steps: validate (validateSession), plan (planSession), apply (applyPlan, accept only). */
export function sessionClose(
  ctx: EngineContext,
  actor: Actor,
  raw: unknown,
  options: SessionCloseOptions = {},
): SessionCloseResult {
  const mode = requireEnum('mode', options.mode ?? 'review', ['review', 'accept'] as const);
  const session = validateSession(actor, raw);
  const reviewFirst = session.kind !== 'routine' || options.reviewFirst === true;
  const work = (): SessionCloseResult => {
    const { notes, plans } = planSession(ctx, session, reviewFirst);
    const items = plans.map((p) => p.item);
    const result = { mode, kind: session.kind, review_first: reviewFirst, items, notes };
    if (mode === 'review') return { ...result, applied: 0, queued: 0 };
    return { ...result, ...applyPlan(ctx, actor, session, plans) };
  };
  // Review reads only; accept lands whole or not at all.
  return mode === 'review' ? work() : ctx.memories.transaction(work);
}
