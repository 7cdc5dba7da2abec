// Drift on save: the seeded decision is anchored to `src/queue.ts#enqueue`; saving the file with
// that function renamed must put Lore diagnostics in the Problems panel — a hint on the saved file
// and a drift warning naming the broken anchor. The save is only a hint to the store's owner; the
// findings come back on its event stream (nothing in the editor watches the store's files).

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SEEDED_DECISION, SEED_FILES } from '../seed';
import { activeLore, nextEvent, saveFile, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

const FILE = 'src/queue.ts';

function loreDiagnostics(): { uri: string; severity: vscode.DiagnosticSeverity; message: string }[] {
  return vscode.languages
    .getDiagnostics()
    .flatMap(([uri, list]) =>
      list
        .filter((d) => d.source === 'Lore')
        .map((d) => ({ uri: uri.toString(), severity: d.severity, message: d.message })),
    );
}

/** The Lore warnings that name the seeded decision's anchor (or the decision), if any. */
function driftWarnings(): ReturnType<typeof loreDiagnostics> | undefined {
  const found = loreDiagnostics().filter(
    (d) =>
      d.severity === vscode.DiagnosticSeverity.Warning && new RegExp(`enqueue|${SEEDED_DECISION.key}`).test(d.message),
  );
  return found.length ? found : undefined;
}

async function save(document: vscode.TextDocument): Promise<void> {
  await saveFile(document.uri);
  assert.equal(document.isDirty, false, `saved ${document.uri.fsPath}`);
}

describe('Drift diagnostics', () => {
  before(async () => {
    await activeLore();
  });

  after(async () => {
    // Put the anchored function back so later tests see the seeded workspace, and wait until Lore
    // has re-checked it (its drift warning gone): the next suite starts from a settled editor.
    const document = await vscode.workspace.openTextDocument(workspaceFile(FILE));
    if (document.getText() === SEED_FILES[FILE] && !document.isDirty) return; // the test stopped before its edit
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), SEED_FILES[FILE]);
    assert.ok(await vscode.workspace.applyEdit(edit), 'restored the seeded text');
    const settled = nextEvent(
      vscode.languages.onDidChangeDiagnostics,
      () => (driftWarnings() ? undefined : true),
      () => (driftWarnings() ? undefined : true),
    );
    await save(document);
    await settled;
  });

  it('a save that breaks an anchor produces a diagnostic', async () => {
    // The fixture's docs name paths it does not have (found broken by the first index): only this file's and the
    // decision's count.
    const ours = () => loreDiagnostics().filter((d) => d.uri.endsWith(FILE) || d.uri.startsWith('lore-memory:'));
    assert.deepEqual(ours(), [], 'no Lore diagnostics on the file or the decision before the edit');
    const document = await vscode.workspace.openTextDocument(workspaceFile(FILE));
    await vscode.window.showTextDocument(document);
    const at = document.getText().indexOf('function enqueue');
    assert.ok(at >= 0, `${FILE} declares enqueue`);
    const start = document.positionAt(at + 'function '.length);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(start, start.translate(0, 'enqueue'.length)), 'submitJob');
    assert.ok(await vscode.workspace.applyEdit(edit));

    // Lore publishes in steps (the saved file's hint, then the check's findings): wait for the
    // warning itself, not for the first change.
    const appeared = nextEvent(vscode.languages.onDidChangeDiagnostics, driftWarnings);
    await save(document);
    await appeared;

    const found = loreDiagnostics();
    assert.ok(
      found.some((d) => d.uri === document.uri.toString()),
      `a Lore diagnostic on ${FILE}: ${JSON.stringify(found)}`,
    );
    assert.ok(driftWarnings(), `a drift warning naming the anchor or the decision: ${JSON.stringify(found)}`);
    // One plain sentence: what changed, where, and who refers to it.
    const sentence = '`enqueue` in src/queue.ts was removed or renamed since this decision was last checked';
    assert.deepEqual(
      driftWarnings()!.map((d) => d.message),
      [sentence],
    );
    if (uiAvailable()) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await ui({ action: 'screenshot', name: 'drift-on-save-from-owner-events', part: 'window' });
    }
  });
});
