// A person's kind, in the real editor: Set Kind… from a document's context menu in Runbooks &
// Docs moves it from Guides to Runbooks, marks it "set in .lore/kinds" and writes that file; the
// group counts what the store counts; Clear Kind Correction (offered only where a person's kind
// applies) gives the document back. Every wait is on what the page shows.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeLore, loreCli, skip, viewNamed, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

const DOC = 'docs/guide.md';
const MARK = 'set in .lore/kinds';
const LONG = { timeoutMs: 60_000 };

async function kindsFile(): Promise<string> {
  try {
    return Buffer.from(await vscode.workspace.fs.readFile(workspaceFile('.lore/kinds'))).toString('utf8');
  } catch {
    return '';
  }
}

/** A quick pick that never came: the failure says what the window showed instead (an error toast, say). */
async function said(error: Error): Promise<never> {
  await vscode.commands.executeCommand('notifications.showList');
  const shown = await ui({ action: 'notificationTexts' }).catch(() => '[]');
  throw new Error(`${error.message}; notifications: ${shown}`);
}

/** How many documents of each kind the store holds, as lore doctor counts them. */
async function storeKinds(): Promise<Record<string, number>> {
  return ((await loreCli(['doctor'])) as { stats: { index: { by_kind: Record<string, number> } } }).stats.index.by_kind;
}

describe('Set Kind… in Runbooks & Docs', () => {
  before(async () => {
    await activeLore();
  });

  it('moves a document between the kind groups, marks it, and Clear Kind Correction gives it back', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    this.timeout(240_000);
    const view = viewNamed(/docs|runbooks/i);
    const collapseAll = () => vscode.commands.executeCommand(`workbench.actions.treeView.${view.id}.collapseAll`);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ ...LONG, action: 'waitForSidebarText', view: view.name, text: 'Guides' });
    await collapseAll();
    await ui({ ...LONG, action: 'treeItemClick', view: view.name, label: 'Guides' });
    await ui({ ...LONG, action: 'waitForSidebarText', view: view.name, text: DOC });

    await ui({ ...LONG, action: 'treeItemMenuPick', view: view.name, row: DOC, label: 'Set Kind…' });
    const prompt = `What is ${DOC}?`;
    const rows = JSON.parse((await ui({ ...LONG, action: 'quickPickItems', prompt }).catch(said)) ?? '[]') as string[];
    assert.ok(
      rows.some((row) => /Guide/.test(row) && /current/.test(row)),
      `the current kind is marked: ${JSON.stringify(rows)}`,
    );
    await ui({ ...LONG, action: 'quickInput', prompt, text: 'Runbook' });

    // Guides, redrawn, no longer holds it; then only Runbooks open, once it counts the document: it
    // shows there, marked as a person's kind.
    await ui({ ...LONG, action: 'waitForSidebarTextGone', view: view.name, text: DOC });
    await collapseAll();
    const runbooks = String((await storeKinds()).runbook);
    await ui({ ...LONG, action: 'treeItemClick', view: view.name, label: 'Runbooks', description: runbooks });
    await ui({ ...LONG, action: 'waitForSidebarText', view: view.name, text: `${MARK} · ${DOC}` });
    assert.match(await kindsFile(), /^docs\/guide\.md runbook$/m, '.lore/kinds holds the rule');
    const byKind = await storeKinds();
    const sidebar = (await ui({ ...LONG, action: 'waitForSidebarText', view: view.name, text: 'Runbooks' })) ?? '';
    assert.match(sidebar, new RegExp(`Runbooks\\s*${byKind.runbook}\\b`), `the group counts ${byKind.runbook}`);
    await ui({ action: 'screenshot', name: 'kinds-set-kind', part: 'sidebar' });

    const corrected = JSON.parse(
      (await ui({ ...LONG, action: 'treeItemMenu', view: view.name, row: DOC })) ?? '{}',
    ) as {
      menu: string[];
    };
    assert.ok(corrected.menu.includes('Clear Kind Correction'), JSON.stringify(corrected));
    const found = JSON.parse(
      (await ui({ ...LONG, action: 'treeItemMenu', view: view.name, row: 'docs/ops/restart-workers.md' })) ?? '{}',
    ) as { menu: string[] };
    assert.ok(found.menu.includes('Set Kind…'), JSON.stringify(found));
    assert.ok(
      !found.menu.includes('Clear Kind Correction'),
      `only where a person set the kind: ${JSON.stringify(found)}`,
    );

    await ui({ ...LONG, action: 'treeItemMenuPick', view: view.name, row: DOC, label: 'Clear Kind Correction' });
    await ui({ ...LONG, action: 'waitForSidebarTextGone', view: view.name, text: DOC });
    assert.doesNotMatch(await kindsFile(), /docs\/guide\.md/);
    // Opened once the group counts the document again (a click before that redraw can be undone by it).
    const guides = String((await storeKinds()).guide);
    await ui({ ...LONG, action: 'treeItemClick', view: view.name, label: 'Guides', description: guides });
    await ui({ ...LONG, action: 'waitForSidebarText', view: view.name, text: DOC });
  });
});
