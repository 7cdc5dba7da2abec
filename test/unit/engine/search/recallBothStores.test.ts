// Recall on the shared PostgreSQL store ranks as recall on SQLite does (issue 28, "Search in the
// database"): the same corpus saved into each, the same questions, the same top 10 in the same
// order, and the record each question is about first. PostgreSQL finds the candidates with its
// weighted tsvector and counts the document frequencies; the engine scores both alike. Also: a
// save on the shared store is warned of a dead end and a contradiction its memories hold.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Engine } from '../../../../src/engine';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
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
