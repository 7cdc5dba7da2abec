// Session close, step 3 for what a person must decide: a plan item queued in the Inbox once, with
// the evidence a reviewer reads and what the records looked like when it was queued.

import type { EngineContext } from '../context';
import { digestOf } from '../model/digest';
import type { Actor } from '../ports';
import { candidateLikeness, itemByFingerprint, joinItem, openItem, openLikeItem } from './inbox';
import type { Draft, PlannedItem, ValidSession } from './sessionTypes';
import type { InboxAction, PlanAction, SeenRecord, SessionProposal } from './types';

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

/** An item a person must decide: queued in the Inbox once (the same proposal is not queued twice). */
export function queueForReview(
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
