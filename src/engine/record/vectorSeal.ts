// A memory vector's seal and its check, wherever the vector is stored (the SQLite store's
// memory_vectors, or the shared PostgreSQL store's): the seal covers the model, the dimensions and
// the vector's digest, and the sign code must be the one the vector gives around the model's centre.

import { createHash } from 'node:crypto';
import { floats, signCode } from './vectorMath';
import { checkSeal, makeSeal, type SealIdentity, type Sealed } from './seal';
import type { Signer } from './signatures';

/** The bytes stored in the `code` column for `vector`. */
export function codeBlob(vector: Float32Array, centre: Float32Array): Uint8Array {
  const code = signCode(vector, centre);
  return new Uint8Array(code.buffer, code.byteOffset, code.byteLength);
}

/** A memory vector as stored, with its seal. */
export interface MemoryVectorRow {
  memory_id: number;
  model: string;
  dims: number;
  vector: Uint8Array;
  code: Uint8Array | null;
  sealed: string | null;
  seal_signature: string | null;
  seal_signer: string | null;
}

function vectorIdentity(storeId: string, memoryId: number, model: string): SealIdentity {
  return { table: 'memory_vectors', store_id: storeId, memory_id: memoryId, model };
}

function vectorFields(row: Pick<MemoryVectorRow, 'dims' | 'vector'>): object {
  return { dims: row.dims, vector: createHash('sha256').update(row.vector).digest('hex') };
}

/** The seal of a memory version's vector (every store seals its memory vectors by this rule). */
export function memoryVectorSeal(
  signer: Signer,
  storeId: string,
  memoryId: number,
  model: string,
  vector: Pick<MemoryVectorRow, 'dims' | 'vector'>,
): Sealed {
  return makeSeal(signer, vectorIdentity(storeId, memoryId, model), vectorFields(vector));
}

/**
 * The check itself, wherever the rows live (the SQLite store, or the shared PostgreSQL one that
 * hands its rows and centres over): the seal, then the sign code against the model's centre.
 */
export function vectorRowProblems(
  rows: readonly MemoryVectorRow[],
  storeId: string,
  verify: (signer: string, payload: string, signature: string) => boolean,
  centreOf: (model: string) => Float32Array | undefined,
): Array<{ memory_id: number; model: string; reason: string }> {
  const found: Array<{ memory_id: number; model: string; reason: string }> = [];
  for (const row of rows) {
    const seal = {
      sealed: row.sealed ?? undefined,
      signature: row.seal_signature ?? undefined,
      signer: row.seal_signer ?? undefined,
    };
    const verdict = checkSeal(seal, vectorIdentity(storeId, row.memory_id, row.model), vectorFields(row), verify);
    let reason = verdict.ok ? null : verdict.reason;
    const centre = reason === null && row.code ? centreOf(row.model) : undefined;
    if (centre && row.dims === centre.length) {
      const expected = codeBlob(floats(row.vector), centre);
      if (Buffer.compare(Buffer.from(expected), Buffer.from(row.code!)) !== 0)
        reason = 'its sign code is not the one its vector gives (edited outside Lore)';
    }
    if (reason !== null) found.push({ memory_id: row.memory_id, model: row.model, reason });
  }
  return found;
}
