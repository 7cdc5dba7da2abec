// Memory vectors on PostgreSQL, one repository at a time, by the SQLite store's rules
// (engine/record/vectors.ts, vectorMath.ts): each vector is stored as float32 bytes beside its
// sign code around the model's centre (one centre per model for the whole store, fixed by the
// first vectors stored) and its seal. A search ranks the repository's codes by Hamming distance in
// this worker (the codes are kept here until the repository's vectors change), reads only the
// nearest candidates' vectors and re-ranks them by exact cosine: the same candidates and scores
// as on SQLite. pgvector is detected (pgvector.ts) and never required.

import { HammingCodes } from '../../../engine/record/hammingKernel';
import { memoryEmbeddingText, type MemoryVectorHit, type SealedVectorRows } from '../../../engine/record/memorySearch';
import { codeBlob } from '../../../engine/record/vectors';
import {
  candidatesFor,
  cosine,
  floats,
  mean,
  nearestByDistance,
  signCode,
  topK,
} from '../../../engine/record/vectorMath';
import type { Sealed } from '../../../engine/record/seal';
import type { QueryScope } from './memoryQueries';

/** A vector to store, with the seal the engine's thread made over it (the signer lives there). */
export interface VectorToStore {
  id: number;
  vector: Float32Array;
  seal: Sealed;
}

interface CodeCache {
  stamp: string;
  codes: HammingCodes;
  ids: Float64Array;
  words: number;
  centre: Float32Array;
}

/** The repository's codes per model, kept while its vectors stay as they were. */
const cached = new Map<string, CodeCache>();

