// Lifecycle acts on a record: deprecate, dispute, retract (each with a reason), supersede (old →
// new, with the valid time of the change) and promote (quarantined → active, a person's act).

import { LoreError, invalid } from '../errors';
import { parseKey } from '../model/keys';
import { LIMITS } from '../model/limits';
import { isLiveStatus, LIVE_STATUSES, type Status } from '../model/types';
import { requireDate, requireText } from '../model/validate';
import type { Actor } from '../ports';
import type { MemoryRow } from '../record/rows';
import { digestOf } from '../model/digest';
import { nowIso, type EngineContext } from '../context';
import { recordEvent } from '../record/events';
import { markSuperseded } from './save';

export type StatusChange = 'deprecated' | 'disputed' | 'retracted';

export interface LifecycleResult {
  key: string;
  version: number;
  status: Status;
  previous_status: Status;
}

/** Where a lifecycle act leads: a status change, supersede (→ superseded) or promote (→ active). */
export type Transition = StatusChange | 'superseded' | 'active';

/** The one lifecycle table: the statuses each act may start from. The doors' pickers and menus ask canBecome. */
const CHANGEABLE_FROM: Record<Transition, readonly Status[]> = {
  deprecated: ['active', 'disputed'],
  disputed: ['active', 'deprecated'],
  retracted: [...LIVE_STATUSES, 'superseded', 'quarantined'],
  superseded: LIVE_STATUSES,
  active: ['quarantined'],
};

const STATUS_CHANGES: readonly StatusChange[] = ['deprecated', 'disputed', 'retracted'];

/** Whether a record that is `from` may become `to` (the engine refuses every other transition). */
export function canBecome(from: Status, to: Transition): boolean {
  return CHANGEABLE_FROM[to]?.includes(from) ?? false;
}

export function requireCurrent(ctx: EngineContext, key: string): MemoryRow {
  parseKey(key);
  const row = ctx.memories.current(key);
  if (!row)
    throw new LoreError('NOT_FOUND', `no memory with key ${key}`, 'check the key with `lore list` or `lore recall`');
  return row;
}

export function setStatus(
  ctx: EngineContext,
  actor: Actor,
  key: string,
  status: StatusChange,
  rawReason: unknown,
): LifecycleResult {
  if (!STATUS_CHANGES.includes(status)) throw invalid(`status must be one of ${STATUS_CHANGES.join(', ')}`);
  const reason = requireText('reason', rawReason, LIMITS.reasonChars);
  return ctx.memories.transaction(() => {
    const row = requireCurrent(ctx, key);
    const from = row.status as Status;
    if (!canBecome(from, status)) {
      throw new LoreError(
        'INVALID_STATE',
        `${key} is ${from}; it cannot become ${status}`,
        from === 'retracted' ? 'a retracted record stays retracted; save a new one' : undefined,
      );
    }
    const now = nowIso(ctx);
    const state = ctx.memories.writeState(row.id, { status, reason, now });
    recordEvent(ctx, actor, { key, version: row.version, event: status, reason, at: now });
    ctx.memories.appendAudit(actor, now, {
      event: `memory.${status === 'deprecated' ? 'deprecate' : status === 'disputed' ? 'dispute' : 'retract'}`,
      key,
      version: row.version,
      digests: { content: row.content_digest, state, reason: digestOf(reason) },
    });
    return { key, version: row.version, status, previous_status: from };
  });
}

export interface SupersedeResult {
  key: string;
  superseded_by: string;
  valid_from: string;
}

export function supersede(
  ctx: EngineContext,
  actor: Actor,
  oldKey: string,
  newKey: string,
  validFrom?: string | null,
): SupersedeResult {
  const validAt = validFrom === undefined || validFrom === null ? null : requireDate('valid_from', validFrom);
  if (oldKey === newKey) throw invalid('a record cannot supersede itself');
  return ctx.memories.transaction(() => {
    const old = requireCurrent(ctx, oldKey);
    const successor = requireCurrent(ctx, newKey);
    if (!canBecome(old.status as Status, 'superseded')) {
      throw new LoreError('INVALID_STATE', `${oldKey} is ${old.status}; only a live record can be superseded`);
    }
    if (!isLiveStatus(successor.status)) {
      throw new LoreError(
        'INVALID_STATE',
        `${newKey} is ${successor.status}; the successor must be a live record`,
        successor.status === 'quarantined' ? 'promote it first' : undefined,
      );
    }
    const now = nowIso(ctx);
    const at = validAt ?? now;
    if (at < old.valid_from) throw invalid(`valid_from ${at} is before ${oldKey} became valid (${old.valid_from})`);
    markSuperseded(ctx, actor, old, newKey, at, now);
    ctx.memories.setPredecessor(successor.id, oldKey, now);
    return { key: oldKey, superseded_by: newKey, valid_from: at };
  });
}

export function promote(ctx: EngineContext, actor: Actor, key: string): LifecycleResult {
  if (!actor.human) {
    throw new LoreError(
      'HUMAN_ONLY',
      "promote is a person's act and was not confirmed by one",
      'confirm it in the editor or run `lore promote KEY` in an interactive terminal',
    );
  }
  return ctx.memories.transaction(() => {
    const row = requireCurrent(ctx, key);
    if (!canBecome(row.status as Status, 'active'))
      throw new LoreError('INVALID_STATE', `${key} is ${row.status}, not quarantined; there is nothing to promote`);
    const now = nowIso(ctx);
    const state = ctx.memories.writeState(row.id, { status: 'active', reason: null, now });
    recordEvent(ctx, actor, { key, version: row.version, event: 'promoted', at: now });
    const digests = { content: row.content_digest, state };
    ctx.memories.appendAudit(actor, now, { event: 'memory.promote', key, version: row.version, digests });
    return { key, version: row.version, status: 'active', previous_status: 'quarantined' };
  });
}
