// Editing a record in the real editor: Edit opens it as front matter and body, a save writes a new
// version (read back through the CLI, another door onto the same store) and the header then names
// it; a save that lost a race overwrites nothing, shows no VS Code save error, keeps the person's
// edit unsaved and shows the stored version beside it in Lore's merge view (a diff editor), and the
// merged save goes through on top of the stored version. Supersede picks the
// successor from a list recall fills, typed into the real quick pick from the page.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeLore, loreCli, nextEvent, skip, workspaceRoot } from './lore';
import { ui, uiAvailable } from './ui';

interface GetAnswer {
  memory: {
    key: string;
    version: number;
    title: string;
    description: string;
    status: string;
    superseded_by: string | null;
  };
}

const get = async (key: string) => ((await loreCli(['get', key])) as GetAnswer).memory;

async function seed(key: string, title: string, description: string): Promise<void> {
  await loreCli([
    'remember',
    '--type',
    'decision',
    '--key',
    key,
    '--title',
    title,
    '--description',
    description,
    '--body',
    'Seeded by the edit test.',
  ]);
}

/** Replaces the front matter line that starts with `field:`. */
async function setField(document: vscode.TextDocument, field: string, value: string): Promise<void> {
  const line = document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith(`${field}:`));
  assert.ok(line >= 0, `the document has a ${field} line:\n${document.getText()}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, document.lineAt(line).range, `${field}: ${value}`);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** Resolves once the edit document's generated header line names `version` (the document was read again). */
function headerNames(document: vscode.TextDocument, version: number): Promise<string> {
  const named = () =>
    new RegExp(` · version ${version} · `).test(document.lineAt(1).text) ? document.lineAt(1).text : undefined;
  return nextEvent(
    vscode.workspace.onDidChangeTextDocument,
    (e) => (e.document === document ? named() : undefined),
    named,
  );
}

/** The notifications the window holds (the test driver's window shows them in the center, not as toasts). */
async function notifications(): Promise<string[]> {
  await vscode.commands.executeCommand('notifications.showList');
  const texts = JSON.parse((await ui({ action: 'notificationTexts' })) ?? '[]') as string[];
  await vscode.commands.executeCommand('notifications.hideList');
  return texts;
}

/** The open diff editor whose right side is `edited` and whose left side is the stored version. */
function mergeTab(edited: vscode.Uri): vscode.TabInputTextDiff | undefined {
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    const input = tab.input;
    if (
      input instanceof vscode.TabInputTextDiff &&
      input.modified.toString() === edited.toString() &&
      input.original.scheme === 'lore-stored'
    )
      return input;
  }
  return undefined;
}

describe('Editing a memory', () => {
  const folder = () => workspaceRoot().fsPath;

  before(async () => {
    await activeLore();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === 'lore-edit' && doc.isDirty) {
        await vscode.window.showTextDocument(doc);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Edit opens the record as front matter and body; saving writes a new version', async () => {
    const key = 'decision/edit-me-in-the-editor';
    await seed(key, 'Edit me in the editor', 'The first description.');
    await vscode.commands.executeCommand('lore.edit', { folder: folder(), key });
    const document = vscode.window.activeTextEditor!.document;
    assert.equal(document.uri.scheme, 'lore-edit');
    assert.match(
      document.getText(),
      /^---\n# decision\/edit-me-in-the-editor · version 1 · active\. .*\ntitle: Edit me in the editor\ndescription: The first description\.\n/,
    );
    await setField(document, 'description', 'The description, edited in the editor.');
    assert.ok(await vscode.workspace.save(document.uri), 'the save went through');
    const saved = await get(key);
    assert.equal(saved.version, 2);
    assert.equal(saved.description, 'The description, edited in the editor.');
    // The header names the version actually stored, not the one the edit started from.
    assert.match(await headerNames(document, 2), /^# decision\/edit-me-in-the-editor · version 2 · active\. /);
    assert.equal(document.isDirty, false, 'read again, not edited');
  });

  it(
    'a save that lost a race overwrites nothing, shows no save error, opens Lore’s merge view ' +
      'with the edit kept unsaved, and the next save builds on the stored one',
    async () => {
      const key = 'decision/edited-in-two-places';
      await seed(key, 'Edited in two places', 'As first written.');
      await vscode.commands.executeCommand('lore.edit', { folder: folder(), key });
      const document = vscode.window.activeTextEditor!.document;
      await setField(document, 'description', 'My edit, started on version 1.');
      // Meanwhile another door writes version 2.
      await seed(key, 'Edited in two places', 'Changed elsewhere meanwhile.');
      const diffShown = nextEvent(
        vscode.window.tabGroups.onDidChangeTabs,
        () => mergeTab(document.uri),
        () => mergeTab(document.uri),
      );
      await vscode.workspace.save(document.uri);
      assert.equal((await get(key)).description, 'Changed elsewhere meanwhile.', 'nothing was overwritten');

      // The stored version and the edit, side by side in one diff editor.
      const tab = await diffShown;
      const stored = await vscode.workspace.openTextDocument(tab.original);
      assert.match(
        stored.getText(),
        /^description: Changed elsewhere meanwhile\.$/m,
        'the left side is the stored version',
      );
      assert.ok(
        document.isDirty && document.getText().includes('My edit, started on version 1.'),
        'the person’s edit is kept, unsaved',
      );
      // Only what people wrote differs: the edit's generated header names version 2, as the stored side's does.
      assert.match(document.lineAt(1).text, /^# decision\/edited-in-two-places · version 2 · active\. /);
      assert.equal(document.lineAt(1).text, stored.lineAt(1).text);
      if (uiAvailable()) {
        // Lore's merge view, never VS Code's generic save error (Save As…, Overwrite, "Failed to save").
        const shown = await notifications();
        assert.deepEqual(
          shown.filter((text) => /Failed to save|Save As|Overwrite|FileSystemError/i.test(text)),
          [],
          `no save error: ${JSON.stringify(shown)}`,
        );
        await ui({ action: 'screenshot', name: 'edit-lost-race-merge-view', part: 'window' });
      }

      // The person merges (keeps both sentences) and saves again: based on version 2, it goes through.
      await setField(document, 'description', 'Changed elsewhere meanwhile. My edit, merged.');
      // workspace.save answers no URI when the document is saved from a diff editor (its input has
      // no single resource): the store and the header say whether it was written.
      await vscode.workspace.save(document.uri);
      const merged = await get(key);
      assert.equal(merged.version, 3);
      assert.equal(merged.description, 'Changed elsewhere meanwhile. My edit, merged.');
      assert.match(await headerNames(document, 3), /^# decision\/edited-in-two-places · version 3 · active\. /);
      assert.equal(document.isDirty, false, 'the merged save went through');
    },
  );

  it('lore remember on an existing key, from the CLI, keeps every field it did not name: Edit shows them', async () => {
    // Issue 25, point 6: the obvious way to edit a memory from the CLI (a new title and description, no body)
    // once replaced the body with nothing. The editor is where a person then finds the loss.
    const key = 'decision/edited-from-the-cli';
    await loreCli([
      'remember',
      '--type',
      'decision',
      '--key',
      key,
      '--title',
      'Edited from the CLI',
      '--description',
      'Written once with every field.',
      '--body',
      'The body the title change must keep.',
      '--anchor',
      'infra/main.tf',
      '--tag',
      'queue',
    ]);
    // The CLI's obvious edit: the same type and key, a new title and description, no --body.
    await loreCli([
      'remember',
      '--type',
      'decision',
      '--key',
      key,
      '--title',
      'Edited from the CLI, retitled',
      '--description',
      'Described again from the CLI.',
    ]);
    await vscode.commands.executeCommand('lore.edit', { folder: folder(), key });
    const text = vscode.window.activeTextEditor!.document.getText();
    assert.match(text, / · version 2 · /, `the edit shows the second version:\n${text}`);
    assert.match(text, /^title: Edited from the CLI, retitled$/m);
    assert.match(text, /^description: Described again from the CLI\.$/m);
    assert.match(text, /^anchors:\n {2}- infra\/main\.tf$/m, `the anchor was kept:\n${text}`);
    assert.match(text, /^tags:\n {2}- queue$/m, `the tag was kept:\n${text}`);
    assert.match(text, /\nThe body the title change must keep\.\n?$/, `the body was kept:\n${text}`);
    if (uiAvailable()) await ui({ action: 'screenshot', name: 'cli-remember-keeps-fields', part: 'window' });
  });

  it('Supersede picks the successor from a recall-backed list, not a typed key', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const old = 'decision/fixed-worker-pool';
    const successor = 'decision/autoscaled-worker-pool';
    await seed(old, 'Fixed worker pool', 'Four job workers, sized by hand.');
    await seed(successor, 'Autoscaled worker pool', 'Job workers scale on queue depth between two and twelve.');
    const done = vscode.commands.executeCommand('lore.supersede', { folder: folder(), key: old });
    const rows = JSON.parse(
      (await ui({
        action: 'typeAndReadRows',
        prompt: 'Which memory replaces it',
        text: 'workers scale on queue depth',
        until: 'Autoscaled worker pool',
      })) ?? '[]',
    ) as string[];
    await ui({ action: 'screenshot', name: 'supersede-pick', part: 'window' });
    assert.equal(rows[0], 'Autoscaled worker pool', `the successor is the first row: ${JSON.stringify(rows)}`);
    assert.ok(!rows.includes('Fixed worker pool'), 'the record being replaced is not offered');
    await ui({ action: 'press', key: 'Enter' });
    await done;
    const replaced = await get(old);
    assert.equal(replaced.superseded_by, successor);
  });
});
