// PostgreSQL restarted mid-write, through the engine (issue 28, "Faults"): 3 engine processes save
// contended records while the test server is stopped and started again. A save cut by the restart
// is retried by the engine with a new write id (a commit cut mid-way is looked up by its receipt),
// so: every save is answered, nothing acknowledged is lost or doubled, every lost race names a
// winner some acknowledged save made, and the audit chain verifies with one event per save. While
// the server is down a client with no retry budget is told so at once, naming host:port/database
// and never the password.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Engine, LoreError } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { openPostgresMemoryStore } from '../../src/host/store/postgres/postgresMemoryStore';
import { postgresMissing } from '../support/bothStores';
import type { EngineWriterLine } from '../support/engineWriter';
import { freshDatabase, startCluster, type TestCluster } from '../support/postgres';
import { tempDir } from '../support/store';
import { startWriters, stopWriters } from '../support/writerProcess';

const WRITERS = 3;
const COUNT = 100;
const KEYS = 4;

/** A local store that stops and starts the server as the engine enters its first nested transaction. */
class RestartInsideSave extends WasmSqlDatabase {
  private level = 0;
  constructor(
    path: string,
    private restart: (() => void) | undefined,
  ) {
    super(path);
  }
  override transaction<T>(work: () => T): T {
    this.level++;
    try {
      if (this.level === 2 && this.restart) {
        const restart = this.restart;
        this.restart = undefined;
        restart();
      }
      return super.transaction(work);
    } finally {
      this.level--;
    }
  }
}

describe('PostgreSQL restarted while engines write', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(300_000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await startCluster();
  });
  after(() => {
    stopWriters();
    cluster?.destroy();
  });

  it('every save is answered, nothing acknowledged is lost or doubled, the chain verifies', async () => {
    const url = `${await freshDatabase(cluster, 'lore_restart')}?connect_timeout=30`;
    const remote = 'https://example.invalid/team/restart.git';
    const writers = await startWriters<EngineWriterLine>(
      'test/support/engineWriter.ts',
      Array.from({ length: WRITERS }, (_, writer) => ({ url, remote, writer, count: COUNT, keys: KEYS })),
    );
    // Every writer is connected and writing (startWriters waited for each to open its store): the
    // server goes away once each has a few saves answered.
    await Promise.all(
      writers.map((w) => Promise.race([w.answered(3), w.done.then(() => assert.fail('a writer ended early'))])),
    );
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

describe('PostgreSQL restarted inside a save', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(120_000);
  let cluster: TestCluster;
  before(async () => {
    cluster = await startCluster();
  });
  after(() => cluster?.destroy());

  // The save's own transaction is nested in the engine's: the connection lost there must end the
  // whole transaction, so the retry starts afresh (kept, every later call used the dead connection).
  it('the save is retried on a fresh connection, saved once; the store keeps working', async () => {
    const url = await freshDatabase(cluster, 'lore_restart_inside');
    const remote = 'https://example.invalid/team/inside.git';
    const shared = openPostgresMemoryStore(parsePostgresSettings(url), remote, 'test', { retryForMs: 5_000 });
    const db = new RestartInsideSave(join(tempDir(), 'lore.db'), () => {
      cluster.stop();
      cluster.start();
    });
    try {
      const engine = new Engine({ db, memoryStore: shared });
      const saved = engine.remember(
        { door: 'test', name: 'inside' },
        {
          type: 'decision',
          title: 'Saved across a restart',
          description: 'A record whose save meets a restarted server',
          body: 'first body',
          expected_version: 0,
          provenance: { source: 'user', client: 'test' },
        },
      );
      assert.ok(saved.saved, JSON.stringify(saved));
      assert.equal(saved.version, 1);
      assert.equal(engine.get(saved.key).memory.body, 'first body');
      const again = engine.remember(
        { door: 'test', name: 'inside' },
        {
          type: 'decision',
          title: 'Saved across a restart',
          description: 'A record whose save meets a restarted server',
          body: 'second body',
          expected_version: 1,
          provenance: { source: 'user', client: 'test' },
        },
      );
      assert.ok(again.saved && again.version === 2, JSON.stringify(again));
      assert.deepEqual(
        engine.history(saved.key).versions.map((v) => v.version),
        [1, 2],
      );
      const verdict = engine.verifyAudit();
      assert.deepEqual(verdict.problems, []);
      assert.equal(verdict.events, 2, 'one audit event per save: the retried one is not doubled');
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
