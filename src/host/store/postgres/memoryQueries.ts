// The memory store port's operations on PostgreSQL, one repository's rows at a time: the same
// names as the engine's SQLite queries (engine/record/rows.ts, events.ts, audit.ts), over the
// schema in migrations.ts. Saves, archives, lifecycle events and audit appends are records.ts's;
// what a version says (digests, signatures, seals) is the engine's, made before it reaches here.
// These run in the bridge's worker (memoryWorker.ts), on the transaction's connection when one is open.

import type { PoolClient } from 'pg';
import type { Actor } from '../../../engine';
import { LIVE_STATUSES_SQL } from '../../../engine/model/types';
import type { CurrentFilter, FactHolder } from '../../../engine/record/rows';
import type { MemoryEvent } from '../../../engine/record/memoryStore';
import type { ChainRow } from '../../../engine/record/chainRecords';
import { GENESIS_HASH, MEMORY_COLUMNS, type AuditEvent, type AuditEventInput, type MemoryRow } from './engineRecord';
import {
  appendAuditEvent,
  archiveCurrent,
  insertCurrentVersion,
  insertLifecycleEvent,
  lockKey,
  readAuditChain,
  readMemoryRows,
  type NewVersion,
} from './records';

const ROW = `id, ${MEMORY_COLUMNS.join(', ')}`;
const LIVE = LIVE_STATUSES_SQL;

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** What an operation runs with: its connection (a transaction's or a pooled one), repository, transaction or not. */
export interface QueryScope {
  client: PoolClient;
  repoId: number;
  inTransaction: boolean;
}

const query =
  (scope: QueryScope): Query =>
  async (sql, params = []) =>
    (await scope.client.query(sql, params)).rows as Array<Record<string, unknown>>;

/** A version's new status, reason and updated_at with the seal made over them, written in one statement. */
export interface SealedState {
  status: string;
  status_reason: string | null;
  updated_at: string;
  state_signature: string;
  state_signer: string;
}

/** An author as the shared store keeps it. */
export interface SharedAuthor {
  key_id: string;
  public_key: string;
  label: string | null;
  added_at: string;
  trusted: number;
}

export const memoryQueries = {
  /** In a transaction the key's row lock is taken (records.ts lockKey) and held to its end. */
  async current(scope: QueryScope, key: string): Promise<MemoryRow | undefined> {
    if (scope.inTransaction) return await lockKey(scope.client, scope.repoId, key);
    const rows = await query(scope)(`SELECT ${ROW} FROM memories WHERE repo_id = $1 AND key = $2 AND is_current = 1`, [
      scope.repoId,
      key,
    ]);
    return rows[0] as unknown as MemoryRow | undefined;
  },

  async version(scope: QueryScope, key: string, version: number): Promise<MemoryRow | undefined> {
    const rows = await query(scope)(`SELECT ${ROW} FROM memories WHERE repo_id = $1 AND key = $2 AND version = $3`, [
      scope.repoId,
      key,
      version,
    ]);
    return rows[0] as unknown as MemoryRow | undefined;
  },

  async byId(scope: QueryScope, id: number): Promise<MemoryRow | undefined> {
    const rows = await query(scope)(`SELECT ${ROW} FROM memories WHERE repo_id = $1 AND id = $2`, [scope.repoId, id]);
    return rows[0] as unknown as MemoryRow | undefined;
  },

  async versions(scope: QueryScope, key: string): Promise<MemoryRow[]> {
    return (await query(scope)(`SELECT ${ROW} FROM memories WHERE repo_id = $1 AND key = $2 ORDER BY version`, [
      scope.repoId,
      key,
    ])) as unknown as MemoryRow[];
  },

  async page(scope: QueryScope, filter: CurrentFilter): Promise<{ rows: MemoryRow[]; total: number }> {
    const where = ['repo_id = $1', 'is_current = 1'];
    const params: unknown[] = [scope.repoId];
    if (filter.types.length) {
      params.push([...filter.types]);
      where.push(`type = ANY($${params.length})`);
    }
    if (filter.statuses.length) {
      params.push([...filter.statuses]);
      where.push(`status = ANY($${params.length})`);
    } else where.push("status <> 'retracted'");
    const clause = where.join(' AND ');
    const q = query(scope);
    const total = Number((await q(`SELECT COUNT(*) AS n FROM memories WHERE ${clause}`, params))[0].n);
    // COLLATE "C": keys ordered by code point, as SQLite orders them.
    const rows = await q(
      `SELECT ${ROW} FROM memories WHERE ${clause} ORDER BY updated_at DESC, key COLLATE "C" ` +
        `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { rows: rows as unknown as MemoryRow[], total };
  },

  async liveRows(scope: QueryScope, keys: string[]): Promise<MemoryRow[]> {
    if (!keys.length) return [];
    return (await query(scope)(
      `SELECT ${ROW} FROM memories WHERE repo_id = $1 AND key = ANY($2) AND is_current = 1 AND status IN ${LIVE}`,
      [scope.repoId, keys],
    )) as unknown as MemoryRow[];
  },

  async liveByFactKey(scope: QueryScope, factKey: string, exceptKey: string): Promise<FactHolder[]> {
    return (await query(scope)(
      'SELECT id, key, version, content_digest FROM memories WHERE repo_id = $1 AND fact_key = $2 ' +
        `AND is_current = 1 AND key <> $3 AND status IN ${LIVE} ORDER BY id`,
      [scope.repoId, factKey, exceptKey],
    )) as unknown as FactHolder[];
  },

  async everyRow(scope: QueryScope): Promise<MemoryRow[]> {
    return await readMemoryRows(scope.client, scope.repoId);
  },

  async insertVersion(scope: QueryScope, row: NewVersion): Promise<number> {
    return await insertCurrentVersion(scope.client, scope.repoId, row);
  },

  async archive(scope: QueryScope, current: { id: number; key: string }, until: string, keep: number): Promise<void> {
    await archiveCurrent(scope.client, scope.repoId, current, until, keep);
  },

  async setSuccessor(scope: QueryScope, id: number, successor: string, validUntil: string): Promise<void> {
    await query(scope)('UPDATE memories SET superseded_by = $3, valid_until = $4 WHERE repo_id = $1 AND id = $2', [
      scope.repoId,
      id,
      successor,
      validUntil,
    ]);
  },

  async setPredecessor(scope: QueryScope, id: number, predecessor: string, updatedAt: string | null): Promise<void> {
    await query(scope)(
      'UPDATE memories SET supersedes = $3, updated_at = COALESCE($4, updated_at) WHERE repo_id = $1 AND id = $2',
      [scope.repoId, id, predecessor, updatedAt],
    );
  },

  /** The state and the seal the engine made over it, in one statement: a status is never written unsealed. */
  async writeSealedState(scope: QueryScope, id: number, state: SealedState): Promise<void> {
    await query(scope)(
      'UPDATE memories SET state_signature = $3, state_signer = $4, status = $5, status_reason = $6, ' +
        'updated_at = $7 WHERE repo_id = $1 AND id = $2',
      [
        scope.repoId,
        id,
        state.state_signature,
        state.state_signer,
        state.status,
        state.status_reason,
        state.updated_at,
      ],
    );
  },

  /** Every version (their vectors by cascade), the lock row and the history of a key; other rows stop naming it. */
  async removeKey(scope: QueryScope, key: string): Promise<Array<{ id: number; content_digest: string }>> {
    const q = query(scope);
    const args = [scope.repoId, key];
    const removed = await q(
      'SELECT id, content_digest FROM memories WHERE repo_id = $1 AND key = $2 ORDER BY version',
      args,
    );
    await q('DELETE FROM memories WHERE repo_id = $1 AND key = $2', args);
    await q('DELETE FROM memory_keys WHERE repo_id = $1 AND key = $2', args);
    await q('DELETE FROM memory_events WHERE repo_id = $1 AND key = $2', args);
    await q('UPDATE memory_events SET related_key = NULL WHERE repo_id = $1 AND related_key = $2', args);
    await q('UPDATE memories SET superseded_by = NULL WHERE repo_id = $1 AND superseded_by = $2', args);
    await q('UPDATE memories SET supersedes = NULL WHERE repo_id = $1 AND supersedes = $2', args);
    return removed as unknown as Array<{ id: number; content_digest: string }>;
  },

  async recordEvent(scope: QueryScope, event: MemoryEvent): Promise<void> {
    await insertLifecycleEvent(scope.client, scope.repoId, event);
  },

  async events(scope: QueryScope, key: string): Promise<MemoryEvent[]> {
    return (await query(scope)(
      'SELECT key, version, event, reason, related_key, valid_at, at, actor FROM memory_events ' +
        'WHERE repo_id = $1 AND key = $2 ORDER BY id',
      [scope.repoId, key],
    )) as unknown as MemoryEvent[];
  },

  /** The chain's lock is held to the end of the caller's transaction (the worker opens one if none is). */
  async appendAudit(scope: QueryScope, actor: Actor, at: string, input: AuditEventInput): Promise<AuditEvent> {
    return await appendAuditEvent(scope.client, scope.repoId, actor, at, input);
  },

  async auditHead(scope: QueryScope): Promise<{ seq: number; hash: string }> {
    const rows = await query(scope)('SELECT seq, hash FROM audit_events WHERE repo_id = $1 ORDER BY seq DESC LIMIT 1', [
      scope.repoId,
    ]);
    return (rows[0] as { seq: number; hash: string } | undefined) ?? { seq: 0, hash: GENESIS_HASH };
  },

  /** What the engine's verifier (record/audit.ts verifyChain) reads: chain, head, rows and the keys history names. */
  async chainSnapshot(
    scope: QueryScope,
  ): Promise<{ events: AuditEvent[]; head: string | undefined; rows: ChainRow[]; eventKeys: string[] }> {
    const { events, head } = await readAuditChain(scope.client, scope.repoId);
    const rows = (await query(scope)(
      'SELECT key, version, is_current, content_digest, status, provenance FROM memories WHERE repo_id = $1 ' +
        'ORDER BY key COLLATE "C", version',
      [scope.repoId],
    )) as unknown as ChainRow[];
    const keys = await query(scope)('SELECT DISTINCT key FROM memory_events WHERE repo_id = $1', [scope.repoId]);
    return { events, head, rows, eventKeys: keys.map((k) => k.key as string) };
  },

  /** An author's public key, shared with every machine on the repository; registering never lowers trust. */
  async registerAuthor(scope: QueryScope, author: SharedAuthor): Promise<void> {
    await query(scope)(
      'INSERT INTO authors (repo_id, key_id, public_key, label, added_at, trusted) VALUES ($1, $2, $3, $4, $5, $6) ' +
        'ON CONFLICT (repo_id, key_id) DO UPDATE SET trusted = GREATEST(authors.trusted, excluded.trusted), ' +
        'label = COALESCE(authors.label, excluded.label)',
      [scope.repoId, author.key_id, author.public_key, author.label, author.added_at, author.trusted],
    );
  },

  async authors(scope: QueryScope, keyIds: string[]): Promise<SharedAuthor[]> {
    if (!keyIds.length) return [];
    return (await query(scope)(
      'SELECT key_id, public_key, label, added_at, trusted FROM authors WHERE repo_id = $1 AND key_id = ANY($2)',
      [scope.repoId, keyIds],
    )) as unknown as SharedAuthor[];
  },

  async mark(scope: QueryScope): Promise<number> {
    const rows = await query(scope)('SELECT COALESCE(MAX(id), 0) AS n FROM memories WHERE repo_id = $1', [
      scope.repoId,
    ]);
    return Number(rows[0].n);
  },

  async keysWrittenSince(scope: QueryScope, mark: number): Promise<string[]> {
    const rows = await query(scope)('SELECT DISTINCT key FROM memories WHERE repo_id = $1 AND id > $2', [
      scope.repoId,
      mark,
    ]);
    return rows.map((r) => r.key as string);
  },

  async counts(
    scope: QueryScope,
  ): Promise<{ byStatus: Record<string, number>; archived: number; auditEvents: number }> {
    const q = query(scope);
    const byStatus = await q(
      'SELECT status, COUNT(*) AS n FROM memories WHERE repo_id = $1 AND is_current = 1 GROUP BY status ' +
        'ORDER BY status COLLATE "C"',
      [scope.repoId],
    );
    const archived = await q('SELECT COUNT(*) AS n FROM memories WHERE repo_id = $1 AND is_current = 0', [
      scope.repoId,
    ]);
    const audit = await q('SELECT COUNT(*) AS n FROM audit_events WHERE repo_id = $1', [scope.repoId]);
    return {
      byStatus: Object.fromEntries(byStatus.map((s) => [s.status as string, Number(s.n)])),
      archived: Number(archived[0].n),
      auditEvents: Number(audit[0].n),
    };
  },
};

export type MemoryQueries = typeof memoryQueries;
export type MemoryOp = keyof MemoryQueries;
