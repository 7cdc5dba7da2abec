// StoreAccess for a process that owns the store: opens it on first use and keeps it open. A
// failure is reported with what to do and is not latched: the next call tries again.

import { LoreError, isLoreError, type Engine, type Logger } from '../engine';
import type { StoreAccess, StoreDescription } from '../mcp/access';
import { openStore, type OpenStore } from './openStore';

export interface OwnedStoreAccessOptions {
  workspace: string | null;
  home?: string;
  door: string;
  logger?: Logger;
  onOpen?: (store: OpenStore) => void;
  /** Called after a piece of work that changed the store (the owner tells its clients: ownerEvents.ts). */
  onChange?: () => void;
}

export class OwnedStoreAccess implements StoreAccess {
  private store: OpenStore | undefined;
  private problem: string | null = null;

  constructor(private readonly options: OwnedStoreAccessOptions) {}

  async use<T>(work: (engine: Engine) => T): Promise<T> {
    const store = this.open();
    if (!this.options.onChange) return work(store.engine);
    const before = store.changes();
    try {
      return await work(store.engine);
    } finally {
      if (this.store === store && store.changes() !== before) this.options.onChange();
    }
  }

  open(): OpenStore {
    if (this.store) return this.store;
    if (!this.options.workspace) {
      this.problem = 'no workspace folder was given';
      throw new LoreError(
        'STORE_UNAVAILABLE',
        'Lore has no workspace to serve',
        'start it in your repository (`lore mcp` from the repo folder, or `lore mcp --workspace DIR`)',
      );
    }
    try {
      this.store = openStore({
        workspace: this.options.workspace,
        home: this.options.home,
        door: this.options.door,
        logger: this.options.logger,
      });
      this.problem = null;
      this.options.onOpen?.(this.store);
      return this.store;
    } catch (error) {
      this.problem = isLoreError(error) ? error.message : String(error);
      if (isLoreError(error)) {
        throw new LoreError(
          error.code === 'STORE_BUSY' ? 'STORE_BUSY' : 'STORE_UNAVAILABLE',
          `Lore's store for ${this.options.workspace} is unavailable: ${error.message}`,
          error.hint ?? 'run `lore doctor` in the repository to see why',
          error.details,
        );
      }
      throw new LoreError(
        'STORE_UNAVAILABLE',
        `Lore's store for ${this.options.workspace} could not be opened: ${this.problem}`,
        'run `lore doctor` in the repository to see why',
      );
    }
  }

  describe(): StoreDescription {
    return {
      workspace: this.store?.paths.workspaceRoot ?? this.options.workspace,
      store: this.store?.paths.database ?? null,
      state: this.store ? 'open' : this.problem ? 'unavailable' : 'closed',
      problem: this.problem,
    };
  }

  close(): void {
    this.store?.close();
    this.store = undefined;
  }
}
