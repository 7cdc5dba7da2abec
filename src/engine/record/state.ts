// The signed state of a memory version: everything about it that is not its content but changes
// what recall shows — its status and reason, provenance, successor and predecessor, the end of its
// valid interval, whether it is the current version, its times and import origin. The author's
// signature covers the content only (it travels with bundles, and a record's lifecycle changes
// long after its author signed it), so this store's machine seals the state beside it (seal.ts: a
// signed copy, over the store id, key, version and content digest too), and seals again on every
// lifecycle write. A row whose state was edited in the file no longer matches its seal and is
// refused, naming the field; the audit chain records each status's digest, so `lore audit verify`
// can compare rows with it too.

import { LoreError } from '../errors';
import type { Status } from '../model/types';
import type { SqlDatabase } from '../ports';
import { rowById, rowsPointingAt, type MemoryRow, type RowSeal } from './rows';
import { insertAuthorRow, registerAuthor } from './integrity';
import type { Signer } from './signatures';
import type { EngineContext } from '../context';
import { makeSeal } from './seal';

export {
  SEALED_STATE_FIELDS,
  legacyStatePayload,
  rowState,
  sealedState,
  stateDigest,
  stateIdentity,
  type StateFields,
  type StateInput,
} from './stateFields';
import { legacyStatePayload, rowState, sealedState, stateDigest, stateIdentity, type StateInput } from './stateFields';

export function sealState(signer: Signer, storeId: string, fields: StateInput): RowSeal {
  const seal = makeSeal(signer, stateIdentity(storeId, fields), sealedState(fields));
  return { state_signature: seal.signature, state_signer: seal.signer, state_sealed: seal.sealed };
}

/** Seals a row's state as it now stands (its signer registered, so the seal can be checked). */
export function resealRow(db: SqlDatabase, signer: Signer, storeId: string, row: MemoryRow): string {
  const fields = rowState(row);
  const seal = sealState(signer, storeId, fields);
  db.run('UPDATE memories SET state_signature = ?, state_signer = ?, state_sealed = ? WHERE id = ?', [
    seal.state_signature,
    seal.state_signer,
    seal.state_sealed,
    row.id,
  ]);
  return stateDigest(fields);
}

/**
 * Refuses to seal a row whose state does not hold: signing it would make an edit made outside Lore
 * look like Lore's own (an agent's set_status after a tampered status left doctor clean). A row
 * written by an older Lore (status and provenance signed, the rest not yet) may be sealed.
 */
export function refuseUnsealed(ctx: Pick<EngineContext, 'integrity'>, row: MemoryRow): void {
  const verdict = ctx.integrity.check(row);
  if (verdict.ok || verdict.legacy) return;
  throw new LoreError(
    'INTEGRITY',
    `${row.key} v${row.version} was changed outside Lore (${verdict.reason}); Lore will not sign it again`,
    'run `lore doctor` to see what changed, and `lore doctor --repair` to restore what Lore sealed',
    { key: row.key, version: row.version },
  );
}

/**
 * The one way a written row's lifecycle changes in the SQLite store: the row must hold its seal,
 * `write` changes it, and the row is sealed as it then stands. Returns the state's digest, for the
 * audit event that records the change (null when `write` removed the row).
 */
export function sealedWrite(ctx: EngineContext, id: number, write: () => void): string | null {
  const before = rowById(ctx.db, id);
  if (before) refuseUnsealed(ctx, before);
  write();
  const row = rowById(ctx.db, id);
  if (!row) return null;
  registerAuthor(ctx, ctx.signer, 'this machine');
  return resealRow(ctx.db, ctx.signer, ctx.storeId, row);
}

/**
 * Forgetting a key clears other rows' pointers to it (their successor or predecessor): the rows
 * that held their seal are sealed again after `remove`; one that did not stays as found, reported.
 */
export function removeSealed<T>(ctx: EngineContext, key: string, remove: () => T): T {
  const pointing = rowsPointingAt(ctx.db, key).filter((row) => {
    const verdict = ctx.integrity.check(row);
    return verdict.ok || verdict.legacy;
  });
  const removed = remove();
  if (pointing.length) registerAuthor(ctx, ctx.signer, 'this machine');
  for (const { id } of pointing) {
    const row = rowById(ctx.db, id);
    if (row) resealRow(ctx.db, ctx.signer, ctx.storeId, row);
  }
  return removed;
}

/** What a state write sets; a field left undefined keeps the row's value. */
export interface StateWrite {
  status?: Status;
  /** The status reason. */
  reason?: string | null;
  /** updated_at. */
  now?: string;
}

/**
 * A written row's status change: the status (and its reason, when given) is set and the new state
 * sealed with it. Without a status the row keeps its own and is sealed as it is. Returns the
 * state's digest, for the audit event that records the change.
 */
export function writeStatus(ctx: EngineContext, id: number, change: StateWrite): string {
  const sets: string[] = [];
  const params: (string | number | null)[] = [];
  const columns = [
    ['status', change.status],
    ['status_reason', change.reason],
    ['updated_at', change.now],
  ] as const;
  for (const [column, value] of columns) {
    if (value === undefined) continue;
    sets.push(`${column} = ?`);
    params.push(value);
  }
  const digest = sealedWrite(ctx, id, () => {
    if (sets.length) ctx.db.run(`UPDATE memories SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
  });
  if (digest === null) throw new Error(`no memory row ${id}`);
  return digest;
}

type UpgradeContext = Pick<EngineContext, 'db' | 'clock' | 'signer' | 'storeId'>;

/** The upgrade to signed states (migration 8): status and provenance of every row signed as they stand, once. */
export function sealEveryRow(ctx: UpgradeContext): number {
  const rows = ctx.db.all<MemoryRow>('SELECT id, key, version, content_digest, status, provenance FROM memories');
  const { keyId: key_id, publicKey: public_key } = ctx.signer;
  const added_at = ctx.clock.now().toISOString();
  if (rows.length) insertAuthorRow(ctx.db, { key_id, public_key, label: 'this machine', added_at, trusted: 1 });
  for (const row of rows) {
    const signature = ctx.signer.sign(legacyStatePayload(ctx.storeId, rowState(row)));
    ctx.db.run('UPDATE memories SET state_signature = ?, state_signer = ? WHERE id = ?', [
      signature,
      ctx.signer.keyId,
      row.id,
    ]);
  }
  return rows.length;
}

/**
 * The upgrade to sealed lifecycles (migration 15): each row whose status and provenance still hold
 * their signature is sealed whole as it stands, once. A row that does not hold is left as found,
 * so an edit made before the upgrade is still reported rather than sealed.
 */
export function sealLifecycles(
  ctx: UpgradeContext,
  holds: (row: MemoryRow) => boolean,
): { sealed: number; left: number } {
  const rows = ctx.db.all<MemoryRow>('SELECT * FROM memories WHERE state_sealed IS NULL');
  const good = rows.filter(holds);
  if (good.length) registerAuthor(ctx, ctx.signer, 'this machine');
  for (const row of good) resealRow(ctx.db, ctx.signer, ctx.storeId, row);
  return { sealed: good.length, left: rows.length - good.length };
}
