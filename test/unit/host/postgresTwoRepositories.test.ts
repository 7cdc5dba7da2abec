// Two repositories' engines in one process on one shared store (an owner serving two workspaces,
// or the store matrix): `repository()` gives a scope over the same connection, and each engine's
// reads and writes stay in its own repository, whichever scope was opened last.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from 'pg';
import { Engine } from '../../../src/engine';
import { WasmSqlDatabase } from '../../../src/host/sqlite';
import { parsePostgresSettings } from '../../../src/host/store/postgres/connectionSettings';
import {
  openPostgresMemoryStore,
  type PostgresMemoryStore,
} from '../../../src/host/store/postgres/postgresMemoryStore';
import { postgresMissing } from '../../support/bothStores';
import { freshDatabase, sharedCluster } from '../../support/postgres';
import { TestClock, memory, person, tempDir } from '../../support/store';

describe('two repositories in one process on the shared store', function () {
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  this.timeout(120_000);
  let url = '';
  let first: PostgresMemoryStore;
  const opened: WasmSqlDatabase[] = [];
  const engineOn = (store: PostgresMemoryStore) => {
    const db = new WasmSqlDatabase(join(tempDir(), 'lore.db'));
    opened.push(db);
    return new Engine({ db, clock: new TestClock(), memoryStore: store });
  };

  before(async () => {
    url = await freshDatabase(await sharedCluster(), `lore_two_repos_${process.pid}`);
    first = openPostgresMemoryStore(parsePostgresSettings(url), 'https://example.invalid/team/alpha.git', 'test');
  });
  after(() => {
    opened.forEach((db) => db.close());
    first?.close();
  });

  it('writes land in the engine’s own repository, whichever was opened last', async () => {
    const alpha = engineOn(first);
    const beta = engineOn(first.repository('https://example.invalid/team/beta.git'));
    const a = alpha.remember(person, memory({ title: 'Alpha uses Postgres for jobs' }));
    const b = beta.remember(person, memory({ title: 'Beta uses Redis for jobs' }));
    assert.ok(a.saved && b.saved);
    assert.deepEqual(
      alpha.list().items.map((m) => m.title),
      ['Alpha uses Postgres for jobs'],
    );
    assert.deepEqual(
      beta.list().items.map((m) => m.title),
      ['Beta uses Redis for jobs'],
    );
    // A third scope opened after both changes neither.
    engineOn(first.repository('https://example.invalid/team/gamma.git'));
    const again = alpha.remember(person, memory({ title: 'Alpha runs migrations at deploy' }));
    assert.ok(again.saved);
    assert.equal(alpha.list().items.length, 2);
    assert.ok(alpha.verifyAudit().ok, 'alpha’s audit chain');
    assert.ok(beta.verifyAudit().ok, 'beta’s audit chain');

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query(
        'SELECT r.remote, m.title FROM lore.memories m JOIN lore.repositories r ON r.id = m.repo_id ORDER BY m.id',
      );
      assert.deepEqual(rows.rows, [
        { remote: 'example.invalid/team/alpha', title: 'Alpha uses Postgres for jobs' },
        { remote: 'example.invalid/team/beta', title: 'Beta uses Redis for jobs' },
        { remote: 'example.invalid/team/alpha', title: 'Alpha runs migrations at deploy' },
      ]);
    } finally {
      await client.end();
    }
  });

  it('recall on each engine finds only its own repository’s memories', async () => {
    const alpha = engineOn(first);
    engineOn(first.repository('https://example.invalid/team/beta.git'));
    const found = await alpha.recall({ query: 'jobs', limit: 10 });
    const titles = found.results.map((r) => (r.record === 'memory' ? r.title : r.path)).sort();
    assert.deepEqual(titles, ['Alpha runs migrations at deploy', 'Alpha uses Postgres for jobs']);
  });
});
