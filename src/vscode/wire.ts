// The composition root: builds the extension's parts and connects their events. A store is opened
// on first use (a view expanded, a command run, an agent starting the MCP server, a save), or at
// once when the folder already has one (so its drift findings show after a reload); a folder
// without a store gets none until then.

import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { registerMemoryCommands } from './commands/memoryCommands';
import { registerRecall } from './commands/recall';
import { registerStoreCommands } from './commands/storeCommands';
import { registerKindCommands } from './commands/kindCommands';
import { registerAnchorCommands } from './commands/anchorCommands';
import { registerModelCommands } from './commands/modelCommands';
import { registerDriftCommands } from './commands/driftCommands';
import type { CommandDeps } from './commands/deps';
import { guarded } from './commands/ui';
import { DriftDiagnostics } from './drift/diagnostics';
import { DriftTracker } from './drift/tracker';
import { Indexing, PAUSED_CONTEXT } from './indexing';
import { cliPathOf, LoreMcpProvider, MCP_PROVIDER_ID } from './mcpProvider';
import { MEMORY_SCHEME, MemoryDocuments } from './memoryDocument';
import { EDIT_SCHEME, MemoryEditor, STORED_SCHEME } from './memoryEditor';
import { watchMemoryDocuments } from './memoryLanguage';
import { readSettings, type LoreSettings } from './settings';
import { StatusItem } from './status';
import { homeFor, LoreStores } from './stores';
import { offerModelOnce } from './modelOffer';
import { LoreTreeProvider } from './views/provider';
import { AnchoredLens } from './lens/anchoredLens';
import { registerLensCommands } from './lens/lensCommands';
import { VIEW_IDS } from './views/treeModel';

export interface Wired {
  /** Closes the stores this window reached, stopping the owner processes it started. */
  shutdown(): Promise<void>;
}

