// Remember Selection as Decision, driven as a person would: the command run on a selection, its
// prompts answered in the page. The result is checked where a person sees it (the Decisions view)
// and in the store itself, read back through the CLI — another process, through the store's owner.
// (Forget confirms in a modal, which test hosts refuse; the runner drives it: ../scenarios.ts.)

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SELECTION_FILE, SELECTION_TEXT } from '../seed';
import { activeLore, loreCli, skip, viewNamed, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

interface GetAnswer { memory: { key: string; type: string; title: string; body: string; anchors: string[] } }

describe('Remember Selection', () => {
  before(async () => {
    await activeLore();
  });

  it('Remember Selection as Decision saves the selected text as a decision anchored to the file', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const title = 'Claim jobs with SKIP LOCKED';
    const key = 'decision/claim-jobs-with-skip-locked';
    const document = await vscode.workspace.openTextDocument(workspaceFile(SELECTION_FILE));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, SELECTION_TEXT.length);

    // Not awaited: the command waits on the person (prompts, then its notification).
    void vscode.commands.executeCommand('lore.rememberSelectionAsDecision');
    await ui({ action: 'quickInput', prompt: 'Title', text: title });
    await ui({ action: 'quickInput', prompt: 'One line', text: 'Workers claim jobs with SELECT … FOR UPDATE SKIP LOCKED.' });
    await ui({ action: 'quickInput', prompt: 'Anchors' }); // keep the anchor Lore proposed
    const view = viewNamed(/decisions/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ action: 'waitForSidebarText', view: view.name, text: title });

    const saved = (await loreCli(['get', key])) as GetAnswer;
    assert.equal(saved.memory.type, 'decision');
    assert.equal(saved.memory.title, title);
    assert.ok(saved.memory.body.includes(SELECTION_TEXT), `the body holds the selection: ${saved.memory.body}`);
    assert.ok(saved.memory.anchors.some((a) => a.startsWith(SELECTION_FILE)), `anchored to ${SELECTION_FILE}: ${saved.memory.anchors}`);
  });
});
