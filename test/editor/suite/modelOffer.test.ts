// The first index's offer of the one-time model download, in the real editor: the seeded
// workspace has no model (the runner's LORE_HOME is empty), so this window's first index offers it
// — once, naming what it costs — and "No thanks", clicked in the page, is remembered: a second index
// does not ask again. The runner's windows carry on from here (offerScenarios.ts): the reload is
// not asked again, and "Download…" on a machine never asked leads to the download command's modal.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeLore, skip } from './lore';
import { ui, uiAvailable } from './ui';

/** Words only the offer says: how much it downloads. */
export const OFFER_COST = 'about 23 MB';

/** The offers in the notification center (once one shows, with `shown`). */
async function offersShown(shown = false): Promise<string[]> {
  const listed = await ui({ action: 'notificationTexts', until: shown ? OFFER_COST : undefined });
  const texts = JSON.parse(listed ?? '[]') as string[];
  return texts.filter((text) => text.includes(OFFER_COST));
}

describe('The model offer, on the first index of a workspace with no model', function () {
  this.timeout(420_000);

  before(async () => {
    await activeLore();
  });

  after(async () => {
    // The window as the next tests expect it: no notification center, no panel.
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  it('offers the one-time download once, saying what it costs and that it stays on this machine', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    // The smoke-test driver code-server runs with shows no toasts: every notification is in the
    // center, opened once the offer is on its way (the center opened empty may close before it comes).
    await vscode.commands.executeCommand('lore.showLog');
    await ui({ action: 'waitForPanelText', text: 'offering the one-time model download', timeoutMs: 300_000 });
    await vscode.commands.executeCommand('notifications.showList');
    const message = await ui({ action: 'waitForNotification', text: OFFER_COST });
    assert.match(message ?? '', /Download the embedding model \S+ once/);
    assert.match(message ?? '', /kept on this machine/);
    assert.match(message ?? '', /ranks by meaning/);
    const offers = await offersShown(true);
    assert.equal(offers.length, 1, `one offer: ${JSON.stringify(offers)}`);
    assert.match(offers[0], /Download…/, 'a Download… button');
    assert.match(offers[0], /No thanks/, 'a No thanks button');
    await ui({ action: 'screenshot', name: 'model-offer', part: 'window' });
  });

  it('"No thanks", clicked in the page, is remembered: a second index does not ask again', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    await ui({ action: 'notificationButton', text: OFFER_COST, label: 'No thanks' });
    await ui({ action: 'waitForNotificationGone', text: OFFER_COST });
    // A second index, as a person asks for one (before the log panel is shown: a panel taking
    // focus would close the quick pick).
    const reindexed = vscode.commands.executeCommand('lore.reindex');
    await ui({ action: 'quickInput', prompt: 'Reindex what?', text: 'Changed files' });
    await reindexed;
    // The answer reached the log once it was stored.
    await vscode.commands.executeCommand('lore.showLog');
    await ui({ action: 'waitForPanelText', text: 'model download offer declined' });
    await vscode.commands.executeCommand('notifications.showList');
    assert.deepEqual(await offersShown(), [], 'no offer after the second index');
  });
});
