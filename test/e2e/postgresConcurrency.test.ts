// Many writers on one PostgreSQL store (issue 28, "Many writers… nothing lost" and "Faults"), on a
// real cluster started for the run (test/support/postgres.ts):
//
// - 8 client processes save 60 versions each (LORE_PG_FULL=1: 500 each) of 12 shared keys, each
//   save carrying the version it read. Every acknowledged save is in the chain with its content and
//   no save is in it twice; every refusal names a winner that some writer's acknowledged save made;
//   each key's current row is its newest acknowledged version; the engine's verifier passes.
// - The server is stopped and started while writers save: a save while it is down fails clearly,
//   naming host:port/database; the writers' retries (same write ids) lose nothing acknowledged.

import { strict as assert } from 'node:assert';
import { LoreError } from '../../src/engine';
import { sha256 } from '../../src/engine/model/digest';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { PostgresStore } from '../../src/host/store/postgres/postgresStore';
import { freshDatabase, sharedCluster, type TestCluster } from '../support/postgres';
import { versionBuilder, verifyWithEngine } from '../support/pgRecords';
import type { WriterLine } from '../support/pgWriter';
import { startWriters, stopWriters } from '../support/writerProcess';

// The load (8 × 500) takes minutes on a busy 2-core machine; the suite runs 8 × 60 unless
// LORE_PG_FULL=1 asks for the whole load.
const QUICK = process.env.LORE_PG_FULL !== '1';

interface ChainWrite {
  version: number;
  content: string;
}

/** Checks every writer's outcomes against the store; returns the counts for the test's own assertions. */
async function checkOutcomes(
  store: PostgresStore,
  repoId: number,
  lines: WriterLine[],
): Promise<{ acks: number; refused: number }> {
  const { events } = await store.auditChain(repoId);
  const writes = new Map<string, ChainWrite[]>();
  for (const e of events) {
    if (!e.key_digest || !['memory.create', 'memory.update'].includes(e.event)) continue;
    const content = (JSON.parse(e.digests) as { content: string }).content;
    writes.set(e.key_digest, [...(writes.get(e.key_digest) ?? []), { version: e.version!, content }]);
  }
  const acks = lines.filter((l) => l.type === 'ack');
  const refusals = lines.filter((l) => l.type === 'refused');
  // Every acknowledged save is in the chain, as the version it was acknowledged as, with its content.
  const ackedBy = new Map<string, string>();
  for (const ack of acks) {
    const chain = writes.get(sha256(ack.key)) ?? [];
    const found = chain.filter((w) => w.version === ack.version);
    assert.equal(found.length, 1, `${ack.key} v${ack.version} (${ack.writeId}) is in the chain ${found.length} times`);
    assert.equal(found[0].content, ack.digest, `${ack.key} v${ack.version} holds another writer's content`);
    ackedBy.set(`${ack.key}@${ack.version}`, ack.digest);
  }
  // Each key's versions run 1..n without a gap or a repeat: no save was lost or doubled.
  for (const [digest, chain] of writes) {
    assert.deepEqual(
      chain.map((w) => w.version),
      chain.map((_, i) => i + 1),
      `versions of key digest ${digest.slice(0, 8)} have a gap or repeat`,
    );
  }
  // Every refusal names the winner: a version some writer's save made, with that save's content.
  for (const refusal of refusals) {
    assert.ok(refusal.winnerVersion !== null && refusal.winnerVersion !== refusal.expected, JSON.stringify(refusal));
    const winner = ackedBy.get(`${refusal.key}@${refusal.winnerVersion}`);
    assert.equal(winner, refusal.winnerDigest, `refusal of ${refusal.key} names a winner no save made`);
  }
  // The current row of each key is its newest version.
  const rows = await store.memoryRows(repoId);
  for (const [digest, chain] of writes) {
    const current = rows.filter((r) => sha256(r.key) === digest && r.is_current === 1);
    assert.equal(current.length, 1);
    assert.equal(current[0].version, chain.length);
    assert.equal(current[0].content_digest, chain[chain.length - 1].content);
  }
  const verdict = await verifyWithEngine(store, repoId);
  assert.deepEqual(verdict.problems, [], 'the engine verifier finds problems in the chain');
  assert.ok(verdict.ok);
  assert.equal(verdict.events, events.length);
  return { acks: acks.length, refused: refusals.length };
}

describe('PostgreSQL store: many writers', function () {
  this.timeout(QUICK ? 180_000 : 900_000);
  let cluster: TestCluster;
  let url: string;
  let store: PostgresStore;

  before(async () => {
    cluster = await sharedCluster();
    url = await freshDatabase(cluster, 'lore_concurrency');
    // No retries here: a save while the server is down must report it at once.
    store = await PostgresStore.open(parsePostgresSettings(url), { loreVersion: 'test', retryForMs: 0 });
  });
  after(async () => {
    stopWriters();
    await store?.close();
  });

  const title =
    `8 processes × ${QUICK ? 60 : 500} contended saves: every acknowledged save kept, ` +
    'every lost race refused with the winner, the chain verifies';
  it(title, async () => {
    const remote = 'git@example.test:team/contended.git';
    const count = QUICK ? 60 : 500;
    const writers = await startWriters<WriterLine>(
      'test/support/pgWriter.ts',
      Array.from({ length: 8 }, (_, writer) => ({ url, remote, writer, count, keys: 12, retryForMs: 0 })),
    );
    await Promise.all(writers.map((w) => w.done));
    const lines = writers.flatMap((w) => w.lines);
    const repo = await store.repository(remote);
    const { acks, refused } = await checkOutcomes(store, repo.id, lines);
    assert.equal(acks + refused, 8 * count, 'every save was answered');
    // The keys are contended: both outcomes happen (else this test proves nothing about races).
    assert.ok(refused > 0, 'no save lost a race');
    assert.ok(acks > 8 * 12, `only ${acks} saves were acknowledged`);
  });

  it('a server restarted mid-load: a save while down names the store; retries lose nothing acked', async () => {
    const remote = 'https://example.test/team/restart.git';
    const count = QUICK ? 80 : 200;
    const writers = await startWriters<WriterLine>(
      'test/support/pgWriter.ts',
      Array.from({ length: 3 }, (_, writer) => ({ url, remote, writer, count, keys: 6, retryForMs: 60_000 })),
    );
    const repo = await store.repository(remote);
    await Promise.all(writers.map((w) => w.acked(10)));
    cluster.stop();
    try {
      const at = new Date().toISOString();
      const down = await store
        .saveVersion(repo.id, {
          key: 'while-down',
          expectedVersion: null,
          actor: { door: 'test', name: 'parent' },
          at,
          build: versionBuilder('while-down', 'never saved', at),
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.ok(down instanceof LoreError, String(down));
      assert.equal(down.code, 'STORE_UNAVAILABLE');
      assert.match(down.message, new RegExp(`127\\.0\\.0\\.1:${cluster.port}/lore_concurrency`));
      assert.ok(!down.message.includes(cluster.password) && !(down.hint ?? '').includes(cluster.password));
    } finally {
      cluster.start();
    }
    await Promise.all(writers.map((w) => w.done));
    const lines = writers.flatMap((w) => w.lines);
    const retries = lines.reduce((n, l) => n + (l.type === 'done' ? l.retries : 0), 0);
    assert.ok(retries > 0, 'no writer noticed the restart: the test did not exercise it');
    const { acks, refused } = await checkOutcomes(store, repo.id, lines);
    assert.equal(acks + refused, 3 * count);
  });
});
