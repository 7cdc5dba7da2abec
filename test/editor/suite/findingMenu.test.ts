// A memory's drift finding in the Drift view offers Dispute and Supersede only when the engine
// allows them from the memory's status: an active decision's finding offers both; once disputed
// (from the CLI, another door), the row offers Supersede and no longer Dispute. The file it is
// anchored to is deleted on disk, so the finding comes from the owner's watcher, as a person's would.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeLore, loreCli, skip, viewNamed, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

const FILE = 'src/billingRetry.ts';
const KEY = 'decision/billing-retry';

describe('Drift view: a memory finding offers what its status allows', () => {
  before(async () => {
    await activeLore();
  });

  after(async () => {
    await loreCli(['forget', KEY]).catch(() => undefined); // its finding goes with it
  });

  it("an active decision's finding offers Dispute and Supersede; a disputed one's only Supersede", async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const uri = workspaceFile(FILE);
    await vscode.workspace.fs.writeFile(uri, Buffer.from('export function retryCharge() {}\n'));
    await loreCli([
      'remember',
      '--type',
      'decision',
      '--key',
      KEY,
      '--title',
      'Retry failed charges',
      '--description',
      'Failed charges are retried three times.',
      '--anchor',
      FILE,
    ]);
    await vscode.workspace.fs.delete(uri);
    const view = viewNamed(/drift/i);
    await vscode.commands.executeCommand(`${view.id}.focus`);
    await ui({ action: 'waitForSidebarText', view: view.name, text: FILE });
    const menuOf = async (screenshot?: string) =>
      (
        JSON.parse((await ui({ action: 'treeItemMenu', view: view.name, row: FILE, screenshot })) ?? '{}') as {
          menu: string[];
        }
      ).menu;
    const active = await menuOf();
    assert.ok(active.includes('Dispute…') && active.includes('Supersede…'), `active: ${JSON.stringify(active)}`);

    await loreCli(['dispute', KEY, '--reason', 'charges are retried by the provider now']);
    // The view reads the memory's status again once the owner reports the change: each look is a
    // right-click on the row, bounded by the test's timeout.
    let disputed = active;
    while (disputed.includes('Dispute…')) disputed = await menuOf('drift-finding-menu-disputed');
    assert.ok(disputed.includes('Supersede…'), `disputed: ${JSON.stringify(disputed)}`);
    assert.ok(disputed.includes('Re-verify…'), `its other acts stay: ${JSON.stringify(disputed)}`);
  });
});
