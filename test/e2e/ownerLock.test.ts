// The owner lock, seen from the `lore` command: while another process owns a workspace's store
// the CLI refuses with an error naming it; a lock left behind by a process that died (with the
// SQLite lock directory its crash left) is taken over; the owner's owner.json is private (0600).

import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { openStore } from '../../src/host/openStore';
import { processStartMark } from '../../src/host/ownerLock';
import { makeSpace, ok, rememberArgs, storeDigest, type CliResult, type CliSpace } from '../support/cli';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeOwner(ownerFile: string, pid: number, processStart?: string): void {
  const owner = {
    pid,
    host: hostname(),
    port: null,
    token: 'f'.repeat(64),
    door: 'mcp',
    started_at: new Date().toISOString(),
    process_start: processStart,
  };
  writeFileSync(ownerFile, JSON.stringify(owner, null, 2) + '\n', { mode: 0o600 });
}

function assertBusy(r: CliResult, pid: number, what: string): void {
  assert.notEqual(r.code, 0, `${what} must fail while pid ${pid} owns the store; stdout: ${r.stdout}`);
  assert.match(r.stderr, /^lore: [^\n]+\n$/, `${what}: one line on stderr, got ${JSON.stringify(r.stderr)}`);
  assert.match(r.stderr, new RegExp(`\\bpid ${pid}\\b`), `${what}: the error names the owner's pid`);
  assert.match(r.stderr, /in use/, `${what}: the error says the store is in use`);
}

describe('owner lock, through the lore command', function () {
  this.timeout(60_000);
  let space: CliSpace;
  let holder: ChildProcess | undefined;

  before(async () => {
    // A live process that is not Lore, to stand in for an owner that is still running.
    holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.stdout.write("ready\\n")'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve, reject) => {
      holder!.once('error', reject);
      holder!.stdout!.once('data', () => resolve());
    });
  });
  after(() => {
    if (holder?.pid !== undefined && holder.exitCode === null) holder.kill('SIGKILL');
  });

  beforeEach(() => {
    space = makeSpace('lore-e2e-lock-');
    ok(space.lore(...rememberArgs('Use Postgres for the job queue', 'SKIP LOCKED')), 'seed');
  });
  afterEach(() => space.cleanup());

  it('finds the store where doctor says it is', () => {
    const doctor = ok(space.lore('doctor', '--json')).json;
    const store = doctor.checks.find((c: { name: string }) => c.name === 'store').detail;
    assert.equal(store, space.paths().database);
    assert.equal(dirname(space.paths().owner), dirname(store));
  });

  it('refuses, naming the owner pid, while a live process owns the store, and leaves its lock alone', () => {
    const pid = holder!.pid!;
    assert.ok(alive(pid));
    const { owner } = space.paths();
    writeOwner(owner, pid);
    const ownerBefore = readFileSync(owner, 'utf8');
    const digest = storeDigest(space);

    // Each refused command first waits a few seconds for a short-lived holder to finish, so one
    // write, with --json, stands for all of them.
    const r = space.lore(...rememberArgs('Another', 'blocked', '--json'));
    assertBusy(r, pid, 'lore remember --json');
    assert.equal(r.json?.error?.code, 'STORE_BUSY');
    assert.equal(r.json?.error?.details?.owner?.pid, pid);

    assert.equal(readFileSync(owner, 'utf8'), ownerBefore, 'the live owner keeps its lock');
    assert.equal(storeDigest(space), digest, 'nothing was written');
  });

  it('takes over a lock left by a dead pid, with the SQLite lock directory its crash left behind', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']);
    const pid = dead.pid!;
    assert.ok(!alive(pid), `pid ${pid} has exited`);
    const { owner, database } = space.paths();
    writeOwner(owner, pid);
    mkdirSync(`${database}.lock`);

    const r = space.lore(...rememberArgs('Restart the workers', 'after a crash', '--type', 'runbook', '--json'));
    ok(r, 'remember after a crash');
    assert.equal(r.json.saved, true);
    assert.equal(r.stderr, '');
    assert.ok(!existsSync(owner), 'the new owner released the lock when it finished');
    assert.ok(!existsSync(`${database}.lock`), 'the stale SQLite lock directory is gone');

    const list = ok(space.lore('list', '--json')).json;
    assert.deepEqual(list.items.map((m: { key: string }) => m.key).sort(), [
      'decision/use-postgres-for-the-job-queue',
      'runbook/restart-the-workers',
    ]);
    assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true);
  });

  it('tells a reused pid from the owner by its start mark (Linux)', function () {
    const pid = holder!.pid!;
    const mark = processStartMark(pid);
    if (mark === null) this.skip(); // no /proc: the pid alone decides
    const { owner } = space.paths();

    writeOwner(owner, pid, mark!);
    assertBusy(space.lore(...rememberArgs('Blocked', 'owner alive')), pid, 'the same process');

    // The same pid, but the process that holds it started at another time: the owner is gone.
    writeOwner(owner, pid, `${mark!.split(':')[0]}:1`);
    const r = ok(space.lore(...rememberArgs('After pid reuse', 'taken over', '--json')), 'remember after pid reuse');
    assert.equal(r.json.saved, true);
    assert.ok(alive(pid), 'the unrelated process was left alone');
  });

  it('while a process owns the store, owner.json is mode 0600 and names it; closing releases it for the CLI', () => {
    const store = openStore({ workspace: space.workspace, home: space.home, door: 'test' });
    let closed = false;
    try {
      const { owner } = store.paths;
      assert.equal(statSync(owner).mode & 0o777, 0o600, 'owner.json holds a token: only its user may read it');
      const info = JSON.parse(readFileSync(owner, 'utf8'));
      assert.equal(info.pid, process.pid);
      assert.equal(info.door, 'test');

      store.close();
      closed = true;
      assert.ok(!existsSync(owner), 'closing releases the lock');
      const r = ok(space.lore('recall', '--json', 'postgres'));
      assert.deepEqual(
        r.json.results.map((h: { key: string }) => h.key),
        ['decision/use-postgres-for-the-job-queue'],
      );
    } finally {
      if (!closed) store.close();
    }
  });
});
