// Row mapping and the queries over the memories table that more than one module needs.

import type { SqlDatabase } from '../ports';
import { LIVE_STATUSES_SQL, type Memory, type MemorySummary } from '../model/types';

export interface MemoryRow {
  id: number;
  key: string;
  version: number;
  is_current: number;
  type: string;
  title: string;
  description: string;
  body: string;
  links: string;
  anchors: string;
  tags: string;
  scope: string;
  status: string;
  status_reason: string | null;
  superseded_by: string | null;
  supersedes: string | null;
  basis: string;
  confidence: number | null;
  provenance: string;
  valid_from: string;
  valid_until: string | null;
  recorded_at: string;
  updated_at: string;
  review_after: string | null;
  fact_key: string | null;
  author: string | null;
  signature: string | null;
  content_digest: string;
  /** JSON of RecordOrigin for imported versions. */
  origin: string | null;
  /** This store's signature over the version's status and provenance (record/state.ts), and its key. */
  state_signature: string | null;
  state_signer: string | null;
}

/** A row's state signature, made as it is written (record/state.ts sealState). */
export interface RowSeal {
  state_signature: string;
  state_signer: string;
}

export const MEMORY_COLUMNS = [
  'key',
  'version',
  'is_current',
  'type',
  'title',
  'description',
  'body',
  'links',
  'anchors',
  'tags',
  'scope',
  'status',
  'status_reason',
  'superseded_by',
  'supersedes',
  'basis',
  'confidence',
  'provenance',
  'valid_from',
  'valid_until',
  'recorded_at',
  'updated_at',
  'review_after',
  'fact_key',
  'author',
  'signature',
  'content_digest',
  'origin',
  'state_signature',
  'state_signer',
] as const;

export function rowToMemory(row: MemoryRow): Memory {
  return {
    key: row.key,
    type: row.type as Memory['type'],
    title: row.title,
    description: row.description,
    body: row.body,
    links: JSON.parse(row.links),
    anchors: JSON.parse(row.anchors),
    tags: JSON.parse(row.tags),
    scope: row.scope as Memory['scope'],
    status: row.status as Memory['status'],
    status_reason: row.status_reason,
    superseded_by: row.superseded_by,
    supersedes: row.supersedes,
    basis: row.basis as Memory['basis'],
    confidence: row.confidence,
    provenance: JSON.parse(row.provenance),
    valid_from: row.valid_from,
    valid_until: row.valid_until,
    recorded_at: row.recorded_at,
    updated_at: row.updated_at,
    review_after: row.review_after,
    fact_key: row.fact_key,
    version: row.version,
    author: row.author,
    signature: row.signature,
    content_digest: row.content_digest,
    ...(row.origin ? { origin: JSON.parse(row.origin) } : {}),
  };
}

export function memoryToRow(memory: Memory, isCurrent: boolean, seal: RowSeal): Omit<MemoryRow, 'id'> {
  return {
    ...memory,
    ...seal,
    is_current: isCurrent ? 1 : 0,
    links: JSON.stringify(memory.links),
    anchors: JSON.stringify(memory.anchors),
    tags: JSON.stringify(memory.tags),
    provenance: JSON.stringify(memory.provenance),
    origin: memory.origin ? JSON.stringify(memory.origin) : null,
  };
}

export function insertMemoryRow(db: SqlDatabase, memory: Memory, isCurrent: boolean, seal: RowSeal): number {
  const row = memoryToRow(memory, isCurrent, seal);
  const values = MEMORY_COLUMNS.map((column) => row[column]);
  return db.run(
    `INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map(() => '?').join(', ')})`,
    values,
  ).lastInsertRowid;
}

export function currentRow(db: SqlDatabase, key: string): MemoryRow | undefined {
  return db.get<MemoryRow>('SELECT * FROM memories WHERE key = ? AND is_current = 1', [key]);
}

