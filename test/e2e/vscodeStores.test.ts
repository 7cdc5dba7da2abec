// The editor's stores (src/vscode/stores.ts, folderStore.ts), run in this process as the extension
// host runs them, against the built CLI: Workspace Trust and multi-root (an untrusted workspace
// gets no store and starts no process; a trusted one gets one store per folder, each in its own
// place under the data dir), and the owner as a child process — `lore serve`, never this process —
// that indexes with progress and cancel over /rpc, is started again when it dies (the state says
// so), and stops with the window.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger, type IndexProgress } from '../../src/engine';
import { isProcessAlive, type OwnerInfo } from '../../src/host/ownerLock';
import type { FolderStore, StoreState } from '../../src/vscode/folderStore';
import { readSettings } from '../../src/vscode/settings';
import { homeFor, LoreStores } from '../../src/vscode/stores';
import { docsCorpus, writeCorpus } from '../../bench/docsCorpus';
import { CLI } from '../support/processes';
import { person, memory, tempDir } from '../support/store';

describe('vscode stores: trust, folders and the owner process', () => {
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
    const settings = readSettings((key) =>
      key === 'dataDir' ? home : key === 'embedding.enabled' ? false : undefined,
    ).settings;
    stores = new LoreStores({
      folders: () => folders,
      trusted: () => trusted,
      settings: () => settings,
      logger: silentLogger,
      cliPath: CLI,
    });
  });
  afterEach(async () => {
    await stores.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const ownerOf = (store: FolderStore) => JSON.parse(readFileSync(store.paths.owner, 'utf8')) as OwnerInfo;
  /** Resolves with the first state (after each change) that `accept` takes. */
  const stateWhere = (store: FolderStore, accept: (state: StoreState) => boolean) =>
    new Promise<StoreState>((resolve) => {
      if (accept(store.state)) return resolve(store.state);
      const subscription = store.onDidChange(() => {
        if (!accept(store.state)) return;
        subscription.dispose();
        resolve(store.state);
      });
    });

  it('serves nothing in an untrusted workspace and starts no process', () => {
    assert.deepEqual(stores.folders(), []);
    assert.deepEqual(stores.all(), []);
    assert.throws(() => stores.get(folders[0]), /does not open, index or serve an untrusted workspace/);
    assert.equal(existsSync(home), false, 'nothing was created on disk, no owner.json: no lore serve ran');
  });

  it('keeps one store per folder once trusted, opened on first use', async () => {
    trusted = true;
    const [api, web] = stores.all();
    assert.equal(stores.opened().length, 0, 'creating the objects opens nothing');
    await api.api.remember({ ...person, door: 'ui' }, memory({ title: 'API decision' }));
    await web.api.remember({ ...person, door: 'ui' }, memory({ title: 'Web decision' }));
    assert.deepEqual(
      (await api.api.list()).items.map((m) => m.title),
      ['API decision'],
    );
    assert.deepEqual(
      (await web.api.list()).items.map((m) => m.title),
      ['Web decision'],
    );
    assert.notEqual(api.paths.database, web.paths.database);
    assert.equal(readdirSync(join(home, 'workspaces')).length, 2);
    assert.throws(() => stores.get(join(root, 'elsewhere')), /is not a folder of this workspace/);
  });

  it(
    'runs the store in a lore serve child process, never in the ' + 'extension host, and stops it with the window',
    async () => {
      trusted = true;
      const store = stores.get(folders[0]);
      await store.api.remember({ ...person, door: 'ui' }, memory({ title: 'Served elsewhere' }));
      const owner = ownerOf(store);
      assert.notEqual(owner.pid, process.pid, 'the store is not opened in this process');
      assert.equal(owner.door, 'lore serve');
      assert.equal((await store.owner()).self, true, "this window's own owner");
      assert.deepEqual(store.state, { kind: 'connected' });
      await stores.dispose();
      assert.equal(isProcessAlive(owner.pid), false, 'the owner process ended with the window');
      assert.equal(existsSync(store.paths.owner), false, 'and released the store');
    },
  );

  it('starts the owner again when its process dies, says so in its state, and keeps the data', async () => {
    trusted = true;
    const store = stores.get(folders[0]);
    await store.api.remember({ ...person, door: 'ui' }, memory({ title: 'Survives a crash' }));
    const first = ownerOf(store).pid;
    const restarting = stateWhere(store, (s) => s.kind === 'restarting');
    process.kill(first, 'SIGKILL');
    const said = await restarting;
    assert.match(
      (said as { reason: string }).reason,
      new RegExp(`lost its owner: its process \\(pid ${first}\\) ended \\(SIGKILL\\)`),
    );
    await stateWhere(store, (s) => s.kind === 'connected');
    const second = ownerOf(store).pid;
    assert.notEqual(second, first);
    assert.equal(isProcessAlive(second), true);
    assert.deepEqual(
      (await store.api.list()).items.map((m) => m.title),
      ['Survives a crash'],
    );
  });

  it('indexes through the owner with progress, and a cancel stops the run there', async () => {
    trusted = true;
    const folder = folders[0];
    writeCorpus(folder, docsCorpus(400));
    const store = stores.get(folder);
    const controller = new AbortController();
    const seen: IndexProgress[] = [];
    const run = store.api.indexWorkspace(folder, { signal: controller.signal }, (p) => {
      seen.push(p);
      if (p.phase === 'index' && p.done > 0) controller.abort();
    });
    await assert.rejects(run, (error: Error) => error.name === 'AbortError');
    assert.ok(
      seen.some((p) => p.phase === 'index' && p.total >= 400),
      `progress came back over /rpc: ${JSON.stringify(seen.slice(0, 3))}`,
    );
    const partial = (await store.api.indexStatus()).files;
    assert.ok(partial < 400, `the owner stopped the run when the client hung up (${partial} files indexed)`);
    const steps: IndexProgress[] = [];
    const done = await store.api.indexWorkspace(folder, {}, (p) => steps.push(p));
    assert.equal(done.status.files, 400);
    assert.ok(steps.length > 1);
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
