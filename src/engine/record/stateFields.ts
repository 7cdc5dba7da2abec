// What a state seal covers: a memory version's identity (key, version, content digest) and every
// field that changes what recall shows, and the digest the audit chain records of it. Pure
// functions, so the sealer (state.ts) and the checker (integrity.ts) share one definition without
// importing each other.

import type { Provenance, RecordOrigin } from '../model/types';
import type { MemoryRow } from './rows';
import { canonicalJson, digestOf } from '../model/digest';
import type { SealIdentity } from './seal';

/** The fields of a version its state seal covers, beside its identity (key, version, content digest). */
export const SEALED_STATE_FIELDS = [
  'status',
  'status_reason',
  'provenance',
  'superseded_by',
  'supersedes',
  'valid_until',
  'is_current',
  'recorded_at',
  'updated_at',
  'origin',
] as const;

export interface StateFields {
  key: string;
  version: number;
  content_digest: string;
  status: string;
  provenance: Provenance | Record<string, unknown>;
  status_reason: string | null;
  superseded_by: string | null;
  supersedes: string | null;
  valid_until: string | null;
  is_current: number;
  recorded_at: string;
  updated_at: string;
  origin: RecordOrigin | Record<string, unknown> | null;
}

/** What a version being written is sealed from: a Memory (current unless said) or a stored row's state. */
export type StateInput = Omit<
  StateFields,
  'is_current' | 'origin' | 'status_reason' | 'superseded_by' | 'supersedes' | 'valid_until'
> &
  Partial<
    Pick<StateFields, 'is_current' | 'origin' | 'status_reason' | 'superseded_by' | 'supersedes' | 'valid_until'>
  >;

/** What the audit chain records of a state: sha256 of canonical {status, provenance}. */
export function stateDigest(state: Pick<StateFields, 'status' | 'provenance'>): string {
  return digestOf({ status: state.status, provenance: state.provenance });
}

/** The first state signature (schema 8 to 14): status and provenance only; still read to upgrade a row once. */
export function legacyStatePayload(storeId: string, fields: StateFields): string {
  const { key, version, content_digest } = fields;
  return canonicalJson({ store_id: storeId, key, version, content_digest, state: stateDigest(fields) });
}

export function stateIdentity(
  storeId: string,
  fields: Pick<StateFields, 'key' | 'version' | 'content_digest'>,
): SealIdentity {
  const { key, version, content_digest } = fields;
  return { table: 'memories', store_id: storeId, key, version, content_digest };
}

/** The sealed fields of a state, each present (null when empty). */
export function sealedState(input: StateInput): Record<(typeof SEALED_STATE_FIELDS)[number], unknown> {
  const fields = { is_current: 1, ...input } as StateInput & { is_current: number };
  return Object.fromEntries(
    SEALED_STATE_FIELDS.map((field) => [field, (fields as unknown as Record<string, unknown>)[field] ?? null]),
  ) as Record<(typeof SEALED_STATE_FIELDS)[number], unknown>;
}

export type StoredState = Pick<MemoryRow, 'key' | 'version' | 'content_digest' | 'status' | 'provenance'> &
  Partial<
    Pick<
      MemoryRow,
      | 'status_reason'
      | 'superseded_by'
      | 'supersedes'
      | 'valid_until'
      | 'is_current'
      | 'recorded_at'
      | 'updated_at'
      | 'origin'
    >
  >;

/** The state of a stored row, its provenance and origin parsed. */
export function rowState(row: StoredState): StateFields {
  const { key, version, content_digest, status } = row;
  return {
    key,
    version,
    content_digest,
    status,
    provenance: JSON.parse(row.provenance),
    status_reason: row.status_reason ?? null,
    superseded_by: row.superseded_by ?? null,
    supersedes: row.supersedes ?? null,
    valid_until: row.valid_until ?? null,
    is_current: row.is_current ?? 1,
    recorded_at: row.recorded_at ?? '',
    updated_at: row.updated_at ?? '',
    origin: row.origin ? JSON.parse(row.origin) : null,
  };
}
