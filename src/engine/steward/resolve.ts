// Resolving an Inbox item: a person picks one of the actions the item lists; the records change
// through the ordinary lifecycle (each write audited), and the item closes with what was done.
// Applying a queued session proposal is accepting a risky plan item: a person's act.

import { LoreError, invalid } from '../errors';
import { LIMITS } from '../model/limits';
import { requireEnum, requireText, validateRemember } from '../model/validate';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { requireCurrent } from '../record/current';
import { currentRow, rowToMemory } from '../record/rows';
import { applyProposal, mergeRecords, type ProposalOutcome } from './apply';
import { closeItem, getItem } from './inbox';
import type { MemoryWrites } from './memoryWrites';
import { substanceDigest } from '../model/similarity';
import { isLiveStatus } from '../model/types';
import { INBOX_ACTIONS, type InboxAction, type InboxItem, type SeenRecord, type SessionProposal } from './types';

export interface ResolveResult {
  item: InboxItem;
  /** Keys whose records this resolution changed. */
  changed: string[];
  outcome: ProposalOutcome | null;
}

export function resolveInbox(
  ctx: EngineContext,
  memory: MemoryWrites,
  actor: Actor,
  rawId: unknown,
  rawAction: unknown,
  rawNote?: unknown,
): ResolveResult {
  const id = typeof rawId === 'string' && /^\d+$/.test(rawId) ? Number(rawId) : rawId;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    throw invalid(`an inbox item id is a whole number; got ${JSON.stringify(rawId)}`, 'see the ids with `lore inbox`');
  const action = requireEnum('action', rawAction, INBOX_ACTIONS);
  const note = rawNote === undefined || rawNote === null ? null : requireText('note', rawNote, LIMITS.reasonChars);
  return ctx.db.transaction(() => {
    const item = getItem(ctx.db, id);
    if (item.state !== 'open')
      throw new LoreError(
        'INVALID_STATE',
        `inbox item ${id} is already ${item.state} (${item.resolution?.action} by ${item.resolution?.by})`,
      );
    if (!item.actions.includes(action)) {
      throw invalid(
        `inbox item ${id} (${item.kind}) cannot be resolved with ${action}; valid actions: ${item.actions.join(', ')}`,
      );
    }
    if (action !== 'dismiss') requireUnchanged(ctx, item);
    const reason = note ?? `steward: ${item.summary}`.slice(0, LIMITS.reasonChars);
    const changed: string[] = [];
    let outcome: ProposalOutcome | null = null;
    switch (action) {
      case 'dismiss':
        break;
      case 'merge':
        if (item.kind === 'session') outcome = applySession(ctx, memory, actor, item, action);
        else {
          for (const duplicate of item.keys.slice(1)) {
            mergeRecords(ctx, memory, actor, item.keys[0], duplicate, reason);
            changed.push(duplicate);
          }
        }
        break;
      case 'supersede':
        if (item.kind === 'session') outcome = applySession(ctx, memory, actor, item, action);
        else {
          // A conflict lists its records oldest first: the newest holds, the others give way to it.
          const newest = item.keys[item.keys.length - 1];
          for (const old of item.keys.slice(0, -1)) {
            memory.supersede(ctx, actor, old, newest);
            changed.push(old);
          }
        }
        break;
      case 'deprecate':
      case 'dispute': {
        // A conflict puts every side in doubt; otherwise the first key is the record in question.
        const targets = item.kind === 'conflict' ? item.keys : [item.keys[0]];
        for (const key of targets) {
          const row = requireCurrent(ctx, key);
          const status = action === 'deprecate' ? 'deprecated' : 'disputed';
          if (row.status === status || !isLiveStatus(row.status)) continue;
          memory.setStatus(ctx, actor, key, status, reason);
          changed.push(key);
        }
        break;
      }
      case 'add':
      case 'promote':
        outcome = applySession(ctx, memory, actor, item, action);
        break;
    }
    if (outcome) changed.push(outcome.key);
    return { item: closeItem(ctx, actor, item, action, note, nowIso(ctx)), changed, outcome };
  });
}

function applySession(
  ctx: EngineContext,
  memory: MemoryWrites,
  actor: Actor,
  item: InboxItem,
  action: InboxAction,
): ProposalOutcome {
  if (!actor.human) {
    throw new LoreError(
      'HUMAN_ONLY',
      `applying a session proposal (${action} ${item.keys[0]}) is a person's act and was not confirmed by one`,
      `run \`lore inbox resolve ${item.id} --action ${action}\` yourself in a terminal, or dismiss it`,
    );
  }
  if (!item.proposal) throw new LoreError('INVALID_STATE', `inbox item ${item.id} carries no proposal to apply`);
  // "add" on a merge or supersede proposal keeps the candidate as a record of its own.
  const proposal =
    action === item.proposal.action ? item.proposal : { ...item.proposal, action: 'add' as const, target: null };
  requireAsSeen(ctx, item, proposal.action === 'add' ? [proposal.key] : item.keys);
  if (proposal.action === 'promote') requireAsProposed(ctx, item, proposal);
  return applyProposal(ctx, memory, actor, proposal);
}

const stalePlan = (item: InboxItem) =>
  `dismiss it (lore inbox resolve ${item.id} --action dismiss) and close the session again for a fresh plan`;

const describe = (record: SeenRecord | null) => (record ? `v${record.version}, ${record.status}` : 'absent');

/** The records a session proposal writes must be as they were when it was queued. */
function requireAsSeen(ctx: EngineContext, item: InboxItem, keys: string[]): void {
  const seen = item.evidence.seen as Record<string, SeenRecord | null> | undefined;
  if (!seen) return;
  for (const key of keys) {
    if (!(key in seen)) continue;
    const then = describe(seen[key]);
    const now = describe(currentRow(ctx.db, key) ?? null);
    if (now !== then) {
      throw new LoreError(
        'INVALID_STATE',
        `${key} changed since inbox item ${item.id} was queued (then ${then}; now ${now})`,
        stalePlan(item),
      );
    }
  }
}

/** A promote lets in the text a person reviewed in the Inbox, not whatever the record says by now. */
function requireAsProposed(ctx: EngineContext, item: InboxItem, proposal: SessionProposal): void {
  const row = requireCurrent(ctx, proposal.key);
  if (substanceDigest(rowToMemory(row)) !== substanceDigest(validateRemember(proposal.candidate))) {
    throw new LoreError(
      'INVALID_STATE',
      `${proposal.key} no longer says what inbox item ${item.id} proposes to promote (it was saved again since)`,
      `read it (lore get ${proposal.key}) and promote it with lore promote if it holds, or ${stalePlan(item)}`,
    );
  }
}

/** A finding names the versions it saw; if a record moved on since, the finding may no longer hold. */
function requireUnchanged(ctx: EngineContext, item: InboxItem): void {
  const versions = item.evidence.versions as Record<string, number> | undefined;
  if (!versions) return;
  for (const [key, version] of Object.entries(versions)) {
    const row = ctx.db.get<{ version: number; status: string }>(
      'SELECT version, status FROM memories WHERE key = ? AND is_current = 1',
      [key],
    );
    if (!row || row.version !== version || !isLiveStatus(row.status)) {
      throw new LoreError(
        'INVALID_STATE',
        `${key} changed since inbox item ${item.id} was found ` +
          `(${row ? `now v${row.version}, ${row.status}` : 'it is gone'})`,
        `dismiss it (lore inbox resolve ${item.id} --action dismiss) and run \`lore steward run\` for a fresh finding`,
      );
    }
  }
}
