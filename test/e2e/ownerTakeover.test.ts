// Taking over a dead owner's lock, one process at a time: while another live process holds the
// takeover claim, a second one that found the same dead owner waits (STORE_BUSY) and clears
// nothing — before the claim, it could delete the lock and SQLite lock directory the first had
// just taken, and both would open the database. A claim left by a process that died is cleared.

import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireOwnerLock } from '../../src/host/ownerLock';
import { tempDir } from '../support/store';

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('owner lock takeover', () => {
  let live: ChildProcess;
  before(async () => {
    live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.stdout.write("ready\\n")'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((resolve) => live.stdout!.once('data', resolve));
  });
  after(() => {
    live.kill('SIGKILL');
  });

  function deadOwner() {
    const dir = tempDir('lore-takeover-');
    const ownerFile = join(dir, 'owner.json');
    const database = join(dir, 'lore.db');
    writeFileSync(
      ownerFile,
      JSON.stringify({
        pid: deadPid(),
        host: hostname(),
        port: 4711,
        token: 'd'.repeat(64),
        door: 'lore mcp',
        started_at: '2026-01-01T00:00:00Z',
      }),
    );
    mkdirSync(`${database}.lock`);
    return { ownerFile, database, claim: `${ownerFile}.takeover` };
  }

  it('waits while a live process is taking over, and clears nothing', () => {
    const { ownerFile, database, claim } = deadOwner();
    writeFileSync(claim, JSON.stringify({ pid: live.pid, host: hostname() }));
    assert.throws(
      () => acquireOwnerLock(ownerFile, database, 'test'),
      (e: { code?: string; message?: string }) =>
        e.code === 'STORE_BUSY' && /taking the store over/.test(e.message ?? ''),
    );
    assert.equal(
      JSON.parse(readFileSync(ownerFile, 'utf8')).token,
      'd'.repeat(64),
      'the dead owner file is left for the claimant',
    );
    assert.ok(existsSync(`${database}.lock`), 'the SQLite lock directory is left for the claimant');
  });

  it('clears a claim whose process died, then takes over on the next attempt', () => {
    const { ownerFile, database, claim } = deadOwner();
    writeFileSync(claim, JSON.stringify({ pid: deadPid(), host: hostname() }));
    assert.throws(() => acquireOwnerLock(ownerFile, database, 'test'), /taking the store over/);
    assert.ok(!existsSync(claim), "the dead claimant's claim is gone");
    const lock = acquireOwnerLock(ownerFile, database, 'test');
    try {
      assert.equal(JSON.parse(readFileSync(ownerFile, 'utf8')).pid, process.pid);
      assert.ok(!existsSync(`${database}.lock`));
      assert.ok(!existsSync(claim), 'the claim is released once the lock is taken');
    } finally {
      lock.release();
    }
  });
});
