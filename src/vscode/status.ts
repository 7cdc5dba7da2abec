// The status-bar item: index state (files, pending embeddings, model, last update) of the open
// stores, a spinner with progress while indexing, "paused" when paused, "reconnecting" or
// "stopped" when a store's owner process went away. Updated on events (a store
// changed, an indexing step), never on a timer; before first use it reads nothing.

import * as vscode from 'vscode';
import type { Indexing } from './indexing';
import { combine, describe } from './statusFigures';
import type { LoreStores } from './stores';

export const STATUS_MENU_COMMAND = 'lore.statusMenu';

export class StatusItem {
  private readonly item = vscode.window.createStatusBarItem('lore.status', vscode.StatusBarAlignment.Left, 20);
  private generation = 0;

  constructor(
    private readonly stores: LoreStores,
    private readonly indexing: Indexing,
  ) {
    this.item.name = 'Lore';
    this.item.command = STATUS_MENU_COMMAND;
    this.item.text = '$(book) Lore';
    this.item.tooltip = 'Lore: the store opens on first use (the Lore view, a command, or an agent asking)';
  }

  /** Shows the item only where Lore can work (a trusted workspace with folders). */
  async update(): Promise<void> {
    const mine = ++this.generation;
    if (!this.stores.folders().length) return void this.item.hide();
    this.item.show();
    const running = this.indexing.states();
    if (this.indexing.paused) {
      this.item.text = '$(debug-pause) Lore paused';
      this.item.tooltip = 'Lore indexing is paused: click to resume';
      return;
    }
    if (running.length) {
      const p = running[0].progress;
      this.item.text = `$(sync~spin) Lore ${p ? `${p.phase} ${p.done}/${p.total}` : 'indexing'}`;
      this.item.tooltip = 'Lore is indexing: click to pause';
      return;
    }
    // A store whose owner process went away says so until it is back (folderStore.ts restarts it).
    const troubled = this.stores
      .known()
      .map((s) => s.state)
      .find((s) => s.kind === 'restarting' || s.kind === 'stopped');
    if (troubled?.kind === 'restarting') {
      this.item.text = '$(sync~spin) Lore reconnecting';
      this.item.tooltip = `${troubled.reason}; starting it again`;
      return;
    }
    if (troubled?.kind === 'stopped') {
      this.item.text = '$(warning) Lore stopped';
      this.item.tooltip = `${troubled.reason}. Click for the menu; the next Lore action starts it again.`;
      return;
    }
    const opened = this.stores.opened();
    if (!opened.length) return;
    try {
      const statuses = await Promise.all(opened.map((s) => s.api.indexStatus()));
      if (mine !== this.generation) return;
      const { text, tooltip } = describe(combine(statuses));
      this.item.text = text;
      this.item.tooltip = new vscode.MarkdownString(tooltip);
    } catch (error) {
      if (mine !== this.generation) return;
      this.item.text = '$(warning) Lore';
      this.item.tooltip = `Lore cannot read its store: ${(error as Error).message}`;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
