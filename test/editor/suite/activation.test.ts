// The extension loads in a real editor, activates without error, and registers its commands.

import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeLore, loreExtension } from './lore';

describe('Lore in the editor', () => {
  it('is installed and activates', async () => {
    const extension = await activeLore();
    assert.equal(extension.isActive, true);
    assert.equal(loreExtension().packageJSON.name, 'lore');
  });

  it('registers every command its package.json contributes', async () => {
    await activeLore();
    const declared = ((loreExtension().packageJSON.contributes?.commands ?? []) as { command: string }[]).map(
      (c) => c.command,
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.ok(registered.has('lore.showLog'), 'lore.showLog is not registered');
    assert.deepEqual(
      declared.filter((id) => !registered.has(id)),
      [],
      'declared in package.json but not registered',
    );
  });

  it('has an extension icon', () => {
    const { packageJSON, extensionPath } = loreExtension();
    assert.ok(typeof packageJSON.icon === 'string', 'package.json names an icon');
    assert.ok(existsSync(join(extensionPath, packageJSON.icon)), `${packageJSON.icon} is in the extension`);
  });
});
