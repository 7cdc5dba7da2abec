// The upgrade to sealed fields (schema 15), once per store: authors first (a version's signature is
// checked against its author's sealed key), then each memory version whose status and provenance
// still hold their first signature, then the history and the memory vectors. A version that does not hold is left as
// found, so an edit made before the upgrade is still reported rather than sealed by it.

import type { EngineContext } from '../context';
import { IntegrityChecker, sealEveryAuthor } from './integrity';
import { sealEveryEvent } from './events';
import { sealEveryMemoryVector } from './vectors';
import { sealLifecycles } from './state';

export function sealStoreOnUpgrade(ctx: Pick<EngineContext, 'db' | 'clock' | 'signer' | 'storeId'>): {
  sealed: number;
  left: number;
} {
  sealEveryAuthor(ctx);
  const integrity = new IntegrityChecker(ctx);
  const result = sealLifecycles(ctx, (row) => {
    const verdict = integrity.check(row);
    return verdict.ok || verdict.legacy === true;
  });
  sealEveryEvent(ctx.db, ctx.signer, ctx.storeId);
  sealEveryMemoryVector(ctx.db, ctx.signer, ctx.storeId);
  return result;
}

/**
 * Versions a store still holds with only their status and provenance signed (a shared PostgreSQL
 * store written by an older Lore): each that holds that signature is sealed whole, once, by the
 * first engine that opens the store. In SQLite the upgrade did this; what is left there did not hold.
 */
export function sealOlderVersions(ctx: EngineContext): number {
  let sealed = 0;
  for (const row of ctx.memories.unsealed()) {
    const verdict = ctx.integrity.check(row);
    if (verdict.ok || !verdict.legacy) continue;
    ctx.memories.writeState(row.id, {});
    sealed++;
  }
  return sealed;
}
