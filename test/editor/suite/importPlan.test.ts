// Importing a signed bundle in the real editor: before anything is written the plan is shown as
// rows a person reads in the quick pick — what will be added, what differs from this store (and
// is replaced only on their yes), what is skipped and why — not a JSON dump in a modal. The
// bundle here is this store's own export, so a record edited since is skipped as older. The yes
// picked in the page is what is done, read back through the CLI.

import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeLore, loreCli, skip } from './lore';
import { ui, uiAvailable } from './ui';

interface GetAnswer {
  memory: { key: string; description: string };
}

// Conventions: no other editor test writes one, so the exported bundle is these two records and
// every row of the plan is drawn (the quick pick draws only the rows in view).
const remember = (key: string, description: string) =>
  loreCli([
    'remember',
    '--type',
    'convention',
    '--key',
    key,
    '--title',
    key.split('/')[1].replace(/-/g, ' '),
    '--description',
    description,
    '--body',
    'For the import test.',
  ]);

describe('Import a bundle', () => {
  before(async () => {
    await activeLore();
  });

  it(
    'shows the plan as readable rows (added, differs, skipped, with ' + 'reasons) and does what was picked',
    async function () {
      if (!uiAvailable()) return skip(this, 'needs the browser page (code-server run)');
      const adds = 'convention/bundle-adds-this-one';
      const differs = 'convention/bundle-differs-here';
      await remember(adds, 'Exported, then forgotten here.');
      await remember(differs, 'As exported.');
      const file = join(mkdtempSync(join(tmpdir(), 'lore-import-')), 'bundle.json');
      await loreCli(['export', '--out', file, '--type', 'convention']);
      await loreCli(['forget', adds]);
      await remember(differs, 'Edited here after the export.');

      const done = vscode.commands.executeCommand('lore.import', vscode.Uri.file(file));
      const rows = JSON.parse((await ui({ action: 'quickPickItems', prompt: 'Import them?' })) ?? '[]') as string[];
      await ui({ action: 'screenshot', name: 'import-plan', part: 'window' });
      const text = rows.join('\n');
      assert.ok(!text.includes('{"'), `no JSON in the plan:\n${text}`);
      assert.match(text, /Import: add 1 record\b/, `the yes says what it does:\n${text}`);
      // A section's title is drawn on its first row.
      const rowOf = (key: string) => rows.find((r) => r.includes(key)) ?? '';
      assert.match(rowOf(adds), /lands active[\s\S]*Added \(1\)/, `the added record, with where it lands:\n${text}`);
      assert.match(
        rowOf(differs),
        /this store has a newer version \(2\) from the same author/,
        `skipped, with why:\n${text}`,
      );
      assert.match(rowOf(differs), /Skipped \(1\)/);

      await ui({ action: 'quickInput', prompt: 'Import them?', text: 'add 1 record' });
      await done;
      assert.equal(
        ((await loreCli(['get', adds])) as GetAnswer).memory.description,
        'Exported, then forgotten here.',
        'added back',
      );
      const kept = ((await loreCli(['get', differs])) as GetAnswer).memory.description;
      assert.equal(kept, 'Edited here after the export.', 'the newer version here is kept');
    },
  );
});
