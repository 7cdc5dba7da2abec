// Recall on the shared PostgreSQL store ranks as recall on SQLite does (issue 28, "Search in the
// database"): the same corpus saved into each, the same questions, the same top 10 in the same
// order, and the record each question is about first. PostgreSQL finds the candidates with its
// weighted tsvector and counts the document frequencies; the engine scores both alike. Also: a
// save on the shared store is warned of a dead end and a contradiction its memories hold.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from 'pg';
import { makeTinyModel } from '../../../../scripts/makeTinyModel';
import { Engine } from '../../../../src/engine';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { createInProcessEmbedder, type InProcessEmbedder } from '../../../../src/host/embed/inProcessEmbedder';
import { isEmbedderUnavailable } from '../../../../src/host/embed/transformersEmbedder';
import { parsePostgresSettings } from '../../../../src/host/store/postgres/connectionSettings';
import {
  openPostgresMemoryStore,
  type PostgresMemoryStore,
} from '../../../../src/host/store/postgres/postgresMemoryStore';
import { postgresMissing } from '../../../support/bothStores';
import { freshDatabase, sharedCluster } from '../../../support/postgres';
import { TestClock, openTestStore, person, tempDir, type TestStore } from '../../../support/store';
import { CORPUS, QUESTIONS } from '../../../fixtures/recall-corpus/corpus';

async function top10(engine: Engine, query: string): Promise<string[]> {
  const { results, refused } = await engine.recall({ query, limit: 10 });
  assert.deepEqual(refused, [], `${query}: a record was refused`);
  return results.map((r) => `${r.key} ${r.score.total}`);
}

