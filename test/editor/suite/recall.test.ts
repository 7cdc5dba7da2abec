// Recall… as a person meets it: the question typed into VS Code's real quick pick from the page,
// the rows it then draws read back in order and compared with the engine's own ranking (the CLI,
// through the store's owner in this very window). VS Code's picker filters and re-sorts by label
// unless told not to; what a person reads must be what the engine ranked. Then the preview: in
// the active group as a preview tab, never a second copy of an open memory, nothing left on Escape.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { memoryUri } from '../../../src/vscode/memoryDocument';
import { RECALL_DEAD_END, SELECTION_FILE } from '../seed';
import { activeLore, loreCli, nextEvent, skip, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

const PROMPT = 'Lore: Recall';

interface RecallAnswer {
  results: { record: string; title: string; key?: string; path?: string }[];
}

async function engineTitles(query: string): Promise<string[]> {
  const answer = (await loreCli(['recall', query, '--limit', '20'])) as RecallAnswer;
  return answer.results.map((hit) => hit.title);
}

/** The labels of the quick pick's rows for `query`, once the row for `until` is drawn. */
async function typeAndRead(query: string, until: string): Promise<string[]> {
  void vscode.commands.executeCommand('lore.recall');
  return JSON.parse((await ui({ action: 'typeAndReadRows', prompt: PROMPT, text: query, until })) ?? '[]') as string[];
}

function assertEngineOrder(labels: string[], titles: string[]): void {
  assert.ok(
    labels.length >= Math.min(titles.length, 5),
    `the picker drew ${labels.length} of ${titles.length} results: ${JSON.stringify(labels)}`,
  );
  assert.deepEqual(
    labels,
    titles.slice(0, labels.length),
    'the picker shows the engine’s results in the engine’s order',
  );
}

const memoryTabs = (key: string) =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter(
      (t) =>
        t.input instanceof vscode.TabInputText &&
        t.input.uri.scheme === 'lore-memory' &&
        t.input.uri.path === `/${key}.md`,
    );

const tabLabels = () => vscode.window.tabGroups.all.map((g) => g.tabs.map((t) => t.label));

/** Resolves once `check` holds after some tab change (or already holds). */
function tabsWhere<R>(check: () => R | undefined): Promise<R> {
  return nextEvent(vscode.window.tabGroups.onDidChangeTabs, check, check);
}

async function closeEverything(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
}

describe('Recall… in the real quick pick', () => {
  before(async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    await activeLore();
  });

  afterEach(closeEverything);

  it('a question lists the engine’s results in its order, hits found by stemming included', async () => {
    const question = 'how do I upgrade the cluster version?';
    const titles = await engineTitles(question);
    assert.ok(
      titles.includes('Upgrading EKS clusters'),
      `the engine finds the runbook by stemming: ${JSON.stringify(titles)}`,
    );
    const labels = await typeAndRead(question, titles[0]);
    await ui({ action: 'screenshot', name: 'recall-question', part: 'window' });
    assertEngineOrder(labels, titles);
    assert.ok(labels.includes('Upgrading EKS clusters'), `the stemmed hit is listed: ${JSON.stringify(labels)}`);
  });

  it('a one-word query keeps the engine’s order where label matches would jump ahead', async () => {
    const titles = await engineTitles('worker');
    // The point of the check: the engine's first hit does not say "worker" in its title, a later one does.
    assert.equal(titles[0], RECALL_DEAD_END.title, `engine ranking: ${JSON.stringify(titles)}`);
    assert.ok(
      titles.slice(1).some((t) => /worker/i.test(t)),
      `a later hit has "worker" in its title: ${JSON.stringify(titles)}`,
    );
    assertEngineOrder(await typeAndRead('worker', titles[0]), titles);
  });

  it('when nothing matches, the row says so and offers the next steps', async () => {
    const query = 'zebra quokka marmalade';
    assert.deepEqual(await engineTitles(query), [], 'the engine finds nothing');
    const rows = await typeAndRead(query, 'No matches');
    await ui({ action: 'screenshot', name: 'recall-no-matches', part: 'window' });
    assert.equal(rows[0], `No matches for “${query}”`);
    assert.ok(
      rows.includes('Remember…') && rows.includes('Reindex Workspace'),
      `next steps offered: ${JSON.stringify(rows)}`,
    );
  });

  it('previews in the active group as a preview tab, and Escape leaves no tab and no split behind', async () => {
    const file = await vscode.window.showTextDocument(workspaceFile(SELECTION_FILE), { preview: false });
    await typeAndRead('worker', RECALL_DEAD_END.title);
    const [tab] = await tabsWhere(() =>
      memoryTabs(RECALL_DEAD_END.key).length ? memoryTabs(RECALL_DEAD_END.key) : undefined,
    );
    await ui({ action: 'screenshot', name: 'recall-preview', part: 'window' });
    assert.equal(vscode.window.tabGroups.all.length, 1, `one editor group: ${JSON.stringify(tabLabels())}`);
    assert.ok(tab.isPreview, 'the highlighted result shows in a preview tab');

    await ui({ action: 'press', key: 'Escape' });
    await tabsWhere(() => (memoryTabs(RECALL_DEAD_END.key).length ? undefined : true));
    assert.deepEqual(tabLabels(), [[file.document.uri.path.split('/').pop()]], 'only the file that was open before');
    const active = await nextEvent(
      vscode.window.onDidChangeActiveTextEditor,
      (e) => e,
      () => vscode.window.activeTextEditor,
    );
    assert.equal(active?.document.uri.toString(), file.document.uri.toString(), 'focus is back on the file');
  });

  it('a memory already open in another group is shown there, not opened a second time', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await vscode.window.showTextDocument(memoryUri(folder, RECALL_DEAD_END.key), {
      preview: false,
      viewColumn: vscode.ViewColumn.One,
    });
    await vscode.window.showTextDocument(workspaceFile(SELECTION_FILE), {
      preview: false,
      viewColumn: vscode.ViewColumn.Two,
    });
    assert.equal(vscode.window.tabGroups.all.length, 2);
    // The first row (the open memory) is highlighted; the next row, a runbook, previews in the active group.
    const titles = await engineTitles('worker');
    await typeAndRead('worker', titles[1]);
    await ui({ action: 'press', key: 'ArrowDown' });
    await tabsWhere(() => (tabLabels()[1]?.length === 2 ? true : undefined));
    assert.equal(vscode.window.tabGroups.all.length, 2, `no third group: ${JSON.stringify(tabLabels())}`);
    assert.equal(
      memoryTabs(RECALL_DEAD_END.key).length,
      1,
      `one tab for the open memory: ${JSON.stringify(tabLabels())}`,
    );
    await ui({ action: 'press', key: 'Escape' });
    await tabsWhere(() => (tabLabels()[1]?.length === 1 ? true : undefined));
    assert.deepEqual(
      tabLabels().map((g) => g.length),
      [1, 1],
      `the preview tab is gone: ${JSON.stringify(tabLabels())}`,
    );
  });
});
