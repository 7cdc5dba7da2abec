// The signed state of a memory version: its status and provenance. The author's signature covers
// the content only (it travels with bundles, and a record's status changes long after its author
// signed it), so this store's machine signs the state beside it, over the store id, key, version
// and content digest too, and signs again on every status change. A row whose status or
// provenance was edited in the file no longer matches its state signature and is refused; the
// audit chain records each state's digest, so `lore audit verify` can compare rows with it.

import { LoreError } from '../errors';
import type { Provenance, Status } from '../model/types';
import type { SqlDatabase } from '../ports';
import type { MemoryRow, RowSeal } from './rows';
import { canonicalJson, digestOf } from '../model/digest';
import { registerAuthor } from './integrity';
import type { Signer } from './signatures';
import type { EngineContext } from '../context';

export interface StateFields {
  key: string;
  version: number;
  content_digest: string;
  status: string;
  provenance: Provenance | Record<string, unknown>;
}

/** What the audit chain records of a state: sha256 of canonical {status, provenance}. */
export function stateDigest(state: Pick<StateFields, 'status' | 'provenance'>): string {
  return digestOf({ status: state.status, provenance: state.provenance });
}

export function statePayload(storeId: string, fields: StateFields): string {
  const { key, version, content_digest } = fields;
  return canonicalJson({ store_id: storeId, key, version, content_digest, state: stateDigest(fields) });
}

type StoredState = Pick<MemoryRow, 'key' | 'version' | 'content_digest' | 'status' | 'provenance'>;

/** The state of a stored row, its provenance parsed. */
export function rowState(row: StoredState): StateFields {
  const { key, version, content_digest, status } = row;
  return { key, version, content_digest, status, provenance: JSON.parse(row.provenance) };
}

export function sealState(signer: Signer, storeId: string, fields: StateFields): RowSeal {
  return { state_signature: signer.sign(statePayload(storeId, fields)), state_signer: signer.keyId };
}

/** Signs a row's state as it now stands (its signer registered, so the seal can be checked). */
export function resealRow(db: SqlDatabase, signer: Signer, storeId: string, row: StoredState & { id: number }): string {
  const fields = rowState(row);
  const seal = sealState(signer, storeId, fields);
  db.run('UPDATE memories SET state_signature = ?, state_signer = ? WHERE id = ?', [
    seal.state_signature,
    seal.state_signer,
    row.id,
  ]);
  return stateDigest(fields);
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
 * The one way a written row's status changes: the status (and its reason, when given) is set and
 * the new state signed with it. Without a status the row keeps its own and is signed as it is.
 * Returns the state's digest, for the audit event that records the change.
 */
export function writeStatus(ctx: EngineContext, id: number, change: StateWrite): string {
  // A state edited outside Lore is never signed again by an ordinary write: signing it would make
  // the edit look like Lore's own (an agent's set_status after a tampered status left doctor clean).
  const before = ctx.db.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', [id]);
  const verdict = before && ctx.integrity.check(before);
  if (before && verdict && !verdict.ok) {
    throw new LoreError(
      'INTEGRITY',
      `${before.key} v${before.version} was changed outside Lore (${verdict.reason}); Lore will not sign it again`,
      'run `lore doctor` to see what changed; forget the record, or restore it from an export',
      { key: before.key, version: before.version },
    );
  }
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
  if (sets.length) ctx.db.run(`UPDATE memories SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
  const row = ctx.db.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', [id])!;
  registerAuthor(ctx, ctx.signer, 'this machine');
  return resealRow(ctx.db, ctx.signer, ctx.storeId, row);
}

/** The upgrade to signed states (migration 8): every row is signed as it stands then, once. */
export function sealEveryRow(ctx: Pick<EngineContext, 'db' | 'clock' | 'signer' | 'storeId'>): number {
  const rows = ctx.db.all<MemoryRow>('SELECT id, key, version, content_digest, status, provenance FROM memories');
  if (rows.length) registerAuthor(ctx, ctx.signer, 'this machine');
  for (const row of rows) resealRow(ctx.db, ctx.signer, ctx.storeId, row);
  return rows.length;
}
