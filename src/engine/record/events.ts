// The per-key lifecycle history (readable, with reasons) that `history` lists. The features write
// and read it through the memory store port (ctx.memories); the SQLite adapter's queries are here.
// Each event is sealed as written (seal.ts: who acted, when, why, on what), so an edited actor or
// reason is reported by `lore doctor` and `lore audit verify`.

import type { Actor, SqlDatabase } from '../ports';
import { actorLabel } from './audit';
import type { EngineContext } from '../context';
import type { MemoryEvent } from './memoryStore';
import type { Signer } from './signatures';
import { checkSeal, makeSeal, type SealIdentity, type SealVerdict } from './seal';

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

/** A history row as stored, with its seal. */
export interface EventRow extends MemoryEvent {
  id: number;
  sealed: string | null;
  seal_signature: string | null;
  seal_signer: string | null;
}

const EVENT_FIELDS = ['key', 'version', 'event', 'reason', 'related_key', 'valid_at', 'at', 'actor'] as const;

function eventIdentity(storeId: string, id: number): SealIdentity {
  return { table: 'memory_events', store_id: storeId, id };
}

function eventFields(event: MemoryEvent): Record<string, unknown> {
  return Object.fromEntries(EVENT_FIELDS.map((field) => [field, event[field] ?? null]));
}

function writeEventSeal(db: SqlDatabase, signer: Signer, storeId: string, id: number, event: MemoryEvent): void {
  const seal = makeSeal(signer, eventIdentity(storeId, id), eventFields(event));
  db.run('UPDATE memory_events SET sealed = ?, seal_signature = ?, seal_signer = ? WHERE id = ?', [
    seal.sealed,
    seal.signature,
    seal.signer,
    id,
  ]);
}

export function insertEvent(db: SqlDatabase, signer: Signer, storeId: string, event: MemoryEvent): void {
  const { lastInsertRowid: id } = db.run(
    'INSERT INTO memory_events (key, version, event, reason, ' +
      'related_key, valid_at, at, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ' +
      '?)',
    [event.key, event.version, event.event, event.reason, event.related_key, event.valid_at, event.at, event.actor],
  );
  writeEventSeal(db, signer, storeId, id, event);
}

export function everyEventRow(db: SqlDatabase): EventRow[] {
  return db.all<EventRow>('SELECT * FROM memory_events ORDER BY id');
}

/** A history row against its seal; `verify` checks a signature with the signer's known key. */
export function eventVerdict(
  storeId: string,
  row: EventRow,
  verify: (signer: string, payload: string, signature: string) => boolean,
): SealVerdict {
  const seal = {
    sealed: row.sealed ?? undefined,
    signature: row.seal_signature ?? undefined,
    signer: row.seal_signer ?? undefined,
  };
  return checkSeal(seal, eventIdentity(storeId, row.id), eventFields(row), verify);
}

/** Writes sealed values back into a history row (a person's repair, record/repair.ts). */
export function restoreEventFields(db: SqlDatabase, id: number, sealed: string): void {
  const kept = JSON.parse(sealed) as Record<string, string | number | null>;
  db.run(`UPDATE memory_events SET ${EVENT_FIELDS.map((f) => `${f} = ?`).join(', ')} WHERE id = ?`, [
    ...EVENT_FIELDS.map((f) => kept[f] ?? null),
    id,
  ]);
}

/** Seals every history row as it stands (migration 15), once. */
export function sealEveryEvent(db: SqlDatabase, signer: Signer, storeId: string): number {
  const rows = everyEventRow(db);
  for (const row of rows) writeEventSeal(db, signer, storeId, row.id, row);
  return rows.length;
}

export function eventsOfKey(db: SqlDatabase, key: string): MemoryEvent[] {
  return db.all<MemoryEvent>(
    'SELECT key, version, event, reason, related_key, valid_at, at, actor FROM memory_events WHERE key = ? ORDER BY id',
    [key],
  );
}

/**
 * A forgotten key's history goes, and other keys' events stop naming it: those are sealed again
 * when their seal held (`holds`); one that did not stays as found, reported.
 */
export function deleteEventsOfKey(
  db: SqlDatabase,
  key: string,
  signer: Signer,
  storeId: string,
  holds: (row: EventRow) => boolean,
): void {
  db.run('DELETE FROM memory_events WHERE key = ?', [key]);
  const naming = db.all<EventRow>('SELECT * FROM memory_events WHERE related_key = ?', [key]).filter(holds);
  db.run('UPDATE memory_events SET related_key = NULL WHERE related_key = ?', [key]);
  for (const row of naming) writeEventSeal(db, signer, storeId, row.id, { ...row, related_key: null });
}
