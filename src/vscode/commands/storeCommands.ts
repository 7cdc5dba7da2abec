// Commands on a whole store: reindex, pause/resume, verify the audit chain, export/import signed
// bundles, write a decision to the repository, the status-bar menu, refresh.

import * as vscode from 'vscode';
import { join } from 'node:path';
import { STATUS_MENU_COMMAND } from '../status';
import type { CommandDeps } from './deps';
import type { ImportResult } from '../../engine';
import { planChoices, planSections, type PlanChoice } from './importPlan';
import { editorActor, pickStore, required, resolveTarget } from './ui';

type PlanItem = vscode.QuickPickItem & { choice?: PlanChoice };

/** The plan in a quick pick, verified and readable: the yes rows first, then every record by what happens to it. */
async function confirmPlan(file: string, plan: ImportResult): Promise<PlanChoice | undefined> {
  const choices = planChoices(plan);
  const items: PlanItem[] = [
    ...choices.map((choice) => ({ label: `$(check) ${choice.label}`, detail: choice.detail, choice })),
    { label: '$(close) Cancel', detail: choices.length ? 'nothing is imported' : 'everything in it is already here' },
  ];
  for (const section of planSections(plan)) {
    items.push({ label: section.title, kind: vscode.QuickPickItemKind.Separator });
    items.push(...section.rows);
  }
  const pick = vscode.window.createQuickPick<PlanItem>();
  pick.title = `Lore: Import ${file}`;
  pick.placeholder = `Verified: ${plan.bundle.records} signed record(s) from ${plan.bundle.signer}. Import them?`;
  pick.items = items;
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  return new Promise((resolve) => {
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0];
      // A record's row is there to read; only a yes or Cancel closes the plan.
      if (picked && !picked.choice && !picked.label.includes('Cancel')) return;
      resolve(picked?.choice);
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(undefined);
    });
    pick.show();
  });
}

