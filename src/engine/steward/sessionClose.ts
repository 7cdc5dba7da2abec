// Session close: an agent hands in what a session settled — candidate memories (the remember
// fields) and/or a summary — and gets a plan: add / merge / supersede / promote, each with a risk
// and a reason. Review is a dry run that writes nothing. Accept applies the low-risk items of a
// routine session and queues the rest in the Inbox; incident and migration sessions are
// review-first, so accept queues everything. Promote is never applied here: it is a person's act.
// Lore does not extract memories from a summary (agents extract, Lore stores and guards); the
// summary is checked for secrets and dead ends and its digest goes into the audit.

import { LIMITS } from '../model/limits';
import { LIVE_STATUSES_SQL, UNTRUSTED_SOURCES, type Memory } from '../model/types';
import { requireEnum, type ValidRemember } from '../model/validate';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { deadEndProbes, findResemblingDeadEnds, type DeadEndMatch } from '../record/deadEnds';
import { ftsQuery } from '../text/words';
import { rowToMemory, type MemoryRow } from '../record/rows';
import { digestOf } from '../model/digest';
import { applyProposal } from './apply';
import type { MemoryWrites } from './memoryWrites';
import { NEAR_DUPLICATE_SIMILARITY, cosine, round, substanceDigest, termVector } from '../model/similarity';
import { validateSession } from './sessionInput';
import { queueForReview } from './sessionQueue';
import type {
  Candidate,
  Draft,
  PlannedItem,
  PlanItem,
  SessionCloseOptions,
  SessionCloseResult,
  ValidSession,
} from './sessionTypes';
import type { SessionProposal } from './types';

export { MAX_CANDIDATES, validateSession } from './sessionInput';
export type { PlanItem, SessionCloseInput, SessionCloseOptions, SessionCloseResult, SessionMode } from './sessionTypes';

/** Records read per candidate to look for one it repeats. */
const NEIGHBOURS = 20;

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

/** What the candidate would do to the record already saved under its key (`existingRow`). */
function draftOverExisting(
  ctx: EngineContext,
  v: ValidRemember,
  existingRow: MemoryRow,
  deadEnds: DeadEndMatch[],
  deadEndNote: string,
): Draft {
  const existing = ctx.integrity.check(existingRow).ok ? rowToMemory(existingRow) : null;
  const base = { noop: false, dead_ends: deadEnds };
  if (!existing)
    return {
      ...base,
      action: 'merge',
      target: v.key,
      risk: 'high',
      reason: `${v.key} exists but fails verification; a person must look at it first`,
    };
  if (existing.status === 'retracted')
    return {
      ...base,
      action: 'add',
      target: null,
      risk: 'medium',
      reason: `${v.key} was retracted; this would bring it back${deadEndNote}`,
    };
  if (substanceDigest(existing) === substanceDigest(v))
    return {
      ...base,
      action: 'merge',
      target: v.key,
      risk: 'low',
      reason: `already recorded as ${v.key} (v${existing.version}); nothing to write`,
      noop: true,
    };
  return {
    ...base,
    action: 'merge',
    target: v.key,
    risk: 'medium',
    reason:
      `${v.key} exists (v${existing.version}, ${existing.status}); this ` +
      `would become its next version${deadEndNote}`,
  };
}

/** What a candidate with a new key would do: repeat a record, supersede one, or add itself. */
function draftForNewKey(ctx: EngineContext, c: Candidate, deadEnds: DeadEndMatch[], deadEndNote: string): Draft {
  const v = c.valid;
  const substance = substanceDigest(v);
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
  const base = { noop: false, dead_ends: deadEnds };
  if (near?.exact)
    return {
      ...base,
      action: 'merge',
      target: near.m.key,
      risk: 'low',
      reason: `already recorded as ${near.m.key} (same content); nothing to write`,
      noop: true,
      similarity: 1,
    };
  if (near && near.similarity >= NEAR_DUPLICATE_SIMILARITY)
    return {
      ...base,
      action: 'merge',
      target: near.m.key,
      risk: 'medium',
      reason:
        `nearly repeats ${near.m.key} (similarity ` +
        `${round(near.similarity)}); merging adds its anchors, links and ` +
        `tags there${deadEndNote}`,
      similarity: round(near.similarity),
    };
  if (c.supersedes || holders.length) {
    const target = c.supersedes ?? holders[0];
    const why = c.supersedes
      ? `it says it supersedes ${target}`
      : `it restates the fact "${v.fact_key}" that ${target} holds`;
    return {
      ...base,
      action: 'supersede',
      target,
      risk: 'medium',
      reason: `${why}; ${target} would stop being valid${deadEndNote}`,
    };
  }
  if (deadEnds.length)
    return { ...base, action: 'add', target: null, risk: 'medium', reason: `a new record${deadEndNote}` };
  const untrusted = UNTRUSTED_SOURCES.includes(v.provenance.source);
  return {
    ...base,
    action: 'add',
    target: null,
    risk: 'low',
    reason: untrusted ? 'a new record; it lands quarantined (untrusted source)' : 'a new record',
  };
}

function planCandidate(ctx: EngineContext, c: Candidate): Draft[] {
  const v = c.valid;
  const untrusted = UNTRUSTED_SOURCES.includes(v.provenance.source);
  const deadEnds = v.type === 'dead_end' ? [] : findResemblingDeadEnds(ctx, deadEndProbes(v), v.key);
  const deadEndNote = deadEnds.length ? `; it resembles the dead end ${deadEnds[0].key} ("${deadEnds[0].title}")` : '';
  const existingRow = ctx.memories.current(v.key);
  let draft = existingRow
    ? draftOverExisting(ctx, v, existingRow, deadEnds, deadEndNote)
    : draftForNewKey(ctx, c, deadEnds, deadEndNote);
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

/** Step 3: low-risk items are applied, the rest queued for a person; one audit event for the close. */
function applyPlan(
  ctx: EngineContext,
  memory: MemoryWrites,
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
      const outcome = applyProposal(ctx, memory, actor, proposal);
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
  memory: MemoryWrites,
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
    return { ...result, ...applyPlan(ctx, memory, actor, session, plans) };
  };
  // Review reads only; accept lands whole or not at all.
  return mode === 'review' ? work() : ctx.memories.transaction(work);
}