/** A live record's current version, as a fact-key query names it. */
export interface FactHolder {
  id: number;
  key: string;
  version: number;
  content_digest: string;
}

/** The live records (current versions) holding `factKey`, other than `exceptKey`, oldest row first. */
export function liveByFactKey(db: SqlDatabase, factKey: string, exceptKey: string): FactHolder[] {
  return db.all<FactHolder>(
    `SELECT id, key, version, content_digest FROM memories
     WHERE fact_key = ? AND is_current = 1 AND key <> ? AND status IN ${LIVE_STATUSES_SQL} ORDER BY id`,
    [factKey, exceptKey],
  );
}

/** Flags any reader should see on a record: lifecycle states and a review date that has passed. */
export function flagsFor(
  memory: Pick<Memory, 'status' | 'review_after' | 'valid_until' | 'origin'>,
  now: string,
): string[] {
  const flags: string[] = [];
  if (memory.status !== 'active') flags.push(memory.status);
  // Written in another store and signed there by its author (a bundle or a .lore/ record).
  if (memory.origin) flags.push('imported');
  if (memory.review_after && memory.review_after <= now) flags.push('stale');
  if (memory.valid_until && memory.valid_until <= now) flags.push('expired');
  return flags;
}

/** A record's summary; `opens`: whether it names something to open (drift's reading, engine.ts recordHooks). */
export function summarize(
  memory: Memory,
  now: string,
  opens: (memory: Pick<Memory, 'anchors' | 'links'>) => boolean,
): MemorySummary {
  return {
    key: memory.key,
    type: memory.type,
    title: memory.title,
    description: memory.description,
    status: memory.status,
    status_reason: memory.status_reason,
    superseded_by: memory.superseded_by,
    basis: memory.basis,
    confidence: memory.confidence,
    source: memory.provenance.source,
    version: memory.version,
    valid_from: memory.valid_from,
    valid_until: memory.valid_until,
    recorded_at: memory.recorded_at,
    updated_at: memory.updated_at,
    review_after: memory.review_after,
    flags: flagsFor(memory, now),
    anchored: opens(memory),
  };
}

// Named queries over the memories table, for the SQLite side of the memory store port
// (record/memoryStore.ts); the PostgreSQL adapter answers the same names over its own schema.

export function rowByVersion(db: SqlDatabase, key: string, version: number): MemoryRow | undefined {
  return db.get<MemoryRow>('SELECT * FROM memories WHERE key = ? AND version = ?', [key, version]);
}

export function rowById(db: SqlDatabase, id: number): MemoryRow | undefined {
  return db.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', [id]);
}

/** Every kept version of a key, oldest first. */
export function rowsOfKey(db: SqlDatabase, key: string): MemoryRow[] {
  return db.all<MemoryRow>('SELECT * FROM memories WHERE key = ? ORDER BY version', [key]);
}

/** Which current records a list shows: by type and status (none given: every status but retracted). */
export interface CurrentFilter {
  types: readonly string[];
  statuses: readonly string[];
  offset: number;
  limit: number;
}