export function registerStoreCommands(deps: CommandDeps, refreshViews: () => void): void {
  const { register, stores, indexing, log } = deps;

  register('lore.refresh', async () => refreshViews());

  register('lore.reindex', async () => {
    const store = await pickStore(stores);
    const full = await vscode.window.showQuickPick(
      [
        { label: 'Changed files', description: 'incremental: files whose content hash changed', full: false },
        { label: 'Everything', description: 're-read and re-chunk every file', full: true },
      ],
      { placeHolder: 'Reindex what?' },
    );
    await indexing.run(store, { full: required(full).full, notify: true });
  });
  register('lore.pauseIndexing', () => indexing.pause());
  register('lore.resumeIndexing', () => indexing.resume());

  register(STATUS_MENU_COMMAND, async () => {
    const items = [
      { label: '$(refresh) Reindex Workspace', command: 'lore.reindex' },
      indexing.paused
        ? { label: '$(debug-start) Resume Indexing', command: 'lore.resumeIndexing' }
        : { label: '$(debug-pause) Pause Indexing', command: 'lore.pauseIndexing' },
      { label: '$(search) Recall…', command: 'lore.recall' },
      { label: '$(cloud-download) Download Embedding Model…', command: 'lore.downloadModel' },
      { label: '$(shield) Verify Audit Log', command: 'lore.verifyAudit' },
      { label: '$(output) Show Log', command: 'lore.showLog' },
    ];
    const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Lore' });
    if (picked) await vscode.commands.executeCommand(picked.command);
  });

  register('lore.verifyAudit', async () => {
    const store = await pickStore(stores);
    const verdict = await store.api.verifyAudit();
    if (verdict.ok) {
      vscode.window.showInformationMessage(
        `Lore audit log intact: ${verdict.events} events, head ${verdict.head.slice(0, 12)}….`,
      );
      return;
    }
    for (const p of verdict.problems) log.error(`audit event ${p.seq}: ${p.problem}`);
    const choice = await vscode.window.showErrorMessage(
      `Lore audit log is broken: ${verdict.problems.length} problem(s), first at event ${verdict.problems[0]?.seq}.`,
      'Show Log',
    );
    if (choice) log.show();
  });

  register('lore.export', async () => {
    const store = await pickStore(stores);
    const target = required(
      await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(join(store.folder, 'lore-export.json')),
        filters: { 'Lore bundle': ['json'] },
        title: 'Export memories as a signed bundle',
      }),
    );
    const bundle = await store.api.exportBundle({});
    await vscode.workspace.fs.writeFile(target, Buffer.from(JSON.stringify(bundle, null, 2) + '\n', 'utf8'));
    vscode.window.showInformationMessage(`Lore exported a signed bundle to ${target.fsPath}.`);
  });

  register('lore.import', async (arg?: unknown) => {
    const store = await pickStore(stores);
    // From the Explorer (or a test) the bundle's file comes as the argument; else it is asked for.
    const source =
      arg instanceof vscode.Uri
        ? arg
        : required(
            await vscode.window.showOpenDialog({
              canSelectMany: false,
              filters: { 'Lore bundle': ['json'] },
              title: 'Import a signed Lore bundle',
            }),
          )[0];
    let bundle: unknown;
    try {
      bundle = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(source)).toString('utf8'));
    } catch (error) {
      throw new Error(`${source.fsPath} is not a Lore bundle (not JSON: ${(error as Error).message})`, {
        cause: error,
      });
    }
    // A dry run first: every signature is checked and the plan shown before anything is written.
    const plan = await store.api.importBundle(editorActor(), bundle, { dryRun: true });
    log.info(`import plan for ${source.fsPath}: ${JSON.stringify(plan)}`);
    const choice = await confirmPlan(source.fsPath.split(/[\\/]/).pop() ?? source.fsPath, plan);
    if (!choice) return;
    const done = await store.api.importBundle(editorActor(true), bundle, { dryRun: false, replace: choice.replace });
    vscode.window.showInformationMessage(
      `Lore imported the bundle: ${done.created} added, ${done.replaced} replaced, ${done.unchanged} skipped` +
        `${done.quarantined.length ? `; ${done.quarantined.length} wait in the Inbox (quarantined)` : ''}.`,
    );
  });

  register('lore.promoteToRepository', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(stores, arg, 'Write which memory to the repository?', ['active']);
    const form = required(
      await vscode.window.showQuickPick(
        [
          {
            label: 'ADR file',
            description: 'in the repository’s ADR folder, with its template when there is one',
            as: 'adr' as const,
          },
          {
            label: 'Signed .lore/ record',
            description: 'a record teammates’ Lore imports and verifies',
            as: 'record' as const,
          },
        ],
        { placeHolder: `Write ${key} to the repository as…` },
      ),
    );
    // The confirmation names the file (and the ADR index) that will be written: asked of the engine first.
    const planned = await store.api.canonicalize(editorActor(), key, { as: form.as, preview: true });
    const also = planned.index ? `, and its entry is added to ${planned.index}` : '';
    required(
      await vscode.window.showWarningMessage(
        `Write ${key} to ${planned.path}?`,
        {
          modal: true,
          detail: `${planned.path} is added to your working tree${also}; share it through a normal pull request.`,
        },
        'Write',
      ),
    );
    const result = await store.api.canonicalize(editorActor(true), key, { as: form.as });
    await vscode.window.showTextDocument(vscode.Uri.file(join(store.folder, result.path)));
    // Where it went and why there: beside the ADRs the index found, or the default when there are none.
    const why =
      result.as !== 'adr'
        ? ''
        : result.convention === 'default'
          ? ' (no ADRs indexed in this repository yet, so the default folder)'
          : ` (next to this repository's ADRs, ${result.convention} style)`;
    const indexed = result.index ? `; ${result.index} lists it` : '';
    vscode.window.showInformationMessage(`Lore wrote ${key} to ${result.path}${why}${indexed}.`);
  });
}
