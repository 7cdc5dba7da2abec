// The memory search port (engine/record/memorySearch.ts) on the shared store: each read is one
// call through the bridge to searchQueries.ts, and the rows it returns have their authors' keys
// registered locally first, so the engine verifies their signatures as it does any row's. Memory
// vectors are stored and searched there too (vectorQueries.ts), sealed here where the signer is.

import type { EngineContext } from '../../../engine/context';
import type { MemorySearchPort } from '../../../engine/record/memorySearch';
import { memoryVectorSeal } from '../../../engine/record/vectors';
import type { PortCall } from './portCall';
import type { SharedAuthors } from './sharedAuthors';

export function postgresMemorySearch(
  call: PortCall,
  authors: SharedAuthors,
  ctx: () => EngineContext,
): MemorySearchPort {
  return {
    // One read gives the signature and the ids; a save asks for both in turn.
    deadEnds: {
      signature: () => call('deadEnds').signature,
      ids: () => call('deadEnds').ids,
      rows: (ids) => authors.withAuthors(call('byIds', [...ids])),
    },
    holdingAll: (words, limit) => call('holdingAll', [...words], limit),
    lexical: (words, all, filter, fetch) => authors.withAuthors(call('lexical', [...words], all, filter, fetch)),
    rows: (ids, filter) => authors.withAuthors(call('rows', [...ids], filter)),
    stamp: () => call('stamp'),
    rowCount: () => call('size').rows,
    holding: (texts) => call('holding', [...texts]),
    titleHolds: (a, b) => call('titleHolds', a, b),
    sameTypeByTitle: (words, type, exceptKey, limit) =>
      authors.withAuthors(call('sameTypeByTitle', [...words], type, exceptKey, limit)),
    nearest: (model, query, k) => call('nearest', model, query, k),
    vectors: {
      pending: (model, limit) => call('pendingVectors', model, limit),
      countPending: (model) => call('countPendingVectors', model),
      // Sealed here, where the signer is, by the rule the SQLite store seals its vectors with.
      store: (model, items) => {
        const { signer, storeId } = ctx();
        authors.shareSigner();
        call(
          'storeVectors',
          model,
          items.map(({ id, vector }) => {
            const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
            const seal = memoryVectorSeal(signer, storeId, id, model, { dims: vector.length, vector: bytes });
            return { id, vector, seal };
          }),
        );
      },
      sealedRows: () => call('sealedVectors'),
      drop: (memoryId, model) => call('dropVector', memoryId, model),
    },
  };
}
