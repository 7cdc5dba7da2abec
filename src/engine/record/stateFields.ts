// What a state seal covers: a memory version's key, version, content digest, status and
// provenance, and the payload this store's machine signs over them. Pure functions, so the sealer
// (state.ts) and the checker (integrity.ts) share one definition without importing each other.

import type { Provenance } from '../model/types';
import type { MemoryRow } from './rows';
import { canonicalJson, digestOf } from '../model/digest';

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

export type StoredState = Pick<MemoryRow, 'key' | 'version' | 'content_digest' | 'status' | 'provenance'>;

/** The state of a stored row, its provenance parsed. */
export function rowState(row: StoredState): StateFields {
  const { key, version, content_digest, status } = row;
  return { key, version, content_digest, status, provenance: JSON.parse(row.provenance) };
}
