// The memory search port (engine/record/memorySearch.ts) on the shared store: each read is one
// call through the bridge to searchQueries.ts, and the rows it returns have their authors' keys
// registered locally first, so the engine verifies their signatures as it does any row's.

import type { MemorySearchPort } from '../../../engine/record/memorySearch';
import type { PortCall } from './portCall';
import type { SharedAuthors } from './sharedAuthors';

export function postgresMemorySearch(call: PortCall, authors: SharedAuthors): MemorySearchPort {
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
  };
}
