// A memory opened for editing is saved when the person saves it, never by auto-save: each save is a
// new version of the record, and auto-save after a delay (the default in VS Code for the web, a
// common choice on the desktop) would write one every second of typing. Shown with the person's
// own setting turned to auto-save after 100 ms: an ordinary file is saved by the timer, twice,
// while the memory beside it stays unsaved at its first version.

import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeLore, loreCli, nextEvent, saveFile, workspaceRoot } from './lore';
import { ui, uiAvailable } from './ui';

const KEY = 'decision/typed-not-timed';

async function typeAtEnd(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, document.lineAt(document.lineCount - 1).range.end, text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** Resolves when VS Code saved `document` (the auto-save timer is the only thing that saves it). */
function savedByTimer(document: vscode.TextDocument): Promise<true> {
  return nextEvent(vscode.workspace.onDidSaveTextDocument, (d) =>
    d.uri.toString() === document.uri.toString() ? true : undefined,
  );
}

describe('Auto-save and memories', () => {
  const files = () => vscode.workspace.getConfiguration('files');
  let scratch = '';

  before(async () => {
    await activeLore();
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
    scratch = mkdtempSync(join(tmpdir(), 'lore-autosave-'));
  });

  after(async () => {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === 'lore-edit' && doc.isDirty) {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await files().update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a memory being edited is not auto-saved; an ordinary file beside it is', async () => {
    await loreCli([
      'remember',
      '--type',
      'decision',
      '--key',
      KEY,
      '--title',
      'Typed, not timed',
      '--description',
      'Each save of a memory is a version.',
    ]);
    await vscode.commands.executeCommand('lore.edit', { folder: workspaceRoot().fsPath, key: KEY });
    const memory = vscode.window.activeTextEditor!.document;
    assert.equal(memory.uri.scheme, 'lore-edit');
    assert.equal(memory.languageId, 'lore-memory', 'the memory opens in the Lore memory language');
    assert.equal(files().get('autoSave'), 'afterDelay', 'the person’s own setting auto-saves');
    assert.equal(
      vscode.workspace.getConfiguration('files', memory).get('autoSave'),
      'off',
      'VS Code resolves auto-save off for the memory',
    );

    const path = join(scratch, 'notes.txt');
    writeFileSync(path, 'scratch\n');
    const ordinary = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    await vscode.window.showTextDocument(ordinary, { viewColumn: vscode.ViewColumn.Beside, preview: false });

    // Two rounds: the memory is typed into before the ordinary file each time, so its timer (had it
    // one) would fire first; after the second round any save of the memory would have finished.
    for (const round of [1, 2]) {
      await typeAtEnd(memory, `\nTyped in round ${round}.`);
      const saved = savedByTimer(ordinary);
      await typeAtEnd(ordinary, `round ${round}\n`);
      await saved;
      assert.equal(ordinary.isDirty, false, `round ${round}: the ordinary file was auto-saved`);
    }
    assert.ok(memory.isDirty, 'the memory still has unsaved edits');
    if (uiAvailable()) await ui({ action: 'screenshot', name: 'memory-not-auto-saved', part: 'window' });
    const stored = (await loreCli(['get', KEY])) as { memory: { version: number } };
    assert.equal(stored.memory.version, 1, 'no version was written by a timer');

    // Saved by the person, it is one new version.
    await saveFile(memory.uri);
    const after = (await loreCli(['get', KEY])) as { memory: { version: number } };
    assert.equal(after.memory.version, 2, 'the person’s save wrote one version');
  });
});
