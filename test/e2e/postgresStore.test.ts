// A shared PostgreSQL store on a real cluster (test/support/postgres.ts): `lore store migrate` by
// itself, a schema newer than this Lore refused by version, an unreachable or silent server named
// in a clear error, credentials never shown, saves that lose a race get the winner and a retried
// write is not written twice, records scoped to a repository, and `lore doctor` naming the store.

import { strict as assert } from 'node:assert';
import { createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { LoreError } from '../../src/engine';
import { sha256 } from '../../src/engine/model/digest';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { PG_SCHEMA_VERSION } from '../../src/host/store/postgres/migrations';
import { PostgresStore } from '../../src/host/store/postgres/postgresStore';
import { runCli } from '../support/cli';
import { freePort, freshDatabase, sharedCluster, type TestCluster } from '../support/postgres';
import { versionBuilder, verifyWithEngine } from '../support/pgRecords';
import { tempDir } from '../support/store';

const actor = { door: 'test' as const, name: 'alice' };

async function rejection(work: Promise<unknown>): Promise<LoreError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof LoreError, `expected a LoreError, got ${String(error)}`);
  return error;
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('PostgreSQL store', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  const home = tempDir('lore-pg-home-');

  before(async () => {
    cluster = await sharedCluster();
  });

  describe('lore store migrate', () => {
    let url: string;
    before(async () => {
      url = await freshDatabase(cluster, 'lore_migrate');
    });

    it('creates the schema by itself, in its own `lore` schema, and a second run has nothing to do', async () => {
      const first = runCli(['store', 'migrate', '--store', url, '--json'], { home });
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(
        (first.json.applied as { version: number }[]).map((m) => m.version),
        Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1),
      );
      assert.ok(!first.stdout.includes(cluster.password) && !first.stderr.includes(cluster.password));
      const tables = await query<{ schemaname: string; tablename: string }>(
        url,
        "SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      );
      assert.ok(tables.length >= 14, `only ${tables.length} tables`);
      assert.deepEqual([...new Set(tables.map((t) => t.schemaname))], ['lore'], 'a table landed outside `lore`');
      for (const name of ['memories', 'memory_events', 'audit_events', 'authors', 'inbox_items', 'drift_refs', 'docs'])
        assert.ok(
          tables.some((t) => t.tablename === name),
          `no ${name} table`,
        );
      const again = runCli(['store', 'migrate', '--json'], { home, env: { LORE_STORE: url } });
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(again.json.applied, []);
      const status = runCli(['store', 'status'], { home, env: { LORE_STORE: url } });
      assert.equal(status.code, 0, status.stderr);
      assert.match(
        status.stdout,
        new RegExp(`127\\.0\\.0\\.1:${cluster.port}/lore_migrate .*schema version ${PG_SCHEMA_VERSION}`),
      );
    });

    it('two clients migrating at once apply each version once', async () => {
      const url2 = await freshDatabase(cluster, 'lore_migrate_race');
      const settings = parsePostgresSettings(url2);
      const [a, b] = await Promise.all([
        PostgresStore.open(settings, { loreVersion: 'a' }),
        PostgresStore.open(settings, { loreVersion: 'b' }),
      ]);
      await Promise.all([a.close(), b.close()]);
      const rows = await query<{ version: number }>(
        url2,
        'SELECT version FROM lore.schema_migrations ORDER BY version',
      );
      assert.deepEqual(
        rows.map((r) => r.version),
        Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1),
      );
    });

    it('refuses a schema newer than this Lore, naming the version it needs, and leaves it untouched', async () => {
      const url3 = await freshDatabase(cluster, 'lore_too_new');
      assert.equal(runCli(['store', 'migrate', '--store', url3], { home }).code, 0);
      await query(
        url3,
        "INSERT INTO lore.schema_migrations (version, description, lore_version) VALUES (99, 'future', '9.9.0')",
      );
      const error = await rejection(PostgresStore.open(parsePostgresSettings(url3), { loreVersion: 'test' }));
      assert.equal(error.code, 'STORE_TOO_NEW');
      assert.match(error.message, /schema version 99, newer than this Lore understands/);
      assert.match(error.hint ?? '', /needs a Lore that knows schema version 99 \(Lore 9\.9\.0 or newer\)/);
      const cli = runCli(['store', 'migrate', '--store', url3], { home });
      assert.equal(cli.code, 1);
      assert.match(cli.stderr, /schema version 99/);
      const rows = await query<{ version: number }>(url3, 'SELECT max(version) AS version FROM lore.schema_migrations');
      assert.equal(rows[0].version, 99);
    });
  });

  describe('reaching the server', () => {
    it('a closed port: a clear error naming the host, and never the password', async () => {
      const port = await freePort();
      const url = `postgresql://lore:hunter2secret@127.0.0.1:${port}/team`;
      const error = await rejection(PostgresStore.open(parsePostgresSettings(url), { loreVersion: 'test' }));
      assert.equal(error.code, 'STORE_UNAVAILABLE');
      assert.equal(error.message, `cannot reach the PostgreSQL store at 127.0.0.1:${port}/team: connection refused`);
      assert.ok(!JSON.stringify(error.toJSON()).includes('hunter2secret'));
      const cli = runCli(['store', 'status'], { home, env: { LORE_STORE: url } });
      assert.equal(cli.code, 1);
      assert.match(cli.stderr, new RegExp(`cannot reach the PostgreSQL store at 127\\.0\\.0\\.1:${port}/team`));
      assert.ok(!`${cli.stdout}${cli.stderr}`.includes('hunter2secret'));
    });

    it('a server that accepts but never answers: the connect timeout names the host', async () => {
      const sockets: Socket[] = [];
      const silent: Server = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      try {
        const settings = parsePostgresSettings(
          `postgresql://lore:pw@127.0.0.1:${port}/team?connect_timeout=1&sslmode=disable`,
        );
        const error = await rejection(PostgresStore.open(settings, { loreVersion: 'test' }));
        assert.equal(error.code, 'STORE_UNAVAILABLE');
        assert.equal(
          error.message,
          `cannot reach the PostgreSQL store at 127.0.0.1:${port}/team: no answer within 1 s`,
        );
      } finally {
        for (const socket of sockets) socket.destroy();
        silent.close();
      }
    });

    it('the default connect timeout keeps every command within 5 s', () => {
      assert.ok(parsePostgresSettings('postgresql://h/db').connectTimeoutMs < 5000);
    });

    it('a wrong password: refused, naming host:port/database and user, without the password', async () => {
      const wrong = 'not-the-password-42';
      const url = `postgresql://${cluster.user}:${wrong}@127.0.0.1:${cluster.port}/postgres`;
      const error = await rejection(PostgresStore.open(parsePostgresSettings(url), { loreVersion: 'test' }));
      assert.equal(
        error.message,
        `the PostgreSQL store at 127.0.0.1:${cluster.port}/postgres refused the password (user ${cluster.user})`,
      );
      assert.ok(!JSON.stringify(error.toJSON()).includes(wrong));
      const doctor = runCli(['doctor'], { home, env: { LORE_STORE: url } });
      assert.match(doctor.stdout, /FAIL shared store: the PostgreSQL store at .* refused the password/);
      assert.ok(!`${doctor.stdout}${doctor.stderr}`.includes(wrong));
    });

    it('the password can come from PGPASSWORD alone', async () => {
      const url = `postgresql://${cluster.user}@127.0.0.1:${cluster.port}/postgres`;
      const settings = parsePostgresSettings(url, { PGPASSWORD: cluster.password });
      const store = await PostgresStore.open(settings, { loreVersion: 'test', migrate: 'check' }).catch(
        (e: unknown) => e,
      );
      // The postgres database has no Lore schema: opened with checks only, it says to migrate.
      assert.ok(store instanceof LoreError);
      assert.match(store.message, /schema version 0; this Lore needs/);
      assert.match(store.hint ?? '', /lore store migrate/);
    });

    it('sslmode=prefer falls back to plain on a server without TLS; sslmode=require refuses it', async () => {
      const url = await freshDatabase(cluster, 'lore_tls');
      const preferred = await PostgresStore.open(parsePostgresSettings(`${url}?sslmode=prefer`), {
        loreVersion: 'test',
      });
      assert.equal(preferred.info.tls, false);
      await preferred.close();
      const error = await rejection(
        PostgresStore.open(parsePostgresSettings(`${url}?sslmode=require`), { loreVersion: 'test' }),
      );
      assert.match(error.message, /PostgreSQL store at 127\.0\.0\.1:\d+\/lore_tls .*does not support SSL/);
    });
  });

  describe('records', () => {
    let store: PostgresStore;
    let url: string;
    before(async () => {
      url = await freshDatabase(cluster, 'lore_records');
      store = await PostgresStore.open(parsePostgresSettings(url), { loreVersion: 'test' });
    });
    after(async () => store?.close());

    it('a save whose expected_version lost the race is refused with the winner', async () => {
      const repo = await store.repository('git@example.test:team/records.git');
      const at = '2026-01-01T00:00:00.000Z';
      const build = (text: string) => versionBuilder('k', text, at);
      const first = await store.saveVersion(repo.id, { key: 'k', expectedVersion: 0, actor, at, build: build('one') });
      assert.ok(first.saved && first.version === 1);
      const winner = await store.saveVersion(repo.id, { key: 'k', expectedVersion: 1, actor, at, build: build('two') });
      assert.ok(winner.saved && winner.version === 2);
      const loser = await store.saveVersion(repo.id, {
        key: 'k',
        expectedVersion: 1,
        actor,
        at,
        build: build('three'),
      });
      assert.ok(!loser.saved);
      assert.equal(loser.conflict.current_version, 2);
      assert.equal(loser.conflict.current?.description, 'two');
      assert.match(loser.conflict.reason, /k is at version 2, not 1: someone saved it first/);
      assert.ok((await verifyWithEngine(store, repo.id)).ok);
    });

    it('a retried write (same write id) is found, not written twice', async () => {
      const repo = await store.repository('git@example.test:team/records.git');
      const at = '2026-01-02T00:00:00.000Z';
      const input = {
        key: 'retried',
        expectedVersion: 0,
        writeId: 'client-7',
        actor,
        at,
        build: versionBuilder('retried', 'once', at),
      };
      const first = await store.saveVersion(repo.id, input);
      const again = await store.saveVersion(repo.id, input);
      assert.ok(first.saved && !first.replayed);
      assert.ok(again.saved && again.replayed && again.version === first.version && again.id === first.id);
      const { events } = await store.auditChain(repo.id);
      assert.equal(events.filter((e) => e.key_digest === sha256('retried')).length, 1);
    });

    it("scopes records to a repository: its SSH and HTTPS remotes are one; another's key is its own", async () => {
      const ssh = await store.repository('git@example.test:team/scoped.git');
      const https = await store.repository('https://token:x-oauth@example.test/team/scoped');
      const other = await store.repository('git@example.test:team/elsewhere.git');
      assert.equal(ssh.id, https.id);
      assert.equal(ssh.remote, 'example.test/team/scoped');
      assert.notEqual(ssh.id, other.id);
      assert.notEqual(ssh.store_id, other.store_id);
      const at = '2026-01-03T00:00:00.000Z';
      for (const repo of [ssh, other])
        assert.ok(
          (
            await store.saveVersion(repo.id, {
              key: 'same-key',
              expectedVersion: 0,
              actor,
              at,
              build: versionBuilder('same-key', 'x', at),
            })
          ).saved,
        );
      const rows = await query<{ remote: string }>(url, 'SELECT remote FROM lore.repositories ORDER BY remote');
      assert.ok(
        rows.every((r) => !r.remote.includes('token')),
        'a credential in a remote was stored',
      );
      for (const repo of [ssh, other]) {
        const { events } = await store.auditChain(repo.id);
        assert.equal(events.length, 1);
        assert.ok((await verifyWithEngine(store, repo.id)).ok);
      }
    });
  });

  describe('lore doctor', () => {
    it('names the shared store when LORE_STORE is set, and only then', async () => {
      const url = await freshDatabase(cluster, 'lore_doctor');
      assert.equal(runCli(['store', 'migrate', '--store', url], { home }).code, 0);
      const set = runCli(['doctor'], { home, env: { LORE_STORE: url } });
      assert.match(
        set.stdout,
        new RegExp(
          `ok {3}shared store: PostgreSQL at 127\\.0\\.0\\.1:${cluster.port}/lore_doctor \\(not encrypted\\), ` +
            `schema version ${PG_SCHEMA_VERSION}, no pgvector \\(vectors are searched by their sign codes`,
        ),
      );
      assert.ok(!set.stdout.includes(cluster.password));
      const unset = runCli(['doctor'], { home, env: { LORE_STORE: '' } });
      assert.ok(!unset.stdout.includes('shared store'), unset.stdout);
    });
  });
});
