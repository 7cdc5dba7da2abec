// One TreeDataProvider per sidebar view. Reads through the folder stores on first expansion and
// refreshes when a store changes (its file was written, by anyone) or drift findings change —
// never on a timer. The Drift view reads the findings before it redraws. An empty result leaves
// the view to its welcome content.

import * as vscode from 'vscode';
import type { Logger } from '../../engine';
import type { DriftTracker } from '../drift/tracker';
import type { FolderStore } from '../folderStore';
import type { LoreStores } from '../stores';
import { toTreeItem } from './treeItems';
import {
  ALREADY_BROKEN_GROUP,
  alreadyBrokenNodes,
  docGroups,
  driftNodes,
  groupChildren,
  inboxNodes,
  memoryNodes,
  type LoreNode,
  type ViewId,
} from './treeModel';

export class LoreTreeProvider implements vscode.TreeDataProvider<LoreNode> {
  private readonly changed = new vscode.EventEmitter<LoreNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly staleDrift = new Set<string>();
  /** The Drift view's rows as last handed to VS Code, per folder. */
  private readonly shownDrift = new Map<string, string>();

  constructor(
    readonly view: ViewId,
    private readonly stores: LoreStores,
    private readonly drift: DriftTracker,
    private readonly logger: Logger,
    /** `lore.drift.showAlreadyBroken` for a folder. */
    private readonly showAlreadyBroken: (folder: string) => boolean = () => true,
  ) {}

  private driftRows(folder: string): LoreNode[] {
    const statusOf = (key: string) => this.drift.memoryStatus(folder, key);
    return driftNodes(folder, this.drift.known(folder), this.showAlreadyBroken(folder), statusOf);
  }

  refresh(folder?: string): void {
    if (this.view !== 'lore.drift') return this.changed.fire(undefined);
    // Read first, redraw after (the tracker's change event redraws, see wire.ts): told to redraw,
    // VS Code forgets the view's rows until it has the new ones, and a row's button clicked in
    // between (while a slow read ran) reached its command with no row.
    for (const f of folder ? [folder] : this.stores.folders()) {
      if (this.drift.has(f)) void this.reread(f);
      else this.changed.fire(undefined); // nothing read yet, so no row to click: getChildren reads
    }
  }

  private async reread(folder: string): Promise<void> {
    try {
      await this.drift.refresh(this.stores.get(folder));
    } catch {
      // getChildren reads again and shows the error in the view
      this.staleDrift.add(folder);
      this.changed.fire(undefined);
    }
  }

  /**
   * Drift findings changed (a save was checked): redraw without re-reading everything — unless
   * the rows would be the same. A save, its index run and the read after it each report a change,
   * and while VS Code redraws, a row's button clicked reaches its command with no row.
   */
  redraw(): void {
    if (this.view === 'lore.drift' && this.driftRowsUnchanged()) return;
    this.changed.fire(undefined);
  }

  private driftRowsUnchanged(): boolean {
    const folders = this.stores.folders();
    if (folders.length !== this.shownDrift.size) return false;
    return folders.every((f) => this.drift.has(f) && this.shownDrift.get(f) === rowsKey(this.driftRows(f)));
  }

  getTreeItem(node: LoreNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  async getChildren(node?: LoreNode): Promise<LoreNode[]> {
    if (!node) {
      const stores = this.stores.all();
      if (stores.length === 1) return this.rootOf(stores[0]);
      return stores.map((s) => ({ kind: 'folder', folder: s.folder, view: this.view }));
    }
    if (node.kind === 'folder') return this.rootOf(this.stores.get(node.folder));
    if (node.kind === 'group' && node.group === ALREADY_BROKEN_GROUP)
      return alreadyBrokenNodes(node.folder, this.drift.known(node.folder), (key) =>
        this.drift.memoryStatus(node.folder, key),
      );
    if (node.kind === 'group')
      return this.guard(node.folder, () => groupChildren(this.stores.get(node.folder).api, node.folder, node.group));
    return [];
  }

  private rootOf(store: FolderStore): Promise<LoreNode[]> {
    const api = store.api;
    const folder = store.folder;
    return this.guard(folder, async () => {
      switch (this.view) {
        case 'lore.decisions':
          return memoryNodes(api, folder, ['decision']);
        case 'lore.deadEnds':
          return memoryNodes(api, folder, ['dead_end']);
        case 'lore.docs':
          return docGroups(api, folder);
        case 'lore.inbox':
          return inboxNodes(api, folder, (await api.inbox()).items);
        case 'lore.drift': {
          if (this.staleDrift.has(folder) || !this.drift.has(folder)) {
            this.staleDrift.delete(folder);
            await this.drift.refresh(store);
          }
          const rows = this.driftRows(folder);
          this.shownDrift.set(folder, rowsKey(rows));
          return rows;
        }
      }
    });
  }

  private async guard(folder: string, read: () => Promise<LoreNode[]>): Promise<LoreNode[]> {
    try {
      return await read();
    } catch (error) {
      this.logger.error(`${this.view} (${folder}): ${(error as Error).message}`);
      return [{ kind: 'message', folder, text: 'Lore cannot read this store', detail: (error as Error).message }];
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function rowsKey(rows: LoreNode[]): string {
  return JSON.stringify(rows);
}
