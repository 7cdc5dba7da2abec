// The record-level guarantees on PostgreSQL, where many writers on many machines share a store:
//
// - A save of a key runs in a transaction holding that key's row lock (memory_keys, SELECT … FOR
//   UPDATE), so its expected_version is compared with the version no other writer can change
//   before it commits; a writer that lost the race is refused with the winner.
// - An audit append holds the repository's advisory transaction lock, so appends are serialised
//   and the chain never forks (audit_events' unique prev_hash would refuse a fork anyway).
// - A save may carry a write id chosen by the client: retrying it after a lost connection (the
//   server restarted before the acknowledgement arrived) finds the version it already wrote
//   instead of writing it twice or reporting a conflict with itself.
//
// Locks are always taken in the order key → audit chain, so two saves never deadlock. What a
// version says (its content digest, signatures) is the engine's to decide: `build` makes the row.

import type { PoolClient } from 'pg';
import type { Actor } from '../../../engine';
import {
  MEMORY_COLUMNS,
  actorLabel,
  nextAuditEvent,
  type AuditEvent,
  type AuditEventInput,
  type MemoryRow,
} from './engineRecord';
import { AUDIT_LOCK_CLASS } from './locks';

/** Archived versions kept per key (the engine's LIMITS.archivedVersions). */
export const ARCHIVED_VERSIONS = 5;

/** A row as the caller builds it: every memories column but the bookkeeping ones. */
export type NewVersion = Omit<MemoryRow, 'id' | 'is_current'>;

export interface SaveVersionInput {
  key: string;
  /** The version the writer read and means to replace (0: the key must not exist); null: no check. */
  expectedVersion: number | null;
  /** A client-chosen id of this write, the same on every retry of it. */
  writeId?: string;
  actor: Actor;
  at: string;
  /** Makes the new version from the current one (read under the key's lock). */
  build(current: MemoryRow | undefined): {
    row: NewVersion;
    audit: AuditEventInput;
    /** The lifecycle event (memory_events.event): created, updated, … */
    event: string;
  };
}

export type SaveVersionResult =
  | { saved: true; key: string; version: number; id: number; audit: AuditEvent; replayed: false }
  | { saved: true; key: string; version: number; id: number; replayed: true }
  | {
      saved: false;
      key: string;
      conflict: {
        reason: string;
        expected_version: number;
        current_version: number | null;
        /** The winner: the version another writer saved first. */
        current: MemoryRow | null;
      };
    };

/** Runs `work` in a transaction (READ COMMITTED; the locks give the ordering), rolled back on throw. */
export async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** Locks a key's row for the rest of the transaction (made on the key's first save) and returns its current version. */
export async function lockKey(client: PoolClient, repoId: number, key: string): Promise<MemoryRow | undefined> {
  // A concurrent forget may delete the lock row between the insert and the lock: try again.
  for (;;) {
    await client.query('INSERT INTO memory_keys (repo_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [repoId, key]);
    const locked = await client.query('SELECT 1 FROM memory_keys WHERE repo_id = $1 AND key = $2 FOR UPDATE', [
      repoId,
      key,
    ]);
    if (locked.rowCount === 1) break;
  }
  // A statement of its own: its snapshot is taken after the lock was granted, so it sees the
  // version the previous holder committed (a join in the locking statement would not).
  const current = await client.query(
    `SELECT id, ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE repo_id = $1 AND key = $2 AND is_current = 1`,
    [repoId, key],
  );
  return current.rows[0] as MemoryRow | undefined;
}

/** Appends an event to the repository's chain; the caller's transaction holds the chain until it commits. */
export async function appendAuditEvent(
  client: PoolClient,
  repoId: number,
  actor: Actor,
  at: string,
  input: AuditEventInput,
): Promise<AuditEvent> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [AUDIT_LOCK_CLASS, repoId]);
  // Read after the lock, in a statement of its own, for the same reason as lockKey's read.
  const last = await client.query('SELECT seq, hash FROM audit_events WHERE repo_id = $1 ORDER BY seq DESC LIMIT 1', [
    repoId,
  ]);
  const head = last.rows[0] as { seq: number; hash: string } | undefined;
  const event = nextAuditEvent(head, actor, at, input);
  // The event and the head (kept apart from the rows, as in SQLite, so deleting the newest events
  // is noticed) in one statement: the chain's lock is held for as few round trips as possible.
  await client.query(
    'WITH appended AS (INSERT INTO audit_events (repo_id, seq, at, event, key_digest, version, actor, digests, ' +
      'prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq, hash) ' +
      "INSERT INTO meta (repo_id, name, value) SELECT $1, 'audit_head', seq || ':' || hash FROM appended " +
      'ON CONFLICT (repo_id, name) DO UPDATE SET value = excluded.value',
    [
      repoId,
      event.seq,
      event.at,
      event.event,
      event.key_digest,
      event.version,
      event.actor,
      event.digests,
      event.prev_hash,
      event.hash,
    ],
  );
  return event;
}

