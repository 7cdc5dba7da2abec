// The per-key lifecycle history (readable, with reasons) that `history` lists. The features write
// and read it through the memory store port (ctx.memories); the SQLite adapter's queries are here.

import type { Actor, SqlDatabase } from '../ports';
import { actorLabel } from './audit';
import type { EngineContext } from '../context';
import type { MemoryEvent } from './memoryStore';

export type { MemoryEvent, MemoryEventKind } from './memoryStore';

export function recordEvent(
  ctx: EngineContext,
  actor: Actor,
  event: Omit<MemoryEvent, 'actor' | 'reason' | 'related_key' | 'valid_at'> &
    Partial<Pick<MemoryEvent, 'reason' | 'related_key' | 'valid_at'>>,
): void {
  ctx.memories.recordEvent({
    key: event.key,
    version: event.version,
    event: event.event,
    reason: event.reason ?? null,
    related_key: event.related_key ?? null,
    valid_at: event.valid_at ?? null,
    at: event.at,
    actor: actorLabel(actor),
  });
}

export function eventsFor(ctx: EngineContext, key: string): MemoryEvent[] {
  return ctx.memories.events(key);
}

export function insertEvent(db: SqlDatabase, event: MemoryEvent): void {
  db.run(
    'INSERT INTO memory_events (key, version, event, reason, ' +
      'related_key, valid_at, at, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ' +
      '?)',
    [event.key, event.version, event.event, event.reason, event.related_key, event.valid_at, event.at, event.actor],
  );
}

export function eventsOfKey(db: SqlDatabase, key: string): MemoryEvent[] {
  return db.all<MemoryEvent>(
    'SELECT key, version, event, reason, related_key, valid_at, at, actor FROM memory_events WHERE key = ? ORDER BY id',
    [key],
  );
}

/** A forgotten key's history goes, and other keys' events stop naming it. */
export function deleteEventsOfKey(db: SqlDatabase, key: string): void {
  db.run('DELETE FROM memory_events WHERE key = ?', [key]);
  db.run('UPDATE memory_events SET related_key = NULL WHERE related_key = ?', [key]);
}
