// Faults recover, shown through the built `lore` command and a real owner (`lore serve`):
// - a full disk (a real, small tmpfs filled to the last byte) gives a clear "no space left" error, never
//   "this is a bug in Lore" or an SQL syntax error, and the same owner saves again once space returns;
// - a read-only data directory (the tmpfs remounted read-only) still serves list, get and recall, and
//   doctor says the folder is read-only;
// - a stale lock written under another host name, or by a killed but unreaped (zombie) process, is
//   taken over, and doctor does not call its owner running;
// - 32 CLI writes started together with no owner all succeed (they take turns; no STORE_BUSY).
// The disk tests mount a tmpfs, which needs root (CAP_SYS_ADMIN); elsewhere they are skipped, saying so.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { storePaths } from '../../src/host/dataDir';
import { processStartMark } from '../../src/host/ownerLock';
import { inParallel, makeSpace, ok, runCli, runCliAsync, type CliResult, type CliSpace } from '../support/cli';
import { startServe, type ServeProcess } from '../support/processes';
import { tempDir } from '../support/store';

/** Mounts a tmpfs of `kib` KiB at a new folder; undefined where this process may not mount. */
function mountTmpfs(kib: number): string | undefined {
  const dir = tempDir('lore-e2e-disk-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0 ? dir : undefined;
}

function remount(dir: string, mode: 'ro' | 'rw'): void {
  const r = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, `remount ${mode}: ${r.stderr}`);
}

function unmount(dir: string): void {
  spawnSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Writes zeros into `file` until the disk under it refuses with ENOSPC. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
}

/** Waits until the owner has written its port into owner.json (clients find it there). */
async function published(ownerFile: string): Promise<number> {
  for (let i = 0; i < 600; i++) {
    try {
      const port = JSON.parse(readFileSync(ownerFile, 'utf8')).port;
      if (port) return port;
    } catch {
      // not there yet
    }
    await delay(100);
  }
  throw new Error(`${ownerFile} never named a port`);
}

function assertClearNoSpace(r: CliResult, what: string): void {
  assert.equal(r.code, 1, `${what} fails; stdout ${r.stdout} stderr ${r.stderr}`);
  assert.match(r.stderr, /no space left/, `${what}: says the disk is full`);
  assert.doesNotMatch(r.stderr, /bug in Lore|syntax error|unexpected error|rollback/i, `${what}: ${r.stderr}`);
}

const remember = (space: CliSpace, title: string, body = 'b') =>
  space.lore('remember', '--json', '--type', 'fact', '--title', title, '--description', 'd', '--body', body);