function asBytes(vector: Float32Array | Uint8Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

async function readCentre(scope: QueryScope, model: string): Promise<Float32Array | undefined> {
  const found = await scope.client.query('SELECT centre FROM vector_centres WHERE model = $1', [model]);
  const row = found.rows[0] as { centre: Buffer } | undefined;
  return row ? Float32Array.from(floats(row.centre)) : undefined;
}

/** The model's centre; the first vectors stored anywhere in the store fix it (a concurrent first writer's wins). */
async function centreFor(scope: QueryScope, model: string, fresh: Float32Array[]): Promise<Float32Array> {
  const known = await readCentre(scope, model);
  if (known) return known;
  const centre = mean(fresh);
  await scope.client.query(
    'INSERT INTO vector_centres (model, dims, centre) VALUES ($1, $2, $3) ON CONFLICT (model) DO NOTHING',
    [model, centre.length, asBytes(centre)],
  );
  return (await readCentre(scope, model))!;
}

const PENDING_WHERE =
  'm.repo_id = $1 AND m.is_current = 1 AND NOT EXISTS ' +
  '(SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = $2)';

/** The repository's codes of `model`, loaded again only when its vectors changed. */
async function codesOf(scope: QueryScope, model: string): Promise<CodeCache | undefined> {
  const stampRow = await scope.client.query(
    'SELECT COUNT(*) AS n, COALESCE(MAX(v.memory_id), 0) AS top FROM memory_vectors v ' +
      'JOIN memories m ON m.id = v.memory_id WHERE m.repo_id = $1 AND v.model = $2 AND v.code IS NOT NULL',
    [scope.repoId, model],
  );
  const { n, top } = stampRow.rows[0] as { n: string; top: string };
  const stamp = `${n}:${top}`;
  const key = `${scope.repoId}\u0000${model}`;
  const known = cached.get(key);
  if (known?.stamp === stamp) return known;
  cached.delete(key);
  const centre = await readCentre(scope, model);
  if (!centre || Number(n) === 0) return undefined;
  const found = await scope.client.query(
    'SELECT v.memory_id AS id, v.code FROM memory_vectors v JOIN memories m ON m.id = v.memory_id ' +
      'WHERE m.repo_id = $1 AND v.model = $2 AND v.code IS NOT NULL ORDER BY v.memory_id',
    [scope.repoId, model],
  );
  const rows = found.rows as Array<{ id: string; code: Buffer }>;
  const words = Math.ceil(centre.length / 32);
  const sound = rows.filter((r) => r.code.byteLength === words * 4);
  const codes = new HammingCodes(sound.length, words);
  const packed = new Uint32Array(sound.length * words);
  const ids = new Float64Array(sound.length);
  sound.forEach((row, i) => {
    packed.set(new Uint32Array(Uint8Array.from(row.code).buffer), i * words);
    ids[i] = Number(row.id);
  });
  codes.fill(packed, 0);
  const entry = { stamp, codes, ids, words, centre };
  cached.set(key, entry);
  return entry;
}

export const vectorQueries = {
  /** Current versions of the repository's memories with no vector of `model` yet, with the text to embed. */
  async pendingVectors(scope: QueryScope, model: string, limit: number): Promise<Array<{ id: number; text: string }>> {
    const found = await scope.client.query(
      `SELECT m.id, m.title, m.description, m.body FROM memories m WHERE ${PENDING_WHERE} ORDER BY m.id LIMIT $3`,
      [scope.repoId, model, limit],
    );
    const rows = found.rows as Array<{ id: string; title: string; description: string; body: string }>;
    return rows.map((m) => ({ id: Number(m.id), text: memoryEmbeddingText(m) }));
  },

  async countPendingVectors(scope: QueryScope, model: string): Promise<number> {
    const found = await scope.client.query(`SELECT COUNT(*) AS n FROM memories m WHERE ${PENDING_WHERE}`, [
      scope.repoId,
      model,
    ]);
    return Number((found.rows[0] as { n: string }).n);
  },

  /** Stores vectors of this repository's memory versions (another repository's ids are ignored). */
  async storeVectors(scope: QueryScope, model: string, items: VectorToStore[]): Promise<number> {
    if (!items.length) return 0;
    const centre = await centreFor(
      scope,
      model,
      items.map((i) => i.vector),
    );
    let stored = 0;
    for (const { id, vector, seal } of items) {
      const done = await scope.client.query(
        'INSERT INTO memory_vectors (memory_id, model, dims, vector, code, sealed, seal_signature, seal_signer) ' +
          'SELECT m.id, $3, $4, $5, $6, $7, $8, $9 FROM memories m WHERE m.id = $2 AND m.repo_id = $1 ' +
          'ON CONFLICT (memory_id, model) DO UPDATE SET dims = excluded.dims, vector = excluded.vector, ' +
          'code = excluded.code, sealed = excluded.sealed, seal_signature = excluded.seal_signature, ' +
          'seal_signer = excluded.seal_signer',
        [
          scope.repoId,
          id,
          model,
          vector.length,
          asBytes(vector),
          asBytes(codeBlob(vector, centre)),
          seal.sealed,
          seal.signature,
          seal.signer,
        ],
      );
      stored += done.rowCount ?? 0;
    }
    return stored;
  },

  /** Every vector of the repository's memories with its seal, and each model's centre (`lore doctor`). */
  async sealedVectors(scope: QueryScope): Promise<SealedVectorRows> {
    const found = await scope.client.query(
      'SELECT v.memory_id, v.model, v.dims, v.vector, v.code, v.sealed, v.seal_signature, v.seal_signer, ' +
        'm.key, m.version FROM memory_vectors v JOIN memories m ON m.id = v.memory_id ' +
        'WHERE m.repo_id = $1 ORDER BY v.memory_id, v.model',
      [scope.repoId],
    );
    const rows = found.rows as SealedVectorRows['rows'];
    const centres: Record<string, Float32Array> = {};
    for (const model of new Set(rows.map((r) => r.model))) {
      const centre = await readCentre(scope, model);
      if (centre) centres[model] = centre;
    }
    return { rows: rows.map((r) => ({ ...r, memory_id: Number(r.memory_id) })), centres };
  },

  /** Drops one of the repository's memory vectors (a person's repair). */
  async dropVector(scope: QueryScope, memoryId: number, model: string): Promise<void> {
    await scope.client.query(
      'DELETE FROM memory_vectors WHERE memory_id = $2 AND model = $3 ' +
        'AND memory_id IN (SELECT id FROM memories WHERE repo_id = $1)',
      [scope.repoId, memoryId, model],
    );
  },

  /**
   * The repository's `k` memory vectors nearest `query`: the codes nearest the query's by Hamming
   * distance, then those candidates by exact cosine (ties: lower id first), as the SQLite store ranks.
   */
  async nearest(scope: QueryScope, model: string, query: Float32Array, k: number): Promise<MemoryVectorHit[]> {
    const held = await codesOf(scope, model);
    if (!held || query.length !== held.centre.length) return [];
    const { distances, histogram } = held.codes.distances(signCode(query, held.centre));
    const candidates = nearestByDistance(distances, candidatesFor(k), held.words * 32, histogram).map(
      (i) => held.ids[i],
    );
    const found = await scope.client.query(
      'SELECT memory_id AS id, vector FROM memory_vectors WHERE model = $1 AND memory_id = ANY($2::bigint[])',
      [model, candidates],
    );
    const hits = (found.rows as Array<{ id: string; vector: Buffer }>)
      .map((row) => ({ id: Number(row.id), vector: floats(row.vector) }))
      .filter((row) => row.vector.length === query.length)
      .map((row) => ({ id: row.id, score: cosine(row.vector, query) }))
      .sort((a, b) => a.id - b.id);
    return topK(
      hits.map((h) => h.score),
      k,
    ).map((i) => hits[i]);
  },
};
