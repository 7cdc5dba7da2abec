// What every engine operation works with (memory, trust, search, steward, drift alike): the store
// connection, time, logging, the store's id, its signer and its integrity checker.

import type { Clock, Logger, SqlDatabase } from './ports';
import type { IntegrityChecker } from './trust/integrity';
import type { Signer } from './trust/signatures';

export interface EngineContext {
  db: SqlDatabase;
  clock: Clock;
  logger: Logger;
  storeId: string;
  signer: Signer;
  integrity: IntegrityChecker;
}

export function nowIso(ctx: EngineContext): string {
  return ctx.clock.now().toISOString();
}
