// Drift on save: the seeded decision is anchored to `src/queue.ts#enqueue`; saving the file with
// that function renamed must put Lore diagnostics in the Problems panel — a hint on the saved file
// and a drift warning naming the broken anchor.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SEEDED_DECISION, SEED_FILES } from '../seed';
import { activeLore, nextEvent, workspaceFile } from './lore';

const FILE = 'src/queue.ts';

function loreDiagnostics(): { uri: string; severity: vscode.DiagnosticSeverity; message: string }[] {
  return vscode.languages
    .getDiagnostics()
    .flatMap(([uri, list]) => list.filter((d) => d.source === 'Lore').map((d) => ({ uri: uri.toString(), severity: d.severity, message: d.message })));
}

/** Saves through the workspace API (TextDocument.save() answers false in a code-server test host). */
async function save(document: vscode.TextDocument): Promise<void> {
  assert.ok(await vscode.workspace.save(document.uri), `saved ${document.uri.fsPath}`);
}

describe('Drift diagnostics', () => {
  before(async () => {
    await activeLore();
  });

  after(async () => {
    // Put the anchored function back so later tests see the seeded workspace.
    const document = await vscode.workspace.openTextDocument(workspaceFile(FILE));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), SEED_FILES[FILE]);
    await vscode.workspace.applyEdit(edit);
    await save(document);
  });

  it('a save that breaks an anchor produces a diagnostic', async () => {
    // The fixture's docs name paths it does not have (found broken by the first index): only this file's and the decision's count.
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

    const appeared = nextEvent(vscode.languages.onDidChangeDiagnostics, () => (ours().length ? ours() : undefined));
    await save(document);
    const found = await appeared;

    assert.ok(found.some((d) => d.uri === document.uri.toString()), `a Lore diagnostic on ${FILE}: ${JSON.stringify(found)}`);
    const warning = found.find((d) => d.severity === vscode.DiagnosticSeverity.Warning);
    assert.ok(warning, `a drift warning: ${JSON.stringify(found)}`);
    assert.match(JSON.stringify(found), new RegExp(`enqueue|${SEEDED_DECISION.key}`), 'the diagnostics name the anchor or the decision');
  });
});
