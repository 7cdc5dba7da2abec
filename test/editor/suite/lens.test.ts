// Memory at the point of edit (issue 25, point 1), in the real editor: a dead end saved through
// the CLI (another door, through the store's owner) shows as a CodeLens above the function it is
// anchored to, next to the seeded decision's lens on its own function; the hover on that function
// names the record with its status, drift and actions; lore.codeLens.enabled turns both off.
// Screenshots: codelens-point-of-edit.png, codelens-hover.png.

import * as assert from 'node:assert/strict';
import { readFileSync, watch } from 'node:fs';
import * as vscode from 'vscode';
import { storePaths } from '../../../src/host/dataDir';
import { SEEDED_DECISION } from '../seed';
import { activeLore, loreCli, skip, workspaceFile, workspaceRoot } from './lore';
import { ui, uiAvailable } from './ui';

const FILE = 'src/queue.ts';
const DEAD_END = {
  key: 'dead_end/claim-with-nowait',
  title: 'Claim with NOWAIT',
  description: 'Claiming with NOWAIT failed under load instead of skipping locked rows.',
};

/**
 * Resolves once this window's `lore serve` owns the store (owner.json names it), so the CLI below
 * joins it as a client instead of taking the store while the extension is starting its owner.
 */
function windowOwnsStore(): Promise<void> {
  const paths = storePaths(workspaceRoot().fsPath, process.env.LORE_HOME);
  const owned = () => {
    try {
      const owner = JSON.parse(readFileSync(paths.owner, 'utf8')) as { door?: string; port?: number | null };
      return owner.door === 'lore serve' && Boolean(owner.port);
    } catch {
      return false;
    }
  };
  return new Promise((resolve) => {
    if (owned()) return resolve();
    const watcher = watch(paths.dir, () => {
      if (!owned()) return;
      watcher.close();
      resolve();
    });
  });
}

async function loreLenses(uri: vscode.Uri): Promise<[number, string][]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses
    .filter((l) => l.command?.command === 'lore.showAnchored')
    .map((l): [number, string] => [l.range.start.line, l.command!.title])
    .sort((a, b) => a[0] - b[0]);
}

async function hoverText(uri: vscode.Uri, line: number, character: number): Promise<string> {
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      uri,
      new vscode.Position(line, character),
    )) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

describe('Memory at the point of edit', () => {
  const uri = workspaceFile(FILE);
  const claimLine = () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())!;

  before(async () => {
    await activeLore();
    await windowOwnsStore();
  });

  after(async () => {
    await loreCli(['forget', DEAD_END.key]).catch(() => undefined);
  });

  it('a CodeLens above each anchored function counts what is there, a dead end with a warning', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run) to see the lens drawn');
    await loreCli([
      'remember',
      '--type',
      'dead_end',
      '--key',
      DEAD_END.key,
      '--title',
      DEAD_END.title,
      '--description',
      DEAD_END.description,
      '--anchor',
      `${FILE}#claim`,
    ]);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    await ui({ action: 'waitForCodeLens', text: '1 dead end' });
    await ui({ action: 'waitForCodeLens', text: '1 decision' });
    await ui({ action: 'screenshot', name: 'codelens-point-of-edit', part: 'window' });

    const text = claimLine().getText().split('\n');
    const enqueue = text.findIndex((l) => l.includes('function enqueue'));
    const claim = text.findIndex((l) => l.includes('function claim'));
    assert.ok(SEEDED_DECISION.anchors.includes(`${FILE}#enqueue`), 'the seeded decision is anchored to enqueue');
    assert.deepEqual(await loreLenses(uri), [
      [enqueue, '1 decision'],
      [claim, '$(warning) 1 dead end'],
    ]);
  });

  it('the hover on the anchored function shows the dead end with status, drift and its actions', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const claim = claimLine()
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('function claim'));
    const markdown = await hoverText(uri, claim, 'export function c'.length);
    assert.match(markdown, /Claim with NOWAIT\*\* — dead end/);
    assert.ok(markdown.includes(DEAD_END.description), markdown);
    assert.match(markdown, /active · unchanged since it was checked/);
    for (const action of ['[Open]', '[Recall related]', '[Re-verify]']) assert.ok(markdown.includes(action), action);
    const plain = await hoverText(uri, claim + 1, 4);
    assert.ok(!plain.includes('Anchored to'), `no Lore hover on a line nothing is anchored to: ${plain}`);

    const shown = await ui({ action: 'hoverEditorWord', word: 'claim', until: DEAD_END.title });
    assert.match(shown ?? '', /Recall related/);
    await ui({ action: 'screenshot', name: 'codelens-hover', part: 'window' });
    await ui({ action: 'press', key: 'Escape' });
  });

  it('lore.codeLens.enabled off removes the lenses and the hover', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const config = vscode.workspace.getConfiguration('lore');
    await config.update('codeLens.enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      assert.deepEqual(await loreLenses(uri), []);
      const claim = claimLine()
        .getText()
        .split('\n')
        .findIndex((l) => l.includes('function claim'));
      const hover = await hoverText(uri, claim, 'export function c'.length);
      assert.ok(!hover.includes('Anchored to'), hover);
    } finally {
      await config.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    assert.equal((await loreLenses(uri)).length, 2, 'back on when the setting is cleared');
  });
});

// Anchors from any selection (points 3 and 5): whole lines selected inside claim() as Shift+↓ leaves
// them (ending at column 0 of the next line) anchor to claim; an anchor over the limit is refused in
// the step, with the limit, before anything is saved. Screenshots: anchor-from-selection.png,
// anchor-over-limit.png.
describe('Anchors from a selection', () => {
  before(async () => {
    await activeLore();
  });

  it('whole lines inside a function anchor to it; an over-long anchor is refused as it is typed', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const uri = workspaceFile(FILE);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const lines = editor.document.getText().split('\n');
    const claim = lines.findIndex((l) => l.includes('function claim'));
    editor.selection = new vscode.Selection(claim, 0, claim + 2, 0);
    void vscode.commands.executeCommand('lore.rememberSelectionAsDeadEnd');
    await ui({ action: 'quickInput', prompt: 'Title', text: 'Return early from claim' });
    await ui({ action: 'quickInput', prompt: 'Key:' });
    await ui({ action: 'quickInput', prompt: 'One line', text: 'An early return skipped the lock.' });
    const proposed = JSON.parse((await ui({ action: 'quickInputRead', prompt: 'Anchors' })) ?? '{}') as {
      value: string;
    };
    assert.equal(proposed.value, `${FILE}#claim`);
    await ui({ action: 'screenshot', name: 'anchor-from-selection', part: 'window' });

    const long = `src/${'nested/'.repeat(17)}queue.ts#claims`;
    const refused = JSON.parse(
      (await ui({ action: 'quickInputRead', prompt: 'Anchors', text: long, until: 'at most 120' })) ?? '{}',
    ) as { message: string };
    assert.match(refused.message, /is 138 characters; an anchor holds at most 120/);
    assert.doesNotMatch(refused.message, /keep it anyway/);
    await ui({ action: 'screenshot', name: 'anchor-over-limit', part: 'window' });
    await ui({ action: 'press', key: 'Escape' });
  });
});
