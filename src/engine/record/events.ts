// The per-key lifecycle history (readable, with reasons) that `history` lists.

import type { Actor } from '../ports';
import { actorLabel } from './audit';
import type { EngineContext } from '../context';

export type MemoryEventKind =
  | 'created'
  | 'updated'
  | 'deprecated'
  | 'disputed'
  | 'retracted'
  | 'superseded'
  | 'supersedes'
  | 'promoted'
  | 'quarantined'
  | 'merged'
  | 'imported'
  | 'canonicalized';

export interface MemoryEvent {
  key: string;
  version: number;
  event: MemoryEventKind;
  reason: string | null;
  related_key: string | null;
  valid_at: string | null;
  at: string;
  actor: string;
}

export function recordEvent(
  ctx: EngineContext,
  actor: Actor,
  event: Omit<MemoryEvent, 'actor' | 'reason' | 'related_key' | 'valid_at'> &
    Partial<Pick<MemoryEvent, 'reason' | 'related_key' | 'valid_at'>>,
): void {
  ctx.db.run(
    'INSERT INTO memory_events (key, version, event, reason, ' +
      'related_key, valid_at, at, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ' +
      '?)',
    [
      event.key,
      event.version,
      event.event,
      event.reason ?? null,
      event.related_key ?? null,
      event.valid_at ?? null,
      event.at,
      actorLabel(actor),
    ],
  );
}

export function eventsFor(ctx: EngineContext, key: string): MemoryEvent[] {
  return ctx.db.all<MemoryEvent>(
    'SELECT key, version, event, reason, related_key, valid_at, at, actor FROM memory_events WHERE key = ? ORDER BY id',
    [key],
  );
}