describe('recall on PostgreSQL ranks as on SQLite', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(180_000);
  let sqlite: TestStore;
  let shared: PostgresMemoryStore;
  let local: WasmSqlDatabase;
  let pg: Engine;

  before(async () => {
    const url = await freshDatabase(await sharedCluster(), `lore_recall_${process.pid}`);
    shared = openPostgresMemoryStore(parsePostgresSettings(url), 'https://example.invalid/team/recall.git', 'test');
    sqlite = openTestStore();
    local = new WasmSqlDatabase(join(tempDir(), 'lore.db'));
    pg = new Engine({ db: local, clock: new TestClock(), memoryStore: shared });
    for (const input of CORPUS) {
      assert.equal(sqlite.engine.remember(person, input).saved, true);
      assert.equal(pg.remember(person, input).saved, true);
    }
  });
  after(() => {
    shared?.close();
    local?.close();
    sqlite?.cleanup();
  });

  for (const { query, first } of QUESTIONS) {
    it(`"${query}": the same top 10, ${first} first`, async () => {
      const expected = await top10(sqlite.engine, query);
      const found = await top10(pg, query);
      assert.ok(expected.length >= 3, `${query}: SQLite found only ${expected.length}`);
      assert.deepEqual(found, expected);
      assert.equal(found[0].split(' ')[0], first);
    });
  }

  it('filters by type and reads what was valid at an instant the same way', async () => {
    const input = { query: 'postgres database', types: ['runbook', 'incident'], limit: 10 };
    const keys = async (engine: Engine, extra = {}) =>
      (await engine.recall({ ...input, ...extra })).results.map((r) => r.key);
    assert.deepEqual(await keys(pg), await keys(sqlite.engine));
    assert.ok((await keys(pg)).every((k) => /^(runbook|incident)\//.test(k)));
    const asOf = { as_of: '2026-01-01T00:00:00.000Z' };
    assert.deepEqual(await keys(pg, asOf), await keys(sqlite.engine, asOf));
    assert.ok((await keys(pg, asOf)).length > 0);
  });

  it('warns a save on the shared store of the dead end it resembles, as on SQLite', () => {
    const draft = {
      type: 'decision' as const,
      title: 'Use RabbitMQ for background jobs',
      description: 'Move the job queue to RabbitMQ',
      body: 'A broker for the job queue.',
      provenance: { source: 'user' as const, client: 'test' },
    };
    const onSqlite = sqlite.engine.remember(person, draft);
    const onPg = pg.remember(person, draft);
    assert.ok(onPg.saved && onSqlite.saved);
    const warned = (r: typeof onPg) => (r.saved ? (r.warnings?.dead_ends ?? []).map((d) => d.key) : []);
    assert.deepEqual(warned(onPg), ['dead_end/rabbitmq-for-background-jobs']);
    assert.deepEqual(warned(onPg), warned(onSqlite));
  });

  it('warns a save on the shared store of a record it contradicts, as on SQLite', () => {
    const draft = {
      type: 'convention' as const,
      title: 'Deploys go out on Thursdays now',
      description: 'Production deploys are released on Thursday',
      body: 'Moved to give the Monday release review time.',
      provenance: { source: 'user' as const, client: 'test' },
    };
    const contradicted = (r: ReturnType<Engine['remember']>) =>
      r.saved ? (r.warnings?.contradictions ?? []).map((c) => `${c.key} ${c.value_kind}`) : [];
    const onPg = contradicted(pg.remember(person, draft));
    assert.ok(onPg.length > 0, 'no contradiction was found on the shared store');
    assert.deepEqual(onPg, contradicted(sqlite.engine.remember(person, draft)));
  });
});

// Hybrid recall (issue 28, point 4): the generated test model embeds the same corpus on each store.
// PostgreSQL keeps the memories' vectors itself (float32 bytes, the sign code around the model's
// centre, the vector's seal) and ranks them as SQLite does: the codes nearest the query's, then
// exact cosine. Without pgvector (Debian's postgresql-15 has none) this is the path every server has.
describe('hybrid recall on PostgreSQL ranks as on SQLite (generated model)', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(300_000);
  const remote = 'https://example.invalid/team/hybrid.git';
  let url = '';
  let modelDir = '';
  let embedder: InProcessEmbedder;
  let sqlite: TestStore;
  let shared: PostgresMemoryStore;
  let local: WasmSqlDatabase;
  let pg: Engine;

  const embedAll = async (engine: Engine) => {
    const run = engine.index(new WorkspaceFileSource(tempDir()));
    for (let step = await run.next(); !step.done; step = await run.next());
  };
  const scored = async (engine: Engine, query: string) => {
    const found = await engine.recall({ query, limit: 10 });
    assert.deepEqual(found.refused, [], `${query}: a record was refused`);
    assert.equal(found.vectors, true, `${query}: recall did not use vectors`);
    return found.results.map((r) => `${r.key} ${JSON.stringify(r.score)}`);
  };

  before(async () => {
    modelDir = tempDir('lore-pg-model-');
    const model = makeTinyModel(modelDir, { dtypes: ['fp32'] });
    const made = await createInProcessEmbedder({ modelDir, modelName: model.name, dtype: 'fp32', batchSize: 8 });
    if (isEmbedderUnavailable(made)) assert.fail(made.reason);
    embedder = made;
    url = await freshDatabase(await sharedCluster(), `lore_hybrid_${process.pid}`);
    shared = openPostgresMemoryStore(parsePostgresSettings(url), remote, 'test');
    sqlite = openTestStore();
    sqlite.engine.useEmbedder(embedder);
    local = new WasmSqlDatabase(join(tempDir(), 'lore.db'));
    pg = new Engine({ db: local, clock: new TestClock(), memoryStore: shared, embedder });
    for (const input of CORPUS) {
      assert.equal(sqlite.engine.remember(person, input).saved, true);
      assert.equal(pg.remember(person, input).saved, true);
    }
  });
  after(async () => {
    shared?.close();
    local?.close();
    sqlite?.cleanup();
    await embedder?.close();
  });

  it('embeds the shared store’s memories into it: each current version once, with its code and seal', async () => {
    assert.equal(pg.indexStatus().pending, CORPUS.length);
    await embedAll(pg);
    await embedAll(sqlite.engine);
    assert.equal(pg.indexStatus().pending, 0);
    // None landed in the engine's local store: they are the shared store's.
    assert.equal(local.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_vectors')?.n, 0);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const found = await client.query(
        'SELECT COUNT(*)::int AS n, COUNT(v.code)::int AS codes, COUNT(v.seal_signature)::int AS seals, ' +
          'MIN(v.dims) AS dims FROM lore.memory_vectors v JOIN lore.memories m ON m.id = v.memory_id ' +
          'JOIN lore.repositories r ON r.id = m.repo_id WHERE r.remote = $1 AND v.model = $2',
        [shared.remote, embedder.modelId],
      );
      assert.deepEqual(found.rows[0], { n: CORPUS.length, codes: CORPUS.length, seals: CORPUS.length, dims: 32 });
      const centre = await client.query('SELECT dims FROM lore.vector_centres WHERE model = $1', [embedder.modelId]);
      assert.deepEqual(centre.rows, [{ dims: 32 }]);
    } finally {
      await client.end();
    }
  });

  for (const { query } of QUESTIONS) {
    it(`"${query}": the same top 10 with the same lexical and vector scores`, async () => {
      const expected = await scored(sqlite.engine, query);
      assert.ok(expected.length >= 3, `${query}: SQLite found only ${expected.length}`);
      assert.deepEqual(await scored(pg, query), expected);
    });
  }

  it('finds by meaning alone on both stores (a question sharing no word with the corpus)', async () => {
    const query = 'zzyzx qwv';
    const onSqlite = await scored(sqlite.engine, query);
    assert.ok(onSqlite.length > 0, 'SQLite found nothing by vector');
    assert.deepEqual(await scored(pg, query), onSqlite);
  });

  it('a memory saved after the index is pending until embedded, then found by its vector', async () => {
    const draft = {
      type: 'runbook' as const,
      title: 'Rotate the ingress certificate',
      description: 'How the ingress certificate is rotated before it expires',
      body: 'Run the rotation job, then check the expiry date on the load balancer.',
      provenance: { source: 'user' as const, client: 'test' },
    };
    assert.equal(pg.remember(person, draft).saved, true);
    assert.equal(sqlite.engine.remember(person, draft).saved, true);
    assert.equal(pg.indexStatus().pending, 1);
    await embedAll(pg);
    await embedAll(sqlite.engine);
    assert.equal(pg.indexStatus().pending, 0);
    const query = 'ingress certificate rotation';
    assert.deepEqual(await scored(pg, query), await scored(sqlite.engine, query));
  });
});
