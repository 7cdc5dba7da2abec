// Memory anchors follow their target, in the real editor (issue 31, point 7): Re-verify on a
// memory whose anchored file was moved (as git mv does, outside the editor) moves the anchor to
// the new place; Update Anchor… on a memory whose file is gone asks where it is now when several
// files could be it, and saves the one picked; Open Anchor never opens a file that is gone.
// Read back through the CLI, another door onto the same store.

import * as assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { activeLore, loreCli, skip, workspaceRoot } from './lore';
import { ui, uiAvailable } from './ui';

const LONG = { timeoutMs: 60_000 };

const anchorsOf = async (key: string) =>
  ((await loreCli(['get', key])) as { memory: { anchors: string[] } }).memory.anchors;

function write(path: string, text: string): void {
  const file = join(workspaceRoot().fsPath, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function remember(key: string, anchor: string): Promise<void> {
  await loreCli([
    'remember',
    '--type',
    'decision',
    '--key',
    key,
    '--title',
    key.split('/')[1].replace(/-/g, ' '),
    '--description',
    'Anchored to a script that moves.',
    '--body',
    'Seeded by the anchors test.',
    '--anchor',
    anchor,
  ]);
}

describe('Memory anchors follow their target', function () {
  this.timeout(300_000);
  const folder = () => workspaceRoot().fsPath;

  before(async () => {
    await activeLore();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('Re-verify on a memory whose anchored file moved moves the anchor there', async () => {
    const key = 'decision/rotate-logs-with-the-script';
    write('scripts/rotate_logs.sh', '#!/bin/sh\n# Rotates the worker logs.\nfind /var/log/worker -mtime +7 -delete\n');
    await remember(key, 'scripts/rotate_logs.sh');
    // Moved outside the editor, as `git mv` does: the file's content is the same in its new place.
    mkdirSync(join(folder(), 'ops'), { recursive: true });
    renameSync(join(folder(), 'scripts/rotate_logs.sh'), join(folder(), 'ops/rotate-logs.sh'));
    await vscode.commands.executeCommand('lore.reverify', { folder: folder(), key });
    assert.deepEqual(await anchorsOf(key), ['ops/rotate-logs.sh'], 'the anchor followed the file');
  });

  it('Update Anchor… asks where a gone file is when several could be it, saves the one picked', async function () {
    if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
    const key = 'decision/purge-the-queue-with-the-script';
    write('scripts/purge.sh', '#!/bin/sh\n# Purges the dead-letter queue.\n');
    await remember(key, 'scripts/purge.sh');
    // Gone, and two files of that name elsewhere (neither the same content): Lore cannot tell which.
    rmSync(join(folder(), 'scripts/purge.sh'));
    write('ops/queue/purge.sh', '#!/bin/sh\n# Purges the dead-letter queue, rewritten.\nset -eu\n');
    write('tools/purge.sh', '#!/bin/sh\n# Purges build caches.\n');

    // Open Anchor never opens the gone file: it says so instead (an error notification, left pending).
    // Earlier tests' notifications are cleared first: the list draws only the rows in view, and in CI
    // this one was scrolled out of it behind them.
    await vscode.commands.executeCommand('notifications.clearAll');
    void vscode.commands.executeCommand('lore.openAnchor', { folder: folder(), key });
    await vscode.commands.executeCommand('notifications.showList');
    await ui({ ...LONG, action: 'waitForNotification', text: 'scripts/purge.sh no longer exists' });
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    assert.ok(
      !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'purge.sh')),
      'no editor for the gone file',
    );

    const updated = vscode.commands.executeCommand('lore.updateAnchor', { folder: folder(), key });
    const prompt = 'Where is scripts/purge.sh now?';
    const rows = JSON.parse((await ui({ ...LONG, action: 'quickPickItems', prompt })) ?? '[]') as string[];
    assert.ok(
      rows.some((r) => r.includes('ops/queue/purge.sh')) && rows.some((r) => r.includes('tools/purge.sh')),
      `both candidates offered: ${JSON.stringify(rows)}`,
    );
    await ui({ action: 'screenshot', name: 'anchors-update-anchor-asks', part: 'window' });
    await ui({ ...LONG, action: 'quickInput', prompt, text: 'ops/queue/purge.sh' });
    await updated;
    assert.deepEqual(await anchorsOf(key), ['ops/queue/purge.sh'], 'the picked place');
  });
});