export function wire(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Wired {
  const subscribe = <T extends { dispose(): unknown }>(d: T): T => {
    context.subscriptions.push(d);
    return d;
  };

  const reported = new Set<string>();
  const settingsFor = (folder: string): LoreSettings => {
    const config = vscode.workspace.getConfiguration('lore', vscode.Uri.file(folder));
    const { settings, problems } = readSettings((key) => config.get(key));
    for (const p of problems) if (!reported.has(p) && reported.add(p)) log.warn(p);
    return settings;
  };

  const stores = new LoreStores({
    folders: () =>
      (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    trusted: () => vscode.workspace.isTrusted,
    settings: settingsFor,
    logger: log,
    cliPath: cliPathOf(context.extensionPath),
  });
  const tracker = new DriftTracker();
  const diagnostics = subscribe(
    new DriftDiagnostics(
      stores,
      tracker,
      log,
      (folder) => settingsFor(folder).drift.onSave,
      (folder) => settingsFor(folder).drift.showAlreadyBroken,
    ),
  );
  const indexing = subscribe(new Indexing(stores, settingsFor, log));
  const status = subscribe(new StatusItem(stores, indexing));
  const memoryDocs = subscribe(new MemoryDocuments(stores));
  subscribe(vscode.workspace.registerTextDocumentContentProvider(MEMORY_SCHEME, memoryDocs));
  const memoryEditor = subscribe(new MemoryEditor(stores));
  subscribe(vscode.workspace.registerFileSystemProvider(EDIT_SCHEME, memoryEditor, { isCaseSensitive: true }));
  subscribe(vscode.workspace.registerTextDocumentContentProvider(STORED_SCHEME, memoryEditor));
  subscribe(watchMemoryDocuments(log));

  const providers = VIEW_IDS.map((id) => {
    const provider = subscribe(
      new LoreTreeProvider(id, stores, tracker, log, (folder) => settingsFor(folder).drift.showAlreadyBroken),
    );
    subscribe(vscode.window.createTreeView(id, { treeDataProvider: provider, showCollapseAll: id === 'lore.docs' }));
    return provider;
  });
  const refreshViews = (folder?: string) => providers.forEach((p) => p.refresh(folder));

  subscribe(
    vscode.languages.registerCodeActionsProvider([{ scheme: 'file' }, { scheme: MEMORY_SCHEME }], diagnostics, {
      providedCodeActionKinds: DriftDiagnostics.kinds,
    }),
  );

  const mcp = subscribe(new LoreMcpProvider(stores, settingsFor, cliPathOf(context.extensionPath), log));
  // Hosts without the MCP API (older editors, some forks) still get everything else.
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function')
    subscribe(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));
  else log.info('this editor has no MCP server definition API; agents can run `lore mcp` themselves');

  const deps: CommandDeps = {
    stores,
    tracker,
    diagnostics,
    indexing,
    log,
    register: (id, body) => subscribe(vscode.commands.registerCommand(id, guarded(log, id, body))),
  };
  registerMemoryCommands(deps);
  registerRecall(deps);
  registerStoreCommands(deps, () => refreshViews());
  registerKindCommands(deps, () => refreshViews());
  registerAnchorCommands(deps);
  registerModelCommands(deps, settingsFor, stores);
  registerDriftCommands(deps);

  // Memory at the point of edit (lens/): the lens and hover on anchored code, refreshed when the data changes.
  const lens = subscribe(new AnchoredLens(stores, settingsFor, log));
  const codeFiles = { scheme: 'file' };
  subscribe(vscode.languages.registerCodeLensProvider(codeFiles, lens));
  subscribe(vscode.languages.registerHoverProvider(codeFiles, lens));
  registerLensCommands(deps, () => lens.invalidate());
  subscribe(
    stores.onDidChange((store, change) => {
      const indexingNow = change === 'data' && store && indexing.states().some((s) => s.folder === store.folder);
      if (!indexingNow) lens.invalidate(); // while a folder indexes: once, when the run ends (below)
    }),
  );
  subscribe(indexing.onDidChange(() => indexing.states().length || lens.invalidate()));
  subscribe(tracker.onDidChange(() => lens.invalidate()));
  subscribe(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('lore.codeLens') && lens.invalidate()),
  );

  const autoIndexed = new Set<string>();
  subscribe(
    stores.onDidChange((store, change) => {
      // While a folder indexes, its store changes after every batch: the views redraw once, when
      // the run ends (below), instead of re-reading the store all through it.
      if (change === 'data' && store && indexing.states().some((s) => s.folder === store.folder)) return;
      refreshViews(store?.folder);
      memoryDocs.refresh();
      memoryEditor.storeChanged();
      void status.update();
      if (change !== 'owner') return;
      void mcp.ownersChanged();
      // A store whose owner this window has just started is brought up to date, quietly, once. A
      // window that first joined another window's owner does this when it later becomes the owner.
      if (store?.connected) {
        // Then the findings the store has (the index keeps docs' references current) reach the
        // Problems panel, with no Lore view open.
        store
          .owner()
          .then(async (owner) => {
            if (!owner.self || autoIndexed.has(store.folder)) return;
            autoIndexed.add(store.folder);
            await indexing.run(store, { notify: false });
            // The model offer follows the first index this window ran (its text says what the index did).
            const settings = settingsFor(store.folder);
            const offered = offerModelOnce(context.globalState, settings, homeFor(settings), log);
            offered.catch((e: Error) => log.warn(`model offer: ${e.message}`));
          })
          .then(() => tracker.refresh(store))
          .catch((error) => log.warn(`${store.folder}: drift findings not loaded: ${(error as Error).message}`));
      }
    }),
  );
  subscribe(
    tracker.onDidChange(() => {
      providers.find((p) => p.view === 'lore.drift')?.redraw();
      diagnostics.update();
    }),
  );
  let indexingNow = new Set<string>();
  subscribe(
    indexing.onDidChange(() => {
      void status.update();
      const running = new Set(indexing.states().map((s) => s.folder));
      for (const folder of indexingNow) {
        if (running.has(folder)) continue;
        refreshViews(folder);
        memoryDocs.refresh();
        memoryEditor.storeChanged();
      }
      indexingNow = running;
    }),
  );
  // A file changed on disk: the owner indexes it and checks drift (its one reaction, whoever changed
  // it); a save here only hints it to look now, and its drift event reaches the Problems panel.
  subscribe(
    stores.onDidDrift((store, event) => {
      if (!diagnostics.follows(store.folder)) return;
      tracker
        .checked(store, event.paths, [...event.findings, ...event.current])
        .catch((error) => log.warn(`${store.folder}: drift findings not shown: ${(error as Error).message}`));
    }),
  );
  subscribe(
    vscode.workspace.onDidSaveTextDocument((document) => {
      memoryEditor.saved(document);
      void diagnostics.onSave(document);
      indexing.onSave(document);
    }),
  );
  const reconsider = (reason: string, closeAll = false) => {
    void stores.reconcile(reason, closeAll).then(() => {
      mcp.refresh();
      refreshViews();
      diagnostics.update();
      void status.update();
    });
  };
  subscribe(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('lore')) return;
      // A store keeps the model it opened with: a model change reopens the stores.
      const embedding = e.affectsConfiguration('lore.embedding');
      reconsider(embedding ? 'embedding settings changed' : 'settings changed', embedding);
    }),
  );
  subscribe(vscode.workspace.onDidRenameFiles((e) => void diagnostics.onRename(e.files)));
  subscribe(vscode.workspace.onDidChangeWorkspaceFolders(() => reconsider('workspace folders changed')));
  subscribe(vscode.workspace.onDidGrantWorkspaceTrust(() => reconsider('workspace trusted')));
  void vscode.commands.executeCommand('setContext', PAUSED_CONTEXT, false);
  void status.update();
  // A folder that already has a store (a reload, a reopened window) is opened now, so its drift
  // findings are in the Problems panel straight away; a folder without one gets none until first use.
  if (vscode.workspace.isTrusted) {
    for (const store of stores.all()) {
      if (!existsSync(store.paths.database)) continue;
      store.connect().catch((error) => log.warn(`${store.folder}: ${(error as Error).message}`));
    }
  }

  return {
    shutdown: async () => {
      diagnostics.clear();
      await stores.dispose();
    },
  };
}
