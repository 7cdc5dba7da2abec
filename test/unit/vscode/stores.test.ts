// Workspace Trust and multi-root: an untrusted workspace gets no store (nothing is created on disk);
// a trusted one gets one store per folder, each in its own place under the data dir.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../../src/engine';
import { readSettings } from '../../../src/vscode/settings';
import { homeFor, LoreStores } from '../../../src/vscode/stores';
import { person, memory, tempDir } from '../../support/store';

describe('vscode stores: trust and folders', () => {
  let root: string;
  let home: string;
  let folders: string[];
  let trusted: boolean;
  let stores: LoreStores;

  beforeEach(() => {
    root = tempDir('lore-stores-');
    home = join(root, 'home');
    folders = [join(root, 'api'), join(root, 'web')];
    for (const f of folders) mkdirSync(f, { recursive: true });
    trusted = false;
    const settings = readSettings((key) => (key === 'dataDir' ? home : key === 'embedding.enabled' ? false : undefined)).settings;
    stores = new LoreStores({ folders: () => folders, trusted: () => trusted, settings: () => settings, logger: silentLogger });
  });
  afterEach(async () => {
    await stores.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves nothing in an untrusted workspace', () => {
    assert.deepEqual(stores.folders(), []);
    assert.deepEqual(stores.all(), []);
    assert.throws(() => stores.get(folders[0]), /does not open, index or serve an untrusted workspace/);
    assert.equal(existsSync(home), false, 'nothing was created on disk');
  });

  it('keeps one store per folder once trusted, opened on first use', async () => {
    trusted = true;
    const [api, web] = stores.all();
    assert.equal(stores.opened().length, 0, 'creating the objects opens nothing');
    await api.api.remember({ ...person, door: 'ui' }, memory({ title: 'API decision' }));
    await web.api.remember({ ...person, door: 'ui' }, memory({ title: 'Web decision' }));
    assert.deepEqual((await api.api.list()).items.map((m) => m.title), ['API decision']);
    assert.deepEqual((await web.api.list()).items.map((m) => m.title), ['Web decision']);
    assert.notEqual(api.paths.database, web.paths.database);
    assert.equal(readdirSync(join(home, 'workspaces')).length, 2);
    assert.throws(() => stores.get(join(root, 'elsewhere')), /is not a folder of this workspace/);
  });

  it('closes a folder’s store when the folder leaves the workspace', async () => {
    trusted = true;
    const web = stores.get(folders[1]);
    await web.api.stats();
    assert.equal(stores.opened().length, 1);
    folders = [folders[0]];
    await stores.reconcile('workspace folders changed');
    assert.equal(stores.opened().length, 0);
    assert.equal(homeFor(readSettings(() => undefined).settings, { LORE_HOME: '/x' }), '/x');
  });
});