describe('faults recover (disk full, read-only disk, stale locks, writes started together)', function () {
  this.timeout(600_000);

  describe('on a real tmpfs', () => {
    let disk: string | undefined;
    let space: CliSpace;
    let serve: ServeProcess | undefined;

    beforeEach(function () {
      disk = mountTmpfs(4096);
      if (!disk) this.skip(); // mounting needs root: the fault cannot be made real here
      space = makeSpace('lore-e2e-faults-');
      mkdirSync(join(disk!, 'home'));
      space.home = join(disk!, 'home');
      const home = space.home;
      // The store lives on the tmpfs: `lore` runs with that home.
      space.lore = (...args) => runCli(args, { home, workspace: space.workspace });
      space.paths = () => storePaths(space.workspace, home);
      ok(remember(space, 'Seed fact', 'hello from before the fault'), 'seed');
    });
    afterEach(async () => {
      await serve?.stop();
      serve = undefined;
      if (disk) {
        spawnSync('mount', ['-o', 'remount,rw', disk]);
        unmount(disk);
      }
      space?.cleanup();
    });

    it('disk full: a clear "no space left" error, and the running owner saves again once space returns', async () => {
      serve = await startServe({
        home: space.home,
        workspace: space.workspace,
        env: { ...process.env, LORE_HOME: space.home },
      });
      const ownerFile = space.paths().owner;
      await published(ownerFile);
      const ownerPid = JSON.parse(readFileSync(ownerFile, 'utf8')).pid;
      assert.equal(ownerPid, serve.child.pid, 'the CLI talks to lore serve');

      const filler = join(disk!, 'filler');
      fillDisk(filler);
      // Several writes in a row: the first failure must not wedge the owner for the next ones.
      for (let i = 0; i < 3; i++) assertClearNoSpace(remember(space, `Big ${i}`, 'x'.repeat(12_000)), `write ${i}`);
      const listed = ok(space.lore('list', '--json'), 'list on a full disk');
      assert.deepEqual(
        listed.json.items.map((m: { key: string }) => m.key),
        ['fact/seed-fact'],
      );

      rmSync(filler);
      const saved = ok(remember(space, 'After the disk was freed', 'x'.repeat(12_000)), 'write after space returns');
      assert.equal(saved.json.saved, true);
      assert.equal(serve.child.exitCode, null, 'the owner kept running');
      assert.equal(JSON.parse(readFileSync(ownerFile, 'utf8')).pid, ownerPid, 'the same owner served it');
      const keys = ok(space.lore('list', '--json'))
        .json.items.map((m: { key: string }) => m.key)
        .sort();
      assert.deepEqual(keys, ['fact/after-the-disk-was-freed', 'fact/seed-fact']);
      assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true, 'the audit chain is whole');
    });

    it('disk full with no owner running: the same clear error from a CLI that opens the store itself', () => {
      const filler = join(disk!, 'filler');
      fillDisk(filler);
      assertClearNoSpace(remember(space, 'Big', 'x'.repeat(12_000)), 'a CLI write');
      rmSync(filler);
      ok(remember(space, 'Saved later'), 'a write once space returns');
      assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true);
    });

    it('a read-only data directory still serves list, get and recall; doctor says read-only; a save is refused', () => {
      remount(disk!, 'ro');
      const list = ok(space.lore('list', '--json'), 'list');
      assert.deepEqual(
        list.json.items.map((m: { key: string }) => m.key),
        ['fact/seed-fact'],
      );
      const got = ok(space.lore('get', '--json', 'fact/seed-fact'), 'get');
      assert.match(JSON.stringify(got.json), /hello from before the fault/);
      const recalled = ok(space.lore('recall', '--json', 'hello before the fault'), 'recall');
      assert.deepEqual(
        recalled.json.results.map((h: { key: string }) => h.key),
        ['fact/seed-fact'],
      );
      const doctor = space.lore('doctor', '--json');
      const folder = doctor.json.checks.find((c: { name: string }) => c.name === 'data folder');
      assert.ok(folder, `doctor names the data folder: ${doctor.stdout}`);
      assert.match(folder.detail, /read-only/);
      assert.ok(
        doctor.json.checks.some((c: { name: string; ok: boolean }) => c.name === 'records' && c.ok),
        'doctor still checks the records',
      );
      const refused = remember(space, 'Not saved');
      assert.equal(refused.code, 1);
      assert.equal(refused.json?.error?.code, 'STORE_READ_ONLY');
      assert.match(refused.stderr, /read-only/);
    });
  });

  describe('stale locks', () => {
    let space: CliSpace;
    beforeEach(() => {
      space = makeSpace('lore-e2e-stale-');
      ok(remember(space, 'Seed fact'), 'seed');
    });
    afterEach(() => space.cleanup());

    function writeOwner(fields: Record<string, unknown>): void {
      const owner = {
        pid: 1,
        host: 'other-host',
        port: null,
        token: 'f'.repeat(64),
        door: 'serve',
        started_at: new Date().toISOString(),
        ...fields,
      };
      writeFileSync(space.paths().owner, JSON.stringify(owner, null, 2) + '\n', { mode: 0o600 });
    }

    function ownerLine(): string {
      const doctor = space.lore('doctor', '--json');
      return doctor.json.checks.find((c: { name: string }) => c.name === 'owner').detail;
    }

    it('a lock written on this machine under another host name, by a process that is gone, is taken over', function () {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      const mark = processStartMark(process.pid);
      if (!mark) this.skip(); // no /proc: no boot id to tell this machine by
      writeOwner({ pid: dead, host: 'renamed-container', process_start: `${mark!.split(':')[0]}:1` });
      assert.match(ownerLine(), /is gone/);
      ok(remember(space, 'After the rename'), 'a write takes the lock over');
      assert.ok(!existsSync(space.paths().owner), 'and releases it when done');
    });

    it("another machine's lock holds while it is refreshed and is taken over once it goes stale", () => {
      writeOwner({ pid: process.pid, host: 'other-machine', process_start: 'another-boot:1' });
      assert.match(ownerLine(), /is running/);
      const busy = remember(space, 'Blocked');
      assert.equal(busy.json?.error?.code, 'STORE_BUSY');
      // Its owner stopped refreshing the lock (mtime) ten minutes ago: it is gone.
      const old = new Date(Date.now() - 10 * 60_000);
      spawnSync('touch', ['-d', old.toISOString(), space.paths().owner]);
      assert.match(ownerLine(), /is gone/);
      ok(remember(space, 'After the other machine'), 'the stale lock is taken over');
    });

    it('a killed, unreaped (zombie) owner is gone: doctor says so and a write takes its lock over', async function () {
      // The forked child exits at once; its parent sleeps and never waits for it: a zombie.
      const script =
        'import os, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(600)';
      const parent = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const pid = Number((await new Promise<Buffer>((r) => parent.stdout!.once('data', r))).toString().trim());
        let state = '';
        for (let i = 0; i < 100 && state !== 'Z'; i++) {
          await delay(50);
          state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] ?? '';
        }
        if (state !== 'Z') this.skip(); // no /proc here
        assert.doesNotThrow(() => process.kill(pid, 0), 'a zombie still answers kill(pid, 0)');
        writeOwner({ pid, host: hostname(), process_start: processStartMark(pid) ?? undefined });
        assert.match(ownerLine(), /is gone/);
        ok(remember(space, 'After the zombie'), 'a write takes the lock over');
      } finally {
        parent.kill('SIGKILL');
      }
    });
  });

  it('32 CLI writes started together with no owner all succeed, none STORE_BUSY', async () => {
    const space = makeSpace('lore-e2e-together-');
    try {
      ok(remember(space, 'Seed fact'), 'seed');
      const titles = Array.from({ length: 32 }, (_, i) => `Written together ${i}`);
      const results = await inParallel(titles, 32, (title) =>
        runCliAsync(['--json', 'remember', '--type', 'fact', '--title', title, '--description', 'd'], {
          home: space.home,
          workspace: space.workspace,
          timeoutMs: 580_000,
        }),
      );
      const failed = results.filter((r) => r.code !== 0).map((r) => r.stderr.trim());
      assert.deepEqual(failed, [], 'every write succeeded');
      const listed = ok(space.lore('list', '--json', '--limit', '100')).json;
      assert.equal(listed.total, 33);
      assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true);
    } finally {
      space.cleanup();
    }
  });
});
