// A key's current row, as every feature that changes a record reaches it: required (a clear
// NOT_FOUND naming the key otherwise) and archived when a new version replaces it. In the record
// layer so the memory, steward and team features share it without importing each other.

import { LoreError } from '../errors';
import { parseKey } from '../model/keys';
import { LIMITS } from '../model/limits';
import type { EngineContext } from '../context';
import type { MemoryRow } from './rows';

export function requireCurrent(ctx: EngineContext, key: string): MemoryRow {
  parseKey(key);
  const row = ctx.memories.current(key);
  if (!row)
    throw new LoreError('NOT_FOUND', `no memory with key ${key}`, 'check the key with `lore list` or `lore recall`');
  return row;
}

/** Archives a key's current version, its valid interval ending at `until` (if not already), and prunes the archive. */
export function archiveCurrent(ctx: EngineContext, current: { id: number; key: string }, until: string): void {
  ctx.memories.archive(current, until, LIMITS.archivedVersions);
}
