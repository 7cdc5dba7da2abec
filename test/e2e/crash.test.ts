// kill -9 in the middle of a large write transaction, then a reopen.
//
// A child process (test/support/crashWriter.ts) opens the store through openStore, commits some
// memories, then starts one big engine.batch of remember calls and says so on stdout once SQLite
// has spilled uncommitted pages into the database file. The parent SIGKILLs it on that line (an
// event, never a timer), snapshots the files the crash left, and then:
//   - checks the crash really left a hot journal and uncommitted pages in the file (so the
//     recovery tests cannot pass vacuously);
//   - reopens through openStore (dead owner taken over, stale VFS lock cleared, hot journal rolled
//     back) and checks integrity, that every committed row is there and no killed row is, that
//     the audit chain verifies and that a new write works;
//   - opens copies of the crash snapshot with the installed (patched) node-sqlite3-wasm and with
//     an unpatched copy of it, to show the crash-recovery fix is what makes the difference.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { storePaths, type StorePaths } from '../../src/host/dataDir';
import { openStore } from '../../src/host/openStore';
import { isProcessAlive, readOwner } from '../../src/host/ownerLock';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { person, tempDir } from '../support/store';
import {
  COMMITTED_KEY_PREFIX,
  KILLED_KEY_PREFIX,
  KILLED_ONLY_TERM,
  type CrashWriterOptions,
  type MidTransactionSignal,
} from '../support/crashWriter';

type SqliteWasm = typeof import('node-sqlite3-wasm');

const ROOT = resolve(__dirname, '../..');
const WRITER = join(ROOT, 'test/support/crashWriter.ts');
const COMMITTED = 150;
const SIGNAL_AFTER = 2000;
/** What scripts/patchSqliteWasm.mjs inserts at the top of _nodejsCheckReservedLock. */
const FIX = 'if(_isLocked(fi)){setValue(outResult,0,"i32");return SQLITE_OK}';

interface KillOutcome {
  signal: MidTransactionSignal;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
}

/** Runs the writer and SIGKILLs it the moment it reports being mid-transaction. */
async function runAndKill(options: CrashWriterOptions, track: (child: ChildProcess) => void): Promise<KillOutcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const firstLine = new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    void exited.then(({ code, signal }) =>
      fail(new Error(`the crash writer ended (code ${code}, signal ${signal}) before signalling:\n${stderr}`)),
    );
  });
  const line = await firstLine;
  child.kill('SIGKILL');
  const { code, signal } = await exited;
  return { signal: JSON.parse(line) as MidTransactionSignal, exitCode: code, exitSignal: signal };
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

interface Inspection {
  integrity: string;
  committed: number;
  killed: number;
  error?: string;
  journalLeft: boolean;
}

/** Opens a database file with a given build of node-sqlite3-wasm and reports what it sees. */
function inspect(sqlite: SqliteWasm, path: string): Inspection {
  const seen: Inspection = { integrity: '', committed: -1, killed: -1, journalLeft: false };
  const db = new sqlite.Database(path);
  try {
    seen.integrity = db
      .all('PRAGMA integrity_check')
      .map((row) => String(row.integrity_check))
      .join('\n');
    const counts = db.get('SELECT SUM(key LIKE ?) AS committed, SUM(key LIKE ?) AS killed FROM memories', [
      `${COMMITTED_KEY_PREFIX}%`,
      `${KILLED_KEY_PREFIX}%`,
    ]) as { committed: number; killed: number };
    seen.committed = counts.committed;
    seen.killed = counts.killed;
  } catch (error) {
    seen.error = String(error);
  } finally {
    db.close();
  }
  seen.journalLeft = existsSync(`${path}-journal`);
  return seen;
}

