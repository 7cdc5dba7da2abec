// Many writers through the engine on one PostgreSQL store (issue 28, "Many writers on many
// machines, nothing lost"): 8 processes, each an engine with its own key and local store as on
// another machine, save versions of 6 shared records with the version each read. Every
// acknowledged save is the version it was acknowledged as, with its content; every refusal names
// a winner some writer's acknowledged save made; the audit chain verifies. The suite runs 8 × 30;
// LORE_PG_FULL=1 runs the 8 × 500.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Engine } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { openPostgresMemoryStore } from '../../src/host/store/postgres/postgresMemoryStore';
import { postgresMissing } from '../support/bothStores';
import type { EngineWriterLine } from '../support/engineWriter';
import { freshDatabase, sharedCluster } from '../support/postgres';
import { tempDir } from '../support/store';
import { startWriters, stopWriters } from '../support/writerProcess';

const FULL = process.env.LORE_PG_FULL === '1';
const WRITERS = 8;
const COUNT = FULL ? 500 : 30;
const KEYS = 6;

describe('PostgreSQL store: many writers through the engine', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(FULL ? 1_800_000 : 600_000);
  after(stopWriters);

  const title =
    `${WRITERS} engine processes × ${COUNT} contended saves: nothing acknowledged is lost, ` +
    'every lost race names its winner, the chain verifies';
  it(title, async () => {
    // A busy test machine starts 8 processes at once: connecting may take longer than the 4 s default.
    const database = await freshDatabase(await sharedCluster(), `lore_engine_writers_${process.pid}`);
    const url = `${database}?connect_timeout=30`;
    const remote = 'https://example.invalid/team/contended.git';
    const writers = await startWriters<EngineWriterLine>(
      'test/support/engineWriter.ts',
      Array.from({ length: WRITERS }, (_, writer) => ({ url, remote, writer, count: COUNT, keys: KEYS })),
    );
    await Promise.all(writers.map((w) => w.done));
    const lines = writers.flatMap((w) => w.lines);
    const acks = lines.filter((l) => l.type === 'ack');
    const refusals = lines.filter((l) => l.type === 'refused');
    assert.equal(acks.length + refusals.length, WRITERS * COUNT, 'every save was answered');
    assert.ok(refusals.length > 0, 'no save lost a race: the keys were not contended');

    // Each key's acknowledged versions run 1..n, each acknowledged once: none lost, none doubled.
    const byKey = new Map<string, Map<number, string>>();
    for (const ack of acks) {
      const versions = byKey.get(ack.key) ?? new Map<number, string>();
      assert.ok(!versions.has(ack.version), `${ack.key} v${ack.version} was acknowledged twice`);
      byKey.set(ack.key, versions.set(ack.version, ack.body));
    }
    for (const [key, versions] of byKey)
      assert.deepEqual(
        [...versions.keys()].sort((a, b) => a - b),
        [...versions.keys()].map((_, i) => i + 1),
        key,
      );

    // Every refusal names a winner: a version some writer's acknowledged save made, with its content.
    for (const r of refusals) {
      assert.ok(r.winner !== null && r.winner !== r.expected, JSON.stringify(r));
      assert.equal(byKey.get(r.key)?.get(r.winner), r.winnerBody, `refusal of ${r.key} names a winner no save made`);
    }

    // Read back by a fresh engine, as another machine: each key's current version is its newest
    // acknowledged one, with that save's content; the audit chain verifies with one event per save.
    const shared = openPostgresMemoryStore(parsePostgresSettings(url), remote, 'test');
    const db = new WasmSqlDatabase(join(tempDir(), 'lore.db'));
    try {
      const reader = new Engine({ db, memoryStore: shared });
      for (const [key, versions] of byKey) {
        const { memory } = reader.get(key);
        assert.equal(memory.version, versions.size, key);
        assert.equal(memory.body, versions.get(versions.size), key);
      }
      const verdict = reader.verifyAudit();
      assert.deepEqual(verdict.problems, []);
      assert.ok(verdict.ok);
      assert.equal(verdict.events, acks.length, 'one audit event per acknowledged save');
    } finally {
      shared.close();
      db.close();
    }
  });
});
