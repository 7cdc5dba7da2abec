// The store matrix: a suite written once runs against the SQLite store and a PostgreSQL store, with
// the same assertions. The PostgreSQL side starts its own cluster (postgres.ts), gives each test a
// repository of its own in one database, and is skipped — saying why — only when no PostgreSQL ≥ 15
// is installed (CI installs it). A test reaches each store's rows only through `editRow`, the one
// way it changes a row behind Lore's back (to show the change is caught on both).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Engine } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { openPostgresMemoryStore, type PostgresMemoryStore } from '../../src/host/store/postgres/postgresMemoryStore';
import { freshDatabase, sharedCluster } from './postgres';
import { TestClock, openTestStore, tempDir } from './store';

export interface StoreUnderTest {
  kind: 'sqlite' | 'postgresql';
  engine: Engine;
  clock: TestClock;
  /** Sets a column of a key's current row directly in the store, as someone editing the database would. */
  editRow(key: string, column: 'body' | 'status', value: string): Promise<void>;
}

/** Why the PostgreSQL side cannot run here, or undefined when it can. */
export function postgresMissing(): string | undefined {
  const root = '/usr/lib/postgresql';
  const found = existsSync(root)
    ? readdirSync(root).filter((v) => Number(v) >= 15 && existsSync(join(root, v, 'bin', 'initdb')))
    : [];
  return found.length ? undefined : 'PostgreSQL ≥ 15 is not installed (apt-get install -y postgresql, as .ci/run does)';
}

let repositories = 0;

export function describeBothStores(title: string, suite: (open: () => StoreUnderTest) => void): void {
  describe(`${title} [SQLite]`, () => {
    let current: ReturnType<typeof openTestStore> | undefined;
    afterEach(() => current?.cleanup());
    suite(() => {
      const s = (current = openTestStore());
      return {
        kind: 'sqlite',
        engine: s.engine,
        clock: s.clock,
        editRow: async (key, column, value) => {
          s.db.run(`UPDATE memories SET ${column} = ? WHERE key = ? AND is_current = 1`, [value, key]);
        },
      };
    });
  });

  describe(`${title} [PostgreSQL]`, function () {
    const missing = postgresMissing();
    if (missing) {
      it(`is skipped: ${missing}`, function () {
        this.skip();
      });
      return;
    }
    this.timeout(120_000);
    let url = '';
    let shared: PostgresMemoryStore | undefined;
    let local: WasmSqlDatabase | undefined;
    before(async () => {
      const cluster = await sharedCluster();
      url = await freshDatabase(cluster, `lore_matrix_${process.pid}_${++repositories}`);
      shared = openPostgresMemoryStore(parsePostgresSettings(url), 'https://example.invalid/matrix/first.git', 'test');
    });
    after(() => shared?.close());
    afterEach(() => local?.close());
    suite(() => {
      const remote = `https://example.invalid/matrix/repo-${++repositories}.git`;
      const store = shared!.repository(remote);
      const clock = new TestClock();
      // The engine's own store for what is not shared yet (docs index, Inbox, drift, authors).
      local = new WasmSqlDatabase(join(tempDir(), 'lore.db'));
      const engine = new Engine({ db: local, clock, memoryStore: store });
      return {
        kind: 'postgresql',
        engine,
        clock,
        editRow: async (key, column, value) => {
          const client = new Client({ connectionString: url, options: '-c search_path=lore' });
          await client.connect();
          try {
            await client.query(
              `UPDATE memories SET ${column} = $1 WHERE key = $2 AND is_current = 1 AND repo_id = ` +
                '(SELECT id FROM repositories WHERE remote = $3)',
              [value, key, store.remote],
            );
          } finally {
            await client.end();
          }
        },
      };
    });
  });
}
