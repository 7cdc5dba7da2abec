// The SQLite lock of a store opened under the owner lock is held from its first statement to close
// (scripts/patchSqliteWasm.mjs, fix 4): no mkdir and rmdir of `<db>.lock` around every statement.
// Another connection is kept out meanwhile, as the owner lock keeps out other processes; closing
// releases it. A connection opened without the owner lock still locks statement by statement.

import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { openStore } from '../../../src/host/openStore';
import { WasmSqlDatabase } from '../../../src/host/sqlite';
import { tempDir } from '../../support/store';

/** Counts the VFS's makes and removals of lock folders while `work` runs. */
function lockCalls(work: () => void): { made: number; removed: number } {
  const { mkdirSync, rmdirSync } = fs;
  const calls = { made: 0, removed: 0 };
  fs.mkdirSync = ((path: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
    if (String(path).endsWith('.lock')) calls.made++;
    return mkdirSync(path, options);
  }) as typeof fs.mkdirSync;
  fs.rmdirSync = ((path: fs.PathLike, options?: fs.RmDirOptions) => {
    if (String(path).endsWith('.lock')) calls.removed++;
    return rmdirSync(path, options);
  }) as typeof fs.rmdirSync;
  try {
    work();
  } finally {
    fs.mkdirSync = mkdirSync;
    fs.rmdirSync = rmdirSync;
  }
  return calls;
}

describe('the SQLite lock of an owned store', () => {
  it('is taken once and kept until the store closes, keeping other connections out meanwhile', () => {
    const workspace = tempDir('lore-held-ws-');
    const home = tempDir('lore-held-home-');
    const store = openStore({ workspace, home, door: 'test', symbols: false });
    const database = store.paths.database;
    let closed = false;
    try {
      const calls = lockCalls(() => {
        for (let i = 0; i < 30; i++) store.engine.stats();
      });
      assert.deepEqual(calls, { made: 0, removed: 0 }, 'thirty reads take and release no lock');
      assert.ok(fs.existsSync(`${database}.lock`), 'the lock is held between statements');
      assert.throws(() => new WasmSqlDatabase(database).all('SELECT COUNT(*) FROM memories'), /locked|busy/i);
      const released = lockCalls(() => store.close());
      closed = true;
      assert.deepEqual(released, { made: 0, removed: 1 }, 'closing releases it');
    } finally {
      if (!closed) store.close();
    }
    assert.equal(fs.existsSync(`${database}.lock`), false);
    const after = new WasmSqlDatabase(database);
    try {
      const calls = lockCalls(() => {
        for (let i = 0; i < 5; i++) after.all('SELECT COUNT(*) AS n FROM memories');
      });
      assert.deepEqual(calls, { made: 5, removed: 5 }, 'an unowned connection locks each statement');
    } finally {
      after.close();
    }
  });
});
