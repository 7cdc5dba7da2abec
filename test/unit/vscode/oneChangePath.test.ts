// One path for a file change: the store's owner is the only process that reacts to files changing
// on disk, and the editor learns what happened from the owner's event stream (folderStore.ts). This
// fails when an editor module watches files itself again (the store's lore.db and its journal, as
// folderStore.ts once did, or the workspace) instead of asking the owner.

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../..');
const EDITOR = join(ROOT, 'src/vscode');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('one path for a file change (the editor side)', () => {
  it('no editor module watches files: no fs watch, no file-system watcher, no lore.db names', () => {
    const found: string[] = [];
    for (const file of sources(EDITOR)) {
      const code = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
      const at = relative(ROOT, file);
      if (/import\s*\{[^}]*\bwatch(File)?\b[^}]*\}\s*from\s*'node:fs'/.test(code)) found.push(`${at}: fs watch`);
      if (/createFileSystemWatcher/.test(code)) found.push(`${at}: vscode file-system watcher`);
      if (/lore\.db/.test(code)) found.push(`${at}: names the store's database file`);
    }
    assert.deepEqual(found, []);
  });

  it('the store’s changes come from the owner’s event stream', () => {
    const store = readFileSync(join(EDITOR, 'folderStore.ts'), 'utf8');
    assert.match(store, /new OwnerEventStream\(/);
    assert.match(store, /hintChanged\(/);
  });
});
