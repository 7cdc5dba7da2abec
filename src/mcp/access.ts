// How the MCP server reaches a store. The server never opens one itself: a host hands it a
// StoreAccess, which opens on first use and, when that fails, throws an actionable LoreError —
// and tries again on the next call, so a store that appears later is used.

import type { Engine } from '../engine';

export interface StoreDescription {
  workspace: string | null;
  store: string | null;
  state: 'open' | 'closed' | 'unavailable';
  problem: string | null;
}

export interface StoreAccess {
  use<T>(work: (engine: Engine) => T): Promise<T>;
  describe(): StoreDescription;
}
