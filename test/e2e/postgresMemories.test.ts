// The built CLI on a shared PostgreSQL store: `LORE_STORE=postgresql://…` (or `--store URL`)
// makes remember, get, list, history and audit verify use it. Two workspaces that are clones of
// one repository (same remote, different folders and data directories) see the same memories; a
// workspace of another repository does not; a lost race is refused with the winner; and the
// chain verifies. Nothing about them lands in the workspaces' SQLite stores.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { rememberArgs, runCli, type CliResult } from '../support/cli';
import { postgresMissing } from '../support/bothStores';
import { freshDatabase, sharedCluster } from '../support/postgres';
import { tempDir } from '../support/store';

function clone(remote: string): { workspace: string; home: string } {
  const workspace = tempDir('lore-pg-ws-');
  execFileSync('git', ['init', '-q', workspace]);
  execFileSync('git', ['-C', workspace, 'remote', 'add', 'origin', remote]);
  return { workspace, home: tempDir('lore-pg-home-') };
}

const QUEUE_TITLE = 'Use Postgres for the job queue';

describe('the CLI on a shared PostgreSQL store', function () {
  this.timeout(180_000);
  const missing = postgresMissing();
  if (missing) {
    it(`is skipped: ${missing}`, function () {
      this.skip();
    });
    return;
  }
  let url = '';
  before(async () => {
    url = await freshDatabase(await sharedCluster(), `lore_cli_${process.pid}`);
  });

  const lore = (at: { workspace: string; home: string }, args: string[], env: NodeJS.ProcessEnv = {}): CliResult =>
    runCli([...args, '--json'], { home: at.home, workspace: at.workspace, env: { LORE_STORE: url, ...env } });

  it('remember on one clone, get, list and history on another; another repository sees none of it', async () => {
    const alice = clone('git@example.invalid:team/service.git');
    const bob = clone('https://example.invalid/team/service');
    const saved = lore(alice, rememberArgs(QUEUE_TITLE, 'Background jobs go through Postgres with SKIP LOCKED'));
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual([saved.json.saved, saved.json.version], [true, 1]);
    const key = saved.json.key as string;

    const got = lore(bob, ['get', key]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.json.memory.title, 'Use Postgres for the job queue');
    const listed = lore(bob, ['list']);
    assert.deepEqual(
      listed.json.items.map((i: { key: string }) => i.key),
      [key],
    );
    const update = lore(
      bob,
      rememberArgs(
        QUEUE_TITLE,
        'Background jobs go through Postgres with SKIP LOCKED, one queue per service',
        '--expected-version',
        '1',
      ),
    );
    assert.equal(update.json.version, 2, update.stdout + update.stderr);
    const lost = lore(alice, rememberArgs(QUEUE_TITLE, 'A stale edit', '--expected-version', '1'));
    assert.notEqual(lost.code, 0);
    assert.match(lost.stdout + lost.stderr, /version 2/);
    const history = lore(alice, ['history', key]);
    assert.deepEqual(
      history.json.events.map((e: { event: string }) => e.event),
      ['created', 'updated'],
    );

    const other = clone('https://example.invalid/team/other-service.git');
    assert.deepEqual(lore(other, ['list']).json.items, []);

    // With no setting, the same workspace reads its own SQLite store: nothing was written there.
    const local = runCli(['list', '--json'], { home: alice.home, workspace: alice.workspace });
    assert.deepEqual(local.json.items, []);

    const verified = lore(bob, ['audit', 'verify']);
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.deepEqual([verified.json.ok, verified.json.events], [true, 2]);

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query(
        'SELECT r.remote, m.version FROM lore.memories m JOIN lore.repositories r ON r.id = m.repo_id ORDER BY version',
      );
      assert.deepEqual(rows.rows, [
        { remote: 'example.invalid/team/service', version: 1 },
        { remote: 'example.invalid/team/service', version: 2 },
      ]);
    } finally {
      await client.end();
    }
  });

  it('--store URL names the store on the command line, and a workspace without a remote is refused clearly', () => {
    const alice = clone('https://example.invalid/team/flagged.git');
    const saved = runCli(rememberArgs('Flagged', 'By flag', '--store', url, '--json'), {
      home: alice.home,
      workspace: alice.workspace,
    });
    assert.equal(saved.code, 0, saved.stderr);
    const got = runCli(['get', saved.json.key, '--store', url, '--json'], {
      home: alice.home,
      workspace: alice.workspace,
    });
    assert.equal(got.json.memory.title, 'Flagged');

    const bare = { workspace: tempDir('lore-pg-bare-'), home: tempDir('lore-pg-home-') };
    execFileSync('git', ['init', '-q', bare.workspace]);
    const refused = lore(bare, ['list']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stdout + refused.stderr, /remote/);
    assert.doesNotMatch(refused.stdout + refused.stderr, new RegExp(new URL(url).password));
  });

  it("index and recall embed with the configured model as on SQLite; doctor checks the vectors' seals", async () => {
    const alice = clone('https://example.invalid/team/embedded.git');
    const models = tempDir('lore-pg-models-');
    makeTinyModel(models, { name: 'tiny-pg', seed: 3 });
    const withModel = { LORE_MODEL_DIR: models, LORE_MODEL: 'tiny-pg' };
    for (const [title, description] of [
      [QUEUE_TITLE, 'Background jobs go through Postgres with SKIP LOCKED'],
      ['Rotate certificates monthly', 'TLS certificates are renewed by the platform job every month'],
    ]) {
      const saved = lore(alice, rememberArgs(title, description), withModel);
      assert.equal(saved.code, 0, saved.stderr);
    }
    const indexed = lore(alice, ['index'], withModel);
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.match(indexed.json.status.model, /^tiny-pg@/);
    const recalled = lore(alice, ['recall', 'job queue'], withModel);
    assert.equal(recalled.code, 0, recalled.stderr);
    assert.equal(recalled.json.vectors, true, 'recall on the shared store used no vectors');
    const memoryHits = recalled.json.results.filter((r: { key?: string }) => r.key);
    assert.ok(memoryHits.length > 0, recalled.stdout);
    assert.ok(memoryHits.every((r: { score: { vector?: number } }) => typeof r.score.vector === 'number'));

    // The vectors are in the shared store, one per memory.
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query(
        `SELECT count(*)::int AS n FROM lore.memory_vectors v JOIN lore.memories m ON m.id = v.memory_id
         JOIN lore.repositories r ON r.id = m.repo_id WHERE r.remote = 'example.invalid/team/embedded'`,
      );
      assert.equal(rows.rows[0].n, 2);
      // lore doctor checks the shared store's vector seals, as it checks SQLite's.
      const seals = () =>
        (lore(alice, ['doctor'], withModel).json.checks as Array<{ name: string; ok: boolean; detail: string }>).find(
          (c) => c.name === 'seals',
        )!;
      assert.equal(seals().ok, true, seals().detail);
      await client.query(
        `UPDATE lore.memory_vectors SET vector = decode(repeat('00', length(vector)), 'hex')
         WHERE memory_id = (SELECT m.id FROM lore.memories m JOIN lore.repositories r ON r.id = m.repo_id
           WHERE m.title = $1 AND r.remote = 'example.invalid/team/embedded' ORDER BY m.id LIMIT 1)`,
        [QUEUE_TITLE],
      );
      const after = seals();
      assert.equal(after.ok, false, after.detail);
      assert.match(after.detail, /1 row\(s\) changed outside Lore: the tiny-pg@\S+ vector of decision\/[\w-]+ v1/);
    } finally {
      await client.end();
    }
  });
});