/** Archives a key's current version, its valid interval ending at `until`; the newest `keep` archived are kept. */
export async function archiveCurrent(
  client: PoolClient,
  repoId: number,
  current: Pick<MemoryRow, 'id' | 'key'>,
  until: string,
  keep = ARCHIVED_VERSIONS,
): Promise<void> {
  await client.query(
    'UPDATE memories SET is_current = 0, valid_until = CASE WHEN valid_until IS NULL OR valid_until > $1 ' +
      'THEN $1 ELSE valid_until END WHERE id = $2',
    [until, current.id],
  );
  await client.query(
    'DELETE FROM memories WHERE id IN (SELECT id FROM memories WHERE repo_id = $1 AND key = $2 AND is_current = 0 ' +
      'ORDER BY version DESC OFFSET $3)',
    [repoId, current.key, keep],
  );
}

/** Inserts a key's new current version (its lock row made if absent); returns its row id. */
export async function insertCurrentVersion(
  client: PoolClient,
  repoId: number,
  row: NewVersion,
  writeId: string | null = null,
): Promise<number> {
  await client.query('INSERT INTO memory_keys (repo_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    repoId,
    row.key,
  ]);
  const columns = MEMORY_COLUMNS.filter((c) => c !== 'is_current');
  const values = columns.map((c) => row[c as keyof NewVersion] ?? null);
  const inserted = await client.query(
    `INSERT INTO memories (repo_id, is_current, write_id, ${columns.join(', ')}) ` +
      `VALUES ($1, 1, $2, ${columns.map((_, i) => `$${i + 3}`).join(', ')}) RETURNING id`,
    [repoId, writeId, ...values],
  );
  return (inserted.rows[0] as { id: number }).id;
}

/** A lifecycle event, as memory_events holds it. */
export interface LifecycleEventRow {
  key: string;
  version: number;
  event: string;
  reason: string | null;
  related_key: string | null;
  valid_at: string | null;
  at: string;
  actor: string;
}

export async function insertLifecycleEvent(
  client: PoolClient,
  repoId: number,
  event: LifecycleEventRow,
): Promise<void> {
  await client.query(
    'INSERT INTO memory_events (repo_id, key, version, event, reason, related_key, valid_at, at, actor) ' +
      'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [
      repoId,
      event.key,
      event.version,
      event.event,
      event.reason,
      event.related_key,
      event.valid_at,
      event.at,
      event.actor,
    ],
  );
}

/**
 * Saves a new version of a key: under its row lock, refused with the winner when the expected
 * version is not the current one; the previous version archived; a lifecycle event and an audit
 * event appended, all in one transaction.
 */
export async function saveVersion(
  client: PoolClient,
  repoId: number,
  input: SaveVersionInput,
): Promise<SaveVersionResult> {
  return await inTransaction(client, async () => {
    const current = await lockKey(client, repoId, input.key);
    if (input.writeId) {
      const done = await client.query('SELECT id, version FROM memories WHERE repo_id = $1 AND write_id = $2', [
        repoId,
        input.writeId,
      ]);
      const row = done.rows[0] as { id: number; version: number } | undefined;
      if (row)
        return { saved: true as const, key: input.key, version: row.version, id: row.id, replayed: true as const };
    }
    const currentVersion = current?.version ?? 0;
    if (input.expectedVersion !== null && input.expectedVersion !== currentVersion) {
      return {
        saved: false as const,
        key: input.key,
        conflict: {
          reason: current
            ? `${input.key} is at version ${current.version}, not ${input.expectedVersion}: someone saved it first`
            : `${input.key} does not exist, so it is not at version ${input.expectedVersion}`,
          expected_version: input.expectedVersion,
          current_version: current?.version ?? null,
          current: current ?? null,
        },
      };
    }
    const { row, audit, event } = input.build(current);
    if (row.key !== input.key || row.version !== currentVersion + 1)
      throw new Error(`build made ${row.key} v${row.version}; the save is of ${input.key} v${currentVersion + 1}`);
    if (current) await archiveCurrent(client, repoId, current, row.valid_from);
    const id = await insertCurrentVersion(client, repoId, row, input.writeId ?? null);
    await insertLifecycleEvent(client, repoId, {
      key: row.key,
      version: row.version,
      event,
      reason: null,
      related_key: null,
      valid_at: row.valid_from,
      at: input.at,
      actor: actorLabel(input.actor),
    });
    const appended = await appendAuditEvent(client, repoId, input.actor, input.at, audit);
    return { saved: true as const, key: row.key, version: row.version, id, audit: appended, replayed: false as const };
  });
}

/** A repository's chain in order, and its recorded head (for the engine's verifier). */
export async function readAuditChain(
  client: PoolClient,
  repoId: number,
): Promise<{ events: AuditEvent[]; head: string | undefined }> {
  const events = await client.query(
    'SELECT seq, at, event, key_digest, version, actor, digests, prev_hash, hash FROM audit_events ' +
      'WHERE repo_id = $1 ORDER BY seq',
    [repoId],
  );
  const head = await client.query("SELECT value FROM meta WHERE repo_id = $1 AND name = 'audit_head'", [repoId]);
  return { events: events.rows as AuditEvent[], head: (head.rows[0] as { value: string } | undefined)?.value };
}

/** Every memory row of a repository (current and archived), as the engine's verifier reads them. */
export async function readMemoryRows(client: PoolClient, repoId: number): Promise<MemoryRow[]> {
  const rows = await client.query(
    `SELECT id, ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE repo_id = $1 ORDER BY key, version`,
    [repoId],
  );
  return rows.rows as MemoryRow[];
}