/** A page of current rows, newest change first, and how many match in all. */
export function pageOfCurrent(db: SqlDatabase, filter: CurrentFilter): { rows: MemoryRow[]; total: number } {
  const where = ['is_current = 1'];
  const params: string[] = [];
  if (filter.types.length) {
    where.push(`type IN (${filter.types.map(() => '?').join(', ')})`);
    params.push(...filter.types);
  }
  if (filter.statuses.length) {
    where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
    params.push(...filter.statuses);
  } else {
    where.push("status <> 'retracted'");
  }
  const clause = where.join(' AND ');
  const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memories WHERE ${clause}`, params)?.n ?? 0;
  const rows = db.all<MemoryRow>(
    `SELECT * FROM memories WHERE ${clause} ORDER BY updated_at DESC, key LIMIT ? OFFSET ?`,
    [...params, filter.limit, filter.offset],
  );
  return { rows, total };
}

/** The current, live rows of `keys`. */
export function liveRowsOf(db: SqlDatabase, keys: readonly string[]): MemoryRow[] {
  if (!keys.length) return [];
  const marks = keys.map(() => '?').join(', ');
  return db.all<MemoryRow>(
    `SELECT * FROM memories WHERE key IN (${marks}) AND is_current = 1 AND status IN ${LIVE_STATUSES_SQL}`,
    [...keys],
  );
}

/** Archives a key's current version, its valid interval ending at `until` (if not already), and prunes the archive. */
export function archiveRow(db: SqlDatabase, current: { id: number; key: string }, until: string, keep: number): void {
  db.run(
    'UPDATE memories SET is_current = 0, valid_until = CASE WHEN ' +
      'valid_until IS NULL OR valid_until > ? THEN ? ELSE valid_until ' +
      'END WHERE id = ?',
    [until, until, current.id],
  );
  // The newest `keep` archived versions are kept; older ones are deleted.
  db.run(
    `DELETE FROM memories WHERE key = ? AND is_current = 0 AND id NOT IN (
       SELECT id FROM memories WHERE key = ? AND is_current = 0 ORDER BY version DESC LIMIT ?)`,
    [current.key, current.key, keep],
  );
}

/** A version's successor (superseded_by) and the end of its valid interval. */
export function setSuccessor(db: SqlDatabase, id: number, successor: string, validUntil: string): void {
  db.run('UPDATE memories SET superseded_by = ?, valid_until = ? WHERE id = ?', [successor, validUntil, id]);
}

/** A version's predecessor (supersedes), and its updated_at when given. */
export function setPredecessor(db: SqlDatabase, id: number, predecessor: string, updatedAt?: string): void {
  if (updatedAt === undefined) db.run('UPDATE memories SET supersedes = ? WHERE id = ?', [predecessor, id]);
  else db.run('UPDATE memories SET supersedes = ?, updated_at = ? WHERE id = ?', [predecessor, updatedAt, id]);
}

/** Deletes every version of a key and every other row's pointer to it; returns what was deleted, oldest first. */
export function deleteKeyRows(db: SqlDatabase, key: string): Array<{ id: number; content_digest: string }> {
  const versions = db.all<{ id: number; content_digest: string }>(
    'SELECT id, content_digest FROM memories WHERE key = ? ORDER BY version',
    [key],
  );
  db.run('DELETE FROM memories WHERE key = ?', [key]);
  db.run('UPDATE memories SET superseded_by = NULL WHERE superseded_by = ?', [key]);
  db.run('UPDATE memories SET supersedes = NULL WHERE supersedes = ?', [key]);
  return versions;
}

/** The newest row's id: every write after it adds rows above it. */
export function newestRowId(db: SqlDatabase): number {
  return db.get<{ n: number }>('SELECT COALESCE(MAX(id), 0) AS n FROM memories')?.n ?? 0;
}

/** The keys with a row written after `mark`. */
export function keysWrittenAfter(db: SqlDatabase, mark: number): string[] {
  return db.all<{ key: string }>('SELECT DISTINCT key FROM memories WHERE id > ?', [mark]).map((r) => r.key);
}

/** Every row, current and archived, by key and version. */
export function everyRow(db: SqlDatabase): MemoryRow[] {
  return db.all<MemoryRow>('SELECT * FROM memories ORDER BY key, version');
}

/** Current records by status, and how many archived versions are kept. */
export function rowCounts(db: SqlDatabase): { byStatus: Record<string, number>; archived: number } {
  const byStatus = db.all<{ status: string; n: number }>(
    'SELECT status, COUNT(*) AS n FROM memories WHERE is_current = 1 GROUP BY status',
  );
  return {
    byStatus: Object.fromEntries(byStatus.map((s) => [s.status, s.n])),
    archived: db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE is_current = 0')?.n ?? 0,
  };
}