/** node-sqlite3-wasm as published, without Lore's fix: a copy of the installed build with the fix taken out. */
function loadUnpatchedSqlite(dir: string): SqliteWasm {
  const installed = require.resolve('node-sqlite3-wasm');
  const source = readFileSync(installed, 'utf8');
  assert.equal(
    source.split(FIX).length,
    2,
    `the installed node-sqlite3-wasm should carry the crash-recovery fix once (${installed}); run npm install`,
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'node-sqlite3-wasm.js'), source.replace(FIX, ''));
  copyFileSync(join(dirname(installed), 'node-sqlite3-wasm.wasm'), join(dir, 'node-sqlite3-wasm.wasm'));
  return require(join(dir, 'node-sqlite3-wasm.js')) as SqliteWasm;
}

describe('kill -9 in the middle of a large write transaction', function () {
  this.timeout(120_000);

  let workspace: string;
  let home: string;
  let scratch: string;
  let paths: StorePaths;
  let outcome: KillOutcome;
  let child: ChildProcess | undefined;
  /** What the crash left on disk, recorded before anything reopens the store. */
  let left: {
    databaseSize: number;
    journalSize: number;
    lockDir: boolean;
    ownerPid: number | undefined;
    ownerAlive: boolean;
  };
  let snapshot: string;

  before(async () => {
    workspace = tempDir('lore-crash-ws-');
    home = tempDir('lore-crash-home-');
    scratch = tempDir('lore-crash-scratch-');
    paths = storePaths(workspace, home);
    outcome = await runAndKill(
      { workspace, home, committed: COMMITTED, signalAfter: SIGNAL_AFTER },
      (c) => (child = c),
    );
    const owner = readOwner(paths.owner);
    left = {
      databaseSize: fileSize(paths.database),
      journalSize: fileSize(`${paths.database}-journal`),
      lockDir: existsSync(`${paths.database}.lock`),
      ownerPid: owner?.pid,
      ownerAlive: owner ? isProcessAlive(owner.pid) : false,
    };
    snapshot = join(scratch, 'snapshot');
    mkdirSync(snapshot);
    copyFileSync(paths.database, join(snapshot, 'lore.db'));
    if (left.journalSize > 0) copyFileSync(`${paths.database}-journal`, join(snapshot, 'lore.db-journal'));
  });

  after(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of [workspace, home, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function snapshotCopy(name: string): string {
    const dir = join(scratch, name);
    mkdirSync(dir);
    copyFileSync(join(snapshot, 'lore.db'), join(dir, 'lore.db'));
    copyFileSync(join(snapshot, 'lore.db-journal'), join(dir, 'lore.db-journal'));
    return join(dir, 'lore.db');
  }

  it('kills the writer mid-transaction, leaving a hot journal and uncommitted pages in the file', () => {
    assert.equal(outcome.exitSignal, 'SIGKILL');
    assert.equal(outcome.exitCode, null);
    assert.equal(outcome.signal.committed, COMMITTED);
    assert.ok(outcome.signal.pending >= SIGNAL_AFTER, `only ${outcome.signal.pending} rows were pending`);
    // The killed transaction's pages reached the database file: only the journal can undo them.
    assert.ok(
      left.databaseSize > outcome.signal.committedFileSize,
      `the database file (${left.databaseSize} bytes) should have grown ` +
        `past its committed size (${outcome.signal.committedFileSize})`,
    );
    assert.ok(left.journalSize > 0, 'a non-empty lore.db-journal should be left behind');
    // The crash also left the VFS lock directory and the dead owner's owner.json.
    assert.ok(left.lockDir, 'the VFS lock directory lore.db.lock should be left behind');
    assert.equal(left.ownerPid, outcome.signal.pid);
    assert.equal(left.ownerAlive, false);
  });

  it('reopens through openStore with the killed transaction rolled back and the committed rows intact', async () => {
    const recovered = openStore({ workspace, home, door: 'test' });
    try {
      assert.equal(readOwner(paths.owner)?.pid, process.pid, 'the reopening process should take over ownership');
      assert.equal(
        existsSync(`${paths.database}-journal`),
        false,
        'the hot journal should have been rolled back and deleted',
      );
      assert.equal(
        fileSize(paths.database),
        outcome.signal.committedFileSize,
        'the file should be back to its committed size',
      );
      const stats = recovered.engine.stats();
      assert.equal(stats.memories, COMMITTED);
      assert.equal(stats.audit_events, COMMITTED);
      const audit = recovered.engine.verifyAudit();
      assert.deepEqual(audit.problems, []);
      assert.equal(audit.ok, true);
      assert.equal(audit.events, COMMITTED);
      assert.equal((await recovered.engine.recall({ query: KILLED_ONLY_TERM })).results.length, 0);
      assert.equal((await recovered.engine.recall({ query: 'postgres job queue', limit: 50 })).results.length, 50);
    } finally {
      recovered.close();
    }
    assert.equal(existsSync(paths.owner), false);
    assert.equal(existsSync(`${paths.database}.lock`), false);

    const db = new WasmSqlDatabase(paths.database);
    try {
      assert.deepEqual(db.all('PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
      // The external-content FTS index agrees with its table (throws SQLITE_CORRUPT_VTAB otherwise).
      db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('integrity-check')");
      const count = (sql: string, params: string[] = []) => db.get<{ n: number }>(sql, params)!.n;
      assert.equal(count('SELECT COUNT(*) AS n FROM memories WHERE key LIKE ?', [`${KILLED_KEY_PREFIX}%`]), 0);
      assert.equal(
        count('SELECT COUNT(*) AS n FROM memories WHERE key LIKE ?', [`${COMMITTED_KEY_PREFIX}%`]),
        COMMITTED,
      );
      assert.equal(count('SELECT COUNT(*) AS n FROM memories'), COMMITTED);
      assert.equal(count('SELECT COUNT(*) AS n FROM memory_events'), COMMITTED);
      assert.equal(count('SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH ?', [KILLED_ONLY_TERM]), 0);
    } finally {
      db.close();
    }
  });

  it('takes a new write after recovery, with the audit chain still verifying', async () => {
    const store = openStore({ workspace, home, door: 'test' });
    try {
      const saved = store.engine.remember(person, {
        type: 'dead_end',
        title: 'Recovering a killed write by hand',
        description: 'Editing the database file after a crash corrupts it; the hot journal does the job',
        provenance: { source: 'user' },
      });
      assert.equal(saved.saved, true);
      assert.equal(store.engine.stats().memories, COMMITTED + 1);
      const audit = store.engine.verifyAudit();
      assert.equal(audit.ok, true);
      assert.equal(audit.events, COMMITTED + 1);
      assert.equal(
        (await store.engine.recall({ query: 'hot journal crash' })).results[0]?.key,
        'dead_end/recovering-a-killed-write-by-hand',
      );
    } finally {
      store.close();
    }
    const db = new WasmSqlDatabase(paths.database);
    try {
      assert.deepEqual(db.all('PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
    } finally {
      db.close();
    }
  });

  it('owes the recovery to the crash-recovery fix: unpatched node-sqlite3-wasm leaves the same files damaged', () => {
    assert.ok(existsSync(join(snapshot, 'lore.db-journal')), 'the crash snapshot needs its hot journal');
    const fixed = inspect(require('node-sqlite3-wasm') as SqliteWasm, snapshotCopy('patched'));
    assert.deepEqual(fixed, { integrity: 'ok', committed: COMMITTED, killed: 0, journalLeft: false });

    const unpatched = loadUnpatchedSqlite(join(scratch, 'unpatched-lib'));
    const broken = inspect(unpatched, snapshotCopy('unpatched'));
    // Without the fix the VFS mistakes its own lock for another writer's, so the hot journal is
    // never played back: it is still there, and the killed transaction's pages are read as data.
    assert.equal(broken.journalLeft, true, 'the unpatched build should leave the hot journal unplayed');
    assert.ok(
      broken.error !== undefined || broken.integrity !== 'ok' || broken.killed > 0,
      `the unpatched build should see a damaged store, saw ${JSON.stringify(broken).slice(0, 300)}`,
    );
  });
});
