// Reading records: get (whole record, any kept version), list (pages of summaries) and history
// (every version, supersession and tombstone of a key, in order).

import { LoreError } from '../errors';
import { parseKey } from '../model/keys';
import { LIMITS } from '../model/limits';
import { MEMORY_TYPES, STATUSES, type Memory, type MemorySummary, type MemoryType, type Status } from '../model/types';
import { optionalInteger, requireEnum } from '../model/validate';
import { flagsFor, rowToMemory, summarize } from '../record/rows';
import { nowIso, type EngineContext } from '../context';
import { eventsFor, type MemoryEvent } from '../record/events';
import type { Refusal } from '../record/integrity';

export interface GetResult {
  memory: Memory;
  flags: string[];
  archived: boolean;
}

export function get(ctx: EngineContext, key: string, version?: number | null): GetResult {
  parseKey(key);
  const wanted = optionalInteger('version', version, 1, Number.MAX_SAFE_INTEGER);
  const row = wanted === null ? ctx.memories.current(key) : ctx.memories.version(key, wanted);
  if (!row) {
    const exists = wanted !== null ? ctx.memories.current(key) : undefined;
    if (exists && wanted !== null) {
      throw new LoreError(
        'NOT_FOUND',
        `${key} has no kept version ${wanted}`,
        `see \`lore history ${key}\` for the versions kept (the newest ${LIMITS.archivedVersions} archived ones)`,
      );
    }
    throw new LoreError('NOT_FOUND', `no memory with key ${key}`, 'check the key with `lore list` or `lore recall`');
  }
  const verdict = ctx.integrity.check(row);
  if (!verdict.ok) {
    throw new LoreError(
      'INTEGRITY',
      `${key} v${row.version} is refused: ${verdict.reason}`,
      'it was altered outside Lore; forget it, or restore it from an export',
      { key, version: row.version, reason: verdict.reason },
    );
  }
  const memory = rowToMemory(row);
  const flags = flagsFor(memory, nowIso(ctx));
  if (verdict.unattributed) flags.push('unattributed');
  return { memory, flags, archived: row.is_current === 0 };
}

export interface ListInput {
  types?: string[];
  statuses?: string[];
  offset?: number;
  limit?: number;
}

export interface ListResult {
  items: MemorySummary[];
  /** Records that failed verification: named, never returned as memory. */
  refused: Refusal[];
  total: number;
  offset: number;
  limit: number;
  next_offset: number | null;
}

export function list(ctx: EngineContext, input: ListInput = {}): ListResult {
  const types = (input.types ?? []).map((t) => requireEnum('type', t, MEMORY_TYPES)) as MemoryType[];
  const statuses = (input.statuses ?? []).map((s) => requireEnum('status', s, STATUSES)) as Status[];
  const offset = optionalInteger('offset', input.offset, 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = optionalInteger('limit', input.limit, 1, LIMITS.listMax) ?? LIMITS.listDefault;

  const { rows, total } = ctx.memories.page({ types, statuses, offset, limit });
  const now = nowIso(ctx);
  const { accepted, refused } = ctx.integrity.partition(rows);
  return {
    items: accepted.map((row) => summarize(rowToMemory(row), now, ctx.hooks.opens)),
    refused,
    total,
    offset,
    limit,
    next_offset: offset + rows.length < total ? offset + rows.length : null,
  };
}

/**
 * The current, live summaries of `keys` (what the editor shows where they are anchored): one
 * indexed read per key list; a refused or retired record is left out.
 */
export function liveSummaries(ctx: EngineContext, keys: readonly string[]): MemorySummary[] {
  if (!keys.length) return [];
  const rows = ctx.memories.liveRows(keys);
  const now = nowIso(ctx);
  return ctx.integrity.partition(rows).accepted.map((row) => summarize(rowToMemory(row), now, ctx.hooks.opens));
}

export interface HistoryVersion {
  version: number;
  current: boolean;
  title: string;
  description: string;
  status: Status;
  valid_from: string;
  valid_until: string | null;
  recorded_at: string;
  content_digest: string;
}

export interface HistoryResult {
  key: string;
  versions: HistoryVersion[];
  events: MemoryEvent[];
}

export function history(ctx: EngineContext, key: string): HistoryResult {
  parseKey(key);
  const rows = ctx.memories.versions(key);
  const events = eventsFor(ctx, key);
  if (!rows.length && !events.length)
    throw new LoreError(
      'NOT_FOUND',
      `no memory with key ${key}`,
      'forgotten records leave no history; check the key with `lore list`',
    );
  return {
    key,
    versions: rows.map((row) => ({
      version: row.version,
      current: row.is_current === 1,
      title: row.title,
      description: row.description,
      status: row.status as Status,
      valid_from: row.valid_from,
      valid_until: row.valid_until,
      recorded_at: row.recorded_at,
      content_digest: row.content_digest,
    })),
    events,
  };
}
