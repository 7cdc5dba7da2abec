// Remember Selection as Decision, driven as a person would: the command run on a selection, its
// prompts answered in the page. The result is checked where a person sees it (the Decisions view)
// and in the store itself, read back through the CLI — another process, through the store's owner.
// (Forget confirms in a modal, which test hosts refuse; the runner drives it: ../scenarios.ts.)

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SEED_FILES, SELECTION_FILE, SELECTION_TEXT } from '../seed';
import { activeLore, loreCli, skip, viewNamed, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

interface InputState {
  title: string;
  value: string;
  message: string;
}

const RUNBOOK = 'docs/runbooks/eks-upgrades.md';

async function read(prompt: string, text?: string, until?: string): Promise<InputState> {
  return JSON.parse((await ui({ action: 'quickInputRead', prompt, text, until })) ?? '{}') as InputState;
}

interface GetAnswer {
  memory: { key: string; type: string; title: string; body: string; anchors: string[] };
}

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
    await ui({ action: 'quickInput', prompt: 'Key:' }); // keep the key made from the title
    await ui({
      action: 'quickInput',
      prompt: 'One line',
      text: 'Workers claim jobs with SELECT … FOR UPDATE SKIP LOCKED.',
    });
    await ui({ action: 'quickInput', prompt: 'Anchors' }); // keep the anchor Lore proposed
    const view = viewNamed(/decisions/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ action: 'waitForSidebarText', view: view.name, text: title });

    const saved = (await loreCli(['get', key])) as GetAnswer;
    assert.equal(saved.memory.type, 'decision');
    assert.equal(saved.memory.title, title);
    assert.ok(saved.memory.body.includes(SELECTION_TEXT), `the body holds the selection: ${saved.memory.body}`);
    assert.ok(
      saved.memory.anchors.some((a) => a.startsWith(SELECTION_FILE)),
      `anchored to ${SELECTION_FILE}: ${saved.memory.anchors}`,
    );
  });

  it(
    'on a Markdown section, validates each step as it is typed and ' + 'prefills the heading’s slug as the anchor',
    async function () {
      if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
      const lines = SEED_FILES[RUNBOOK].split('\n');
      const line = lines.findIndex((l) => l.startsWith('1. Raise'));
      assert.ok(line > lines.indexOf('## Procedure'), 'the selected line is under ## Procedure');
      const editor = await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument(workspaceFile(RUNBOOK)),
      );
      editor.selection = new vscode.Selection(line, 0, line, lines[line].length);
      void vscode.commands.executeCommand('lore.rememberSelectionAsDecision');
      const wizard = 'Lore: Remember Decision';

      // Step 1: the title, its limit shown as you type; too long is refused where it is typed, and kept.
      const tooLong = 'Upgrade one minor version at a time '.repeat(4).trim();
      let state = await read(wizard, tooLong, 'too many');
      assert.match(state.title, /^Lore: Remember Decision \(1\/4\)$/, `a title with a step counter: ${state.title}`);
      assert.match(state.message, new RegExp(`^${tooLong.length}/120 characters: ${tooLong.length - 120} too many`));
      await ui({ action: 'press', key: 'Enter' });
      state = await read(wizard);
      assert.equal(state.value, tooLong, 'Enter on a refused value keeps the step and what was typed');
      const title = 'Upgrade EKS one minor version at a time';
      await ui({ action: 'quickInput', prompt: wizard, text: title });

      // Step 2, the key: made from the title, its rule in the prompt, its format checked as typed.
      state = await read('Key:');
      assert.match(state.title, /\(2\/4\)$/);
      assert.equal(state.value, 'decision/upgrade-eks-one-minor-version-at-a-time');
      state = await read('Key:', 'decision/Upgrade EKS', 'not a valid key');
      await ui({ action: 'screenshot', name: 'remember-key-rule', part: 'window' });
      assert.match(
        state.message,
        /"?decision\/Upgrade EKS"? is not a valid key: a key is <type>\/<slug>.*lowercase letters, digits/,
      );
      await ui({ action: 'press', key: 'Enter' });
      assert.match((await read('Key:')).message, /not a valid key/, 'Enter on a malformed key keeps the step');
      state = await read('Key:', 'dead_end/upgrade-eks', 'starts with');
      assert.match(state.message, /a decision's key starts with decision\//);
      // (The check's message stands where the prompt was: the box is found by the wizard's title.)
      await ui({ action: 'quickInput', prompt: wizard, text: 'decision/upgrade-eks-one-minor-version-at-a-time' });

      // Step 3, then the anchors: the section's slug, never the heading's text.
      state = await read('One line');
      assert.match(state.title, /\(3\/4\)$/);
      await ui({ action: 'quickInput', prompt: 'One line', text: 'Skipping a minor release is not supported by EKS.' });
      state = await read('Anchors');
      assert.equal(state.value, `${RUNBOOK}#procedure`);

      // An anchor that does not resolve is flagged before the save.
      state = await read('Anchors', `${RUNBOOK}#rollback`, 'has no heading');
      await ui({ action: 'screenshot', name: 'remember-anchor-warning', part: 'window' });
      assert.match(
        state.message,
        new RegExp(`${RUNBOOK} has no heading #rollback \\(it has #upgrading-eks-clusters, #procedure\\)`),
      );
      await ui({ action: 'quickInput', prompt: wizard, text: `${RUNBOOK}#procedure` });

      const key = 'decision/upgrade-eks-one-minor-version-at-a-time';
      const view = viewNamed(/decisions/i);
      await vscode.commands.executeCommand(`${view.id}.focus`);
      await ui({ action: 'waitForSidebarText', view: view.name, text: title });
      const saved = (await loreCli(['get', key])) as GetAnswer;
      assert.deepEqual(saved.memory.anchors, [`${RUNBOOK}#procedure`]);
    },
  );

  it(
    'a save that fails loses nothing typed: Edit and Retry reopens ' + 'the steps with every value as it was',
    async function () {
      if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      void vscode.commands.executeCommand('lore.remember');
      const wizard = 'Lore: Remember Decision';
      await ui({ action: 'quickInput', prompt: 'What kind of memory', text: 'Decision — what was chosen' });
      const title = 'Rotate the deploy token monthly';
      const key = 'decision/rotate-the-deploy-token-monthly';
      // A token pasted by mistake: the engine refuses the save, naming the field.
      const leaked = `Rotate it monthly; the current one is ghp_${'a1B2'.repeat(9)}`;
      await ui({ action: 'quickInput', prompt: wizard, text: title });
      await ui({ action: 'quickInput', prompt: 'Key:' });
      await ui({ action: 'quickInput', prompt: 'One line', text: leaked });
      await ui({ action: 'quickInput', prompt: 'Body' });
      await vscode.commands.executeCommand('notifications.showList');
      await ui({ action: 'quickInput', prompt: 'Anchors' });
      await ui({ action: 'notificationButton', text: 'Lore could not save it', label: 'Edit and Retry' });
      await vscode.commands.executeCommand('notifications.hideList');

      // Back at step 1 with every value as typed: read once the step counter says so, so the box
      // read is the retry's first step and not the last step's, still closing.
      let state = await read(wizard, undefined, '(1/5)');
      assert.equal(state.value, title, 'the title is kept');
      assert.match(state.title, /\(1\/5\)$/);
      await ui({ action: 'quickInput', prompt: wizard, text: title });
      assert.equal((await read('Key:')).value, key, 'the key is kept');
      await ui({ action: 'quickInput', prompt: 'Key:' });
      state = await read('One line');
      assert.equal(state.value, leaked, 'the refused description is kept, to be edited');
      await ui({ action: 'quickInput', prompt: 'One line', text: 'Rotate the deploy token monthly, from the vault.' });
      await ui({ action: 'quickInput', prompt: 'Body' });
      await ui({ action: 'quickInput', prompt: 'Anchors' });
      const view = viewNamed(/decisions/i);
      await vscode.commands.executeCommand(`${view.id}.focus`);
      await ui({ action: 'waitForSidebarText', view: view.name, text: title });
      const saved = (await loreCli(['get', key])) as GetAnswer;
      assert.equal(saved.memory.title, title);
    },
  );
});
