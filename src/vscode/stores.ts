// The stores of the open workspace: one per workspace folder (multi-root gets one each), created on
// first use and only in a trusted workspace — in Restricted Mode nothing is opened, indexed or
// served, and no owner process is started. No `vscode` import: the extension hands in folders, trust and settings.

import { LoreError, type Logger } from '../engine';
import { loreHome } from '../host/dataDir';
import { ownerEnv } from './embedding';
import type { DriftEvent } from '../host/ownerEvents';
import { FolderStore, type StoreChange } from './folderStore';
import type { LoreSettings } from './settings';

export interface StoresHost {
  /** The workspace folders' file-system paths, in order. */
  folders(): string[];
  trusted(): boolean;
  settings(folder: string): LoreSettings;
  logger: Logger;
  /** The bundled CLI (dist/cli.js) that runs each folder's owner process. */
  cliPath: string;
}

export const UNTRUSTED_MESSAGE = 'Lore does not open, index or serve an untrusted workspace';
export const UNTRUSTED_HINT = 'trust this workspace (Workspaces: Manage Workspace Trust) to use Lore here';

/** The data directory a folder's store lives under: the lore.dataDir setting, else LORE_HOME / the per-user default. */
export function homeFor(settings: LoreSettings, env: NodeJS.ProcessEnv = process.env): string {
  return settings.dataDir ?? loreHome(env);
}

export class LoreStores {
  private readonly stores = new Map<string, FolderStore>();
  private readonly listeners = new Set<(store: FolderStore | undefined, change: StoreChange) => void>();
  private readonly driftListeners = new Set<(store: FolderStore, event: DriftEvent) => void>();

  constructor(private readonly host: StoresHost) {}

  /** The folders Lore may serve now: none in an untrusted workspace. */
  folders(): string[] {
    return this.host.trusted() ? this.host.folders() : [];
  }

  /** Folder stores, created (not opened) on demand; empty when untrusted. */
  all(): FolderStore[] {
    return this.folders().map((folder) => this.get(folder));
  }

  /** The store for `folder`; refuses in an untrusted workspace or for a folder not in the workspace. */
  get(folder: string): FolderStore {
    if (!this.host.trusted()) throw new LoreError('STORE_UNAVAILABLE', UNTRUSTED_MESSAGE, UNTRUSTED_HINT);
    if (!this.host.folders().includes(folder))
      throw new LoreError('INVALID_INPUT', `${folder} is not a folder of this workspace`);
    let store = this.stores.get(folder);
    if (!store) {
      const settings = this.host.settings(folder);
      const home = homeFor(settings);
      store = new FolderStore({
        folder,
        home,
        logger: this.host.logger,
        cliPath: this.host.cliPath,
        env: ownerEnv(settings, home),
      });
      store.onDidChange((change) => this.emit(store, change));
      const created = store;
      store.onDidDrift((event) => {
        for (const listener of [...this.driftListeners]) listener(created, event);
      });
      this.stores.set(folder, store);
    }
    return store;
  }

  /** Every folder store created so far, opened or not (the status bar reads their states). */
  known(): FolderStore[] {
    return [...this.stores.values()];
  }

  /** The open folder stores, without creating any. */
  opened(): FolderStore[] {
    return [...this.stores.values()].filter((s) => s.connected);
  }

  /** What an owner's drift check found for files changed on disk (FolderStore.onDidDrift), for every folder. */
  onDidDrift(listener: (store: FolderStore, event: DriftEvent) => void): { dispose(): void } {
    this.driftListeners.add(listener);
    return { dispose: () => this.driftListeners.delete(listener) };
  }

  onDidChange(listener: (store: FolderStore | undefined, change: StoreChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Closes stores whose folder left the workspace or whose data dir changed (all of them with
   * `closeAll`, e.g. after the embedding settings changed); the next use opens them again with
   * current settings.
   */
  async reconcile(reason: string, closeAll = false): Promise<void> {
    const wanted = new Set(this.folders());
    const closing: FolderStore[] = [];
    for (const [folder, store] of this.stores) {
      const settings = this.host.settings(folder);
      if (closeAll || !wanted.has(folder) || homeFor(settings) !== store.options.home) {
        closing.push(store);
        this.stores.delete(folder);
      }
    }
    if (closing.length) this.host.logger.info(`closing ${closing.length} store(s): ${reason}`);
    await Promise.all(closing.map((s) => s.dispose()));
    this.emit(undefined, 'owner');
  }

  private emit(store: FolderStore | undefined, change: StoreChange): void {
    for (const listener of [...this.listeners]) listener(store, change);
  }

  async dispose(): Promise<void> {
    const all = [...this.stores.values()];
    this.stores.clear();
    this.listeners.clear();
    this.driftListeners.clear();
    await Promise.all(all.map((s) => s.dispose()));
  }
}
