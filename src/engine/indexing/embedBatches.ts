// One batch of texts embedded and stored: the local store's (docs' chunks and memories, each vector
// coded around its model's centre, a memory's sealed as stored), or a shared store's memories, which
// that store keeps itself (PostgreSQL). The index's embedding loop (indexer.ts) calls these in turn.

import type { EngineContext } from '../context';
import type { Embedder } from '../embed/embedder';
import type { MemoryVectorWrites } from '../record/memorySearch';
import { localStoreId } from '../record/integrity';
import { centreFor, sealMemoryVector } from '../record/vectors';
import { storeVector, type PendingText } from './docStore';

/** Embeds and stores one batch of the local store's pending texts; returns how many. */
export async function embedLocalBatch(
  ctx: EngineContext,
  embedder: Embedder,
  pending: PendingText[],
  signal?: AbortSignal,
): Promise<number> {
  const vectors = await embedder.embed(
    pending.map((p) => p.text),
    signal,
  );
  ctx.db.transaction(() => {
    const centre = centreFor(ctx.db, embedder.modelId, vectors);
    const storeId = localStoreId(ctx.db);
    pending.forEach((item, i) => {
      storeVector(ctx.db, item, embedder.modelId, vectors[i], centre);
      // A memory version's vector ranks it in recall: sealed as stored (record/vectors.ts).
      if (item.table === 'memory') sealMemoryVector(ctx.db, ctx.signer, storeId, item.id, embedder.modelId);
    });
  });
  return pending.length;
}

/** Embeds one batch of a shared store's pending memories into that store; returns how many. */
export async function embedSharedBatch(
  shared: MemoryVectorWrites,
  embedder: Embedder,
  pending: ReadonlyArray<{ id: number; text: string }>,
  signal?: AbortSignal,
): Promise<number> {
  const vectors = await embedder.embed(
    pending.map((p) => p.text),
    signal,
  );
  shared.store(
    embedder.modelId,
    pending.map((p, i) => ({ id: p.id, vector: vectors[i] })),
  );
  return pending.length;
}
