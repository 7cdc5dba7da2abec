// `lore index` follows the workspace's .lore/config.json, and a broken config stops the run with
// one line that names the file and the field, leaving the index as it was.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSpace, ok, type CliSpace } from '../support/cli';

describe('lore index with .lore/config.json', function () {
  this.timeout(60_000);
  let space: CliSpace;
  before(() => {
    space = makeSpace('lore-index-config-');
    mkdirSync(join(space.workspace, 'notes'));
    mkdirSync(join(space.workspace, '.lore'));
    writeFileSync(join(space.workspace, 'README.md'), '# Billing service\n');
    writeFileSync(
      join(space.workspace, 'notes', 'oncall.txt'),
      'Page the ledger owner before restarting the reconciler.\n',
    );
  });
  after(() => space.cleanup());

  it('indexes what the config adds, and refuses a broken config without touching the index', () => {
    writeFileSync(
      join(space.workspace, '.lore', 'config.json'),
      JSON.stringify({ index: { include: ['notes/*.txt'] } }),
    );
    const first = ok(space.lore('index', '--json')).json;
    assert.equal(first.status.files, 2);
    const recall = ok(space.lore('recall', 'reconciler', '--json')).json;
    assert.equal(recall.results[0].path, 'notes/oncall.txt');

    writeFileSync(join(space.workspace, '.lore', 'config.json'), JSON.stringify({ index: { include: 'notes/*.txt' } }));
    const broken = space.lore('index');
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /config\.json: index\.include must be a list of glob strings/);
    assert.equal(broken.stderr.trim().split('\n').length, 1, broken.stderr);
    const status = ok(space.lore('doctor', '--json')).json;
    assert.equal(status.stats.index.files, 2, 'the index is as the last good run left it');
  });
});
