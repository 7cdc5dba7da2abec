// What every memory operation works with: the store connection, time, logging and the store's id.

import type { Clock, Logger, SqlDatabase } from '../ports';
import type { IntegrityChecker } from '../trust/integrity';
import type { Signer } from '../trust/signatures';

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
