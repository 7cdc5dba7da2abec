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
import { docGroups, driftNodes, groupChildren, inboxNodes, memoryNodes, type LoreNode, type ViewId } from './treeModel';

export class LoreTreeProvider implements vscode.TreeDataProvider<LoreNode> {
  private readonly changed = new vscode.EventEmitter<LoreNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly staleDrift = new Set<string>();

  constructor(
    readonly view: ViewId,
    private readonly stores: LoreStores,
    private readonly drift: DriftTracker,
    private readonly logger: Logger,
  ) {}

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

  /** Drift findings changed (a save was checked): redraw without re-reading everything. */
  redraw(): void {
    this.changed.fire(undefined);
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
    if (node.kind === 'group') return this.guard(node.folder, () => groupChildren(this.stores.get(node.folder).api, node.folder, node.group));
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
          return driftNodes(folder, this.drift.known(folder));
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
