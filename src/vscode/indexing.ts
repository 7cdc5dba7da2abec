// Indexing the workspace folders: a run per folder at a time, with progress (a notification with
// Cancel when a person asked for it, the status bar otherwise), pause/resume (pause cancels the run;
// resume starts an incremental one, which skips what is already stored by content hash). A save of
// a file the index covers is only a hint to the owner, which re-indexes files changed on disk itself.

import * as vscode from 'vscode';
import { loreSays } from './editorWording';
import { relative, sep } from 'node:path';
import { discoveryMatcher, type DiscoveryConfig, type IndexProgress, type IndexSummary } from '../engine';
import { workspaceDiscoveryRules } from '../host/workspaceConfig';
import type { FolderStore } from './folderStore';
import type { LoreSettings } from './settings';
import type { LoreStores } from './stores';

export const PAUSED_CONTEXT = 'lore.indexingPaused';

export interface IndexingState {
  folder: string;
  progress?: IndexProgress;
}

/** The settings' globs, added to the defaults and the workspace's .lore/config.json (as the CLI does). */
function discoveryOf(settings: LoreSettings): DiscoveryConfig {
  return { include: settings.index.include, exclude: settings.index.exclude };
}

export class Indexing {
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void>; progress?: IndexProgress }
  >();
  private readonly listeners = new Set<() => void>();
  private pausedFlag = false;

  constructor(
    private readonly stores: LoreStores,
    private readonly settingsFor: (folder: string) => LoreSettings,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get paused(): boolean {
    return this.pausedFlag;
  }

  /** Runs in progress, with their last progress step. */
  states(): IndexingState[] {
    return [...this.running].map(([folder, run]) => ({ folder, progress: run.progress }));
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Indexes one folder; resolves when done, cancelled or failed (failures are logged and shown). */
  run(store: FolderStore, options: { full?: boolean; notify: boolean }): Promise<void> {
    if (this.pausedFlag) {
      if (options.notify)
        vscode.window.showInformationMessage('Lore indexing is paused.', 'Resume').then((c) => c && this.resume());
      return Promise.resolve();
    }
    const existing = this.running.get(store.folder);
    if (existing) return existing.done;
    const controller = new AbortController();
    const entry: { controller: AbortController; done: Promise<void>; progress?: IndexProgress } = {
      controller,
      done: Promise.resolve(),
    };
    this.running.set(store.folder, entry);
    const title = `Lore: indexing ${store.folder.split(sep).pop()}`;
    // Asked for: a notification with Cancel. In the background: the status-bar item alone shows
    // the progress (StatusItem reads states()), so there is one item and one count, not two.
    type Steps = vscode.Progress<{ message?: string; increment?: number }>;
    const work = async (progress?: Steps, token?: vscode.CancellationToken) => {
      token?.onCancellationRequested(() => controller.abort());
      let last = 0;
      const report = (p: IndexProgress) => {
        entry.progress = p;
        const percent = p.total ? Math.floor((100 * p.done) / p.total) : 0;
        const increment = p.phase === 'index' ? Math.max(0, percent - last) : undefined;
        progress?.report({ message: `${p.phase} ${p.done}/${p.total}`, increment });
        if (p.phase === 'index') last = percent;
        this.emit();
      };
      const summary = await this.index(store, options.full === true, controller.signal, report);
      if (summary)
        this.log.info(
          `${store.folder}: indexed ${summary.indexed} of ${summary.files} ` +
            `file(s)${summary.renamed ? `, ${summary.renamed} renamed` : ''}`,
        );
    };
    entry.done = Promise.resolve(
      options.notify
        ? vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, work)
        : work(),
    )
      .catch((error) => {
        if (controller.signal.aborted)
          this.log.info(
            `${store.folder}: indexing stopped (${this.pausedFlag ? 'paused' : 'cancelled'}); what was stored stays`,
          );
        else {
          this.log.error(`${store.folder}: indexing failed: ${(error as Error).message}`);
          if (options.notify)
            vscode.window
              .showErrorMessage(loreSays(`indexing failed: ${(error as Error).message}`), 'Show Log')
              .then((c) => c && this.log.show());
        }
      })
      .finally(() => {
        this.running.delete(store.folder);
        this.emit();
      });
    this.emit();
    return entry.done;
  }

  private async index(
    store: FolderStore,
    full: boolean,
    signal: AbortSignal,
    report: (p: IndexProgress) => void,
  ): Promise<IndexSummary | undefined> {
    // The owner (this window's lore serve, or another process) indexes its own workspace; progress
    // comes back over /rpc and cancelling hangs up, which stops the run between batches.
    const discovery = discoveryOf(this.settingsFor(store.folder));
    return (await store.api.indexWorkspace(store.folder, { full, signal, discovery }, report)).summary;
  }

  async pause(): Promise<void> {
    this.pausedFlag = true;
    await vscode.commands.executeCommand('setContext', PAUSED_CONTEXT, true);
    for (const run of this.running.values()) run.controller.abort();
    this.log.info('indexing paused');
    this.emit();
  }

  async resume(): Promise<void> {
    this.pausedFlag = false;
    await vscode.commands.executeCommand('setContext', PAUSED_CONTEXT, false);
    this.log.info('indexing resumed');
    this.emit();
    await Promise.all(this.stores.opened().map((s) => this.run(s, { notify: false })));
  }

  /** After a save: the owner is told to look at the file now, if it is one the index covers. */
  onSave(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'file' || this.pausedFlag) return;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath;
    if (!folder || !this.stores.folders().includes(folder)) return;
    const settings = this.settingsFor(folder);
    if (!settings.index.onSave) return;
    const store = this.stores.get(folder);
    if (!store.connected) return; // the store opens on first use, not because a file was saved
    const path = relative(folder, document.uri.fsPath).split(sep).join('/');
    try {
      if (!discoveryMatcher(workspaceDiscoveryRules(folder, discoveryOf(settings))).accepts(path)) return;
    } catch (error) {
      // A .lore/config.json being edited may not parse yet: say so, index nothing, keep the editor quiet.
      this.log.warn(`${folder}: not indexing after saving ${path}: ${(error as Error).message}`);
      return;
    }
    store
      .hint([path])
      .catch((error) => this.log.warn(`${folder}: ${path} saved, the owner not told: ${error.message}`));
  }

  dispose(): void {
    for (const run of this.running.values()) run.controller.abort();
    this.listeners.clear();
  }
}
