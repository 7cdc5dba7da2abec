// Team sharing through the built CLI, as people type it: signed bundles between machines (each
// its own LORE_HOME, so its own key), trust, whole-bundle refusal, and records promoted to the
// repository (an ADR in the repo's convention, or a signed .lore/ record a teammate indexes).

import { strict as assert } from 'node:assert';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSpace, ok, runCliAsPerson, storeDigest, storeView, type CliSpace } from '../support/cli';

const KEY = 'decision/use-postgres-for-the-job-queue';
const FIXTURES = join(__dirname, '..', 'fixtures', 'adr-repos');

function remember(space: CliSpace, title: string, description: string): void {
  ok(
    space.lore(
      'remember',
      '--type',
      'decision',
      '--title',
      title,
      '--description',
      description,
      '--body',
      'We already run Postgres.',
      '--anchor',
      'src/jobs/queue.ts',
    ),
    'lore remember',
  );
}

describe('team sharing (e2e)', function () {
  this.timeout(120_000);
  const spaces: CliSpace[] = [];
  const space = (): CliSpace => {
    const s = makeSpace('lore-team-');
    spaces.push(s);
    return s;
  };
  afterEach(() => spaces.splice(0).forEach((s) => s.cleanup()));

  it(
    "a bundle reaches a teammate's store intact: dry run writes " +
      'nothing, an unknown author lands quarantined, a trusted one ' +
      'active',
    async () => {
      const alice = space();
      const bob = space();
      const carol = space();
      remember(alice, 'Use Postgres for the job queue', 'Jobs go through Postgres with SKIP LOCKED');
      remember(alice, 'Use UTC in logs', 'All log timestamps are UTC');
      const file = join(alice.root, 'team.json');
      const exported = ok(alice.lore('--json', 'export', '--out', file, '--type', 'decision'), 'lore export').json;
      assert.equal(exported.records, 2);
      const aliceKey = ok(alice.lore('--json', 'trust', 'key')).json;

      const plan = ok(bob.lore('--json', 'import', file, '--dry-run'), 'lore import --dry-run').json;
      assert.equal(plan.dry_run, true);
      assert.deepEqual(
        plan.items.map((i: { action: string }) => i.action),
        ['create', 'create'],
      );
      assert.equal(storeDigest(bob), undefined, 'a dry run creates no store');

      const imported = bob.lore('import', file);
      ok(imported, 'lore import');
      assert.match(imported.stdout, /2 created/);
      assert.match(imported.stdout, new RegExp(`lore trust add ${aliceKey.key_id}`));
      assert.deepEqual(ok(bob.lore('--json', 'recall', 'postgres job queue')).json.results, []);
      assert.equal(ok(bob.lore('--json', 'list', '--status', 'quarantined')).json.total, 2);

      const refused = carol.lore('trust', 'add', aliceKey.public_key);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /interactive terminal/);
      const trusted = await runCliAsPerson(['--json', 'trust', 'add', aliceKey.public_key, '--label', 'alice'], {
        home: carol.home,
        workspace: carol.workspace,
      });
      assert.equal(trusted.code, 0, trusted.stdout);
      assert.equal(trusted.json?.key_id, aliceKey.key_id);
      const landed = ok(carol.lore('--json', 'import', file)).json;
      assert.deepEqual([landed.created, landed.quarantined], [2, []]);
      const record = ok(carol.lore('--json', 'get', KEY)).json.memory;
      assert.equal(record.author, aliceKey.key_id);
      assert.equal(record.status, 'active');
      assert.equal(ok(carol.lore('--json', 'recall', 'postgres job queue')).json.results[0]?.key, KEY);
      const audit = ok(carol.lore('--json', 'audit', 'verify')).json;
      assert.equal(audit.ok, true);
      assert.equal(audit.events, 4, 'trust, two memory.import and one bundle.import');
    },
  );

  it(
    'a tampered, malformed or future-format bundle is refused whole ' +
      'with a clear error, and the store is unchanged',
    () => {
      const alice = space();
      const bob = space();
      remember(alice, 'Use Postgres for the job queue', 'Jobs go through Postgres with SKIP LOCKED');
      remember(alice, 'Use UTC in logs', 'All log timestamps are UTC');
      remember(bob, 'Deploy on Tuesdays', 'Never deploy on Fridays');
      const file = join(alice.root, 'team.json');
      ok(alice.lore('export', '--out', file));
      const text = readFileSync(file, 'utf8');
      const before = storeView(bob);
      const digest = storeDigest(bob);
      const cases: Array<[string, string, RegExp]> = [
        [
          'edited',
          text.replace('All log timestamps are UTC', 'All log timestamps are local time'),
          /record decision\/use-utc-in-logs: its content was changed after it was signed/,
        ],
        ['malformed', text.slice(0, text.length / 2), /is not JSON/],
        [
          'future format',
          text.replace('"version": 1,', '"version": 2,'),
          /bundle format version 2; this Lore reads version 1/,
        ],
      ];
      for (const [name, content, says] of cases) {
        const bad = join(alice.root, `${name.replace(/ /g, '-')}.json`);
        writeFileSync(bad, content);
        const r = bob.lore('import', bad);
        assert.equal(r.code, 1, `${name}: ${r.stdout}`);
        assert.match(r.stderr, says, name);
        assert.equal(r.stderr.trim().split('\n').length, 1, `${name}: one line`);
      }
      assert.deepEqual(storeView(bob), before);
      assert.equal(storeDigest(bob), digest);
    },
  );

  it('records that differ from yours are refused unless --replace, which keeps yours in history', () => {
    const alice = space();
    const bob = space();
    remember(alice, 'Use Postgres for the job queue', 'Jobs go through Postgres with SKIP LOCKED');
    remember(bob, 'Use Postgres for the job queue', 'Our own take on the queue');
    const file = join(alice.root, 'team.json');
    ok(alice.lore('export', '--out', file));
    const before = storeView(bob);
    const r = bob.lore('import', file);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /already exist here with different content: decision\/use-postgres-for-the-job-queue.*--replace/,
    );
    assert.deepEqual(storeView(bob), before);
    ok(bob.lore('import', file, '--replace'));
    const now = ok(bob.lore('--json', 'get', KEY)).json.memory;
    assert.equal(now.version, 2);
    assert.equal(now.description, 'Jobs go through Postgres with SKIP LOCKED');
    assert.equal(
      ok(bob.lore('--json', 'get', KEY, '--version', '1')).json.memory.description,
      'Our own take on the queue',
    );
  });

  it("canonicalize writes the next ADR in the repository's convention, which the index finds as an ADR", () => {
    const alice = space();
    cpSync(join(FIXTURES, 'adr-tools'), alice.workspace, { recursive: true });
    remember(alice, 'Use Postgres for the job queue', 'Jobs go through Postgres with SKIP LOCKED');
    const written = ok(alice.lore('--json', 'canonicalize', KEY)).json;
    assert.deepEqual(
      [written.as, written.convention, written.path],
      ['adr', 'adr-tools', 'doc/architecture/decisions/0003-use-postgres-for-the-job-queue.md'],
    );
    assert.match(readFileSync(join(alice.workspace, written.path), 'utf8'), /^# 3\. Use Postgres for the job queue\n/);
    ok(alice.lore('index'));
    const docs = ok(alice.lore('--json', 'recall', 'postgres job queue')).json.results.filter(
      (h: { record: string }) => h.record === 'doc',
    );
    assert.deepEqual(
      docs.map((h: { path: string; kind: string }) => [h.path, h.kind]),
      [[written.path, 'adr']],
    );
    const again = alice.lore('canonicalize', KEY, '--as', 'adr');
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /already written as doc\/architecture\/decisions\/0003-use-postgres-for-the-job-queue\.md/,
    );
  });

  it("a .lore/ record arrives in a teammate's clone on index, verified; a tampered one is refused and named", () => {
    const alice = space();
    const bob = space();
    remember(alice, 'Use Postgres for the job queue', 'Jobs go through Postgres with SKIP LOCKED');
    const written = ok(alice.lore('--json', 'canonicalize', KEY, '--as', 'record')).json;
    assert.equal(written.path, '.lore/decision/use-postgres-for-the-job-queue.json');
    assert.ok(existsSync(join(alice.workspace, written.path)));

    cpSync(alice.workspace, bob.workspace, { recursive: true });
    const indexed = ok(bob.lore('--json', 'index')).json.summary.records;
    assert.deepEqual([indexed.imported, indexed.quarantined, indexed.refused], [[KEY], [KEY], []]);
    const arrived = ok(bob.lore('--json', 'get', KEY)).json.memory;
    assert.equal(arrived.author, ok(alice.lore('--json', 'get', KEY)).json.memory.author);

    const carol = space();
    cpSync(alice.workspace, carol.workspace, { recursive: true });
    const path = join(carol.workspace, written.path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('SKIP LOCKED', 'NOWAIT'));
    const r = ok(carol.lore('index'));
    assert.match(
      r.stdout,
      /REFUSED \.lore\/decision\/use-postgres-for-the-job-queue\.json: .*record decision\/use-postgres-for-the-job-queue: its content was changed after it was signed/,
    );
    assert.equal(ok(carol.lore('--json', 'list', '--status', 'quarantined', '--status', 'active')).json.total, 0);
  });
});
