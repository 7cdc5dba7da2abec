// End-to-end tests of the built `lore` command (dist/cli.js), typed the way a person types it:
// a child process per command, its own LORE_HOME and workspace per test, and only what a person
// sees — exit code, stdout (JSON under --json), stderr — plus the store file to prove that a
// refused command wrote nothing.

import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { storePaths } from '../../src/host/dataDir';
import {
  inParallel,
  makeSpace,
  ok,
  runCli,
  runCliAsync,
  runCliInTerminal,
  storeDigest,
  storeView,
  type CliResult,
  type CliSpace,
  type StoreView,
} from '../support/cli';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HEX64 = /^[0-9a-f]{64}$/;
// A GitHub token shape (ghp_ + 36 alphanumerics), assembled so this file does not hold one literally.
const GITHUB_TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36);

const QUEUE = {
  key: 'decision/use-postgres-for-the-job-queue',
  title: 'Use Postgres for the job queue',
  description: 'Background jobs go through Postgres with SKIP LOCKED rather than a separate broker',
  body: 'We already run Postgres; one fewer system to operate. Marker: ptarmigan.',
};

function remember(
  space: CliSpace,
  fields: { type?: string; title: string; description: string },
  ...extra: string[]
): CliResult {
  return space.lore(
    'remember',
    '--json',
    '--type',
    fields.type ?? 'decision',
    '--title',
    fields.title,
    '--description',
    fields.description,
    ...extra,
  );
}

function saved(result: CliResult, what = 'remember'): { key: string; version: number; status: string } {
  ok(result, what);
  assert.equal(result.json?.saved, true, `${what} did not save: ${result.stdout}`);
  return result.json;
}

function auditEvents(space: CliSpace): number {
  const r = ok(space.lore('audit', 'verify', '--json'), 'audit verify');
  assert.equal(r.json.ok, true, `audit chain broken: ${r.stdout}`);
  return r.json.events;
}

function recallKeys(space: CliSpace, ...args: string[]): string[] {
  const r = ok(space.lore('recall', '--json', ...args), 'recall');
  return r.json.results.map((hit: { key: string }) => hit.key);
}

describe('lore CLI, end to end', function () {
  this.timeout(60_000);
  let space: CliSpace;
  beforeEach(() => {
    space = makeSpace();
  });
  afterEach(() => space.cleanup());

  describe('remember → recall → get → list → history', () => {
    it('remember prints {saved, key, version, status} and nothing on stderr', () => {
      const r = remember(space, QUEUE, '--body', QUEUE.body, '--tag', 'queue', '--anchor', 'src/jobs/queue.ts');
      ok(r);
      assert.equal(r.stderr, '');
      assert.equal(r.json.saved, true);
      assert.equal(r.json.key, QUEUE.key);
      assert.equal(r.json.version, 1);
      assert.equal(r.json.status, 'active');
      assert.equal(r.json.created, true);

      const human = space.lore(
        'remember',
        '--type',
        'runbook',
        '--title',
        'Restart the queue workers',
        '--description',
        'How to restart workers safely',
      );
      ok(human);
      assert.match(human.stdout, /^saved runbook\/restart-the-queue-workers \(version 1, active\)$/m);
    });

    it('recall finds a record by its (stemmed) words and shows the score in parts, never the body', () => {
      saved(remember(space, QUEUE, '--body', QUEUE.body));
      saved(
        remember(space, {
          type: 'runbook',
          title: 'Rotate the TLS certificates',
          description: 'Yearly certificate rotation for the load balancer',
        }),
      );

      const r = ok(space.lore('recall', '--json', 'queues'));
      assert.equal(r.stderr, '');
      assert.deepEqual(
        r.json.results.map((h: { key: string }) => h.key),
        [QUEUE.key],
        'only the queue decision mentions queues (stemming: "queues" finds "queue")',
      );
      const hit = r.json.results[0];
      assert.equal(hit.type, 'decision');
      assert.equal(hit.title, QUEUE.title);
      assert.equal(hit.description, QUEUE.description);
      assert.equal(hit.status, 'active');
      assert.equal(hit.basis, 'declared');
      assert.ok(Array.isArray(hit.flags));
      for (const part of ['total', 'lexical', 'basis', 'status', 'freshness'])
        assert.equal(typeof hit.score[part], 'number', `score.${part}`);
      assert.ok(hit.score.total > 0 && hit.score.total <= 1, `score.total ${hit.score.total}`);
      assert.ok(!('body' in hit), 'a recall hit has no body');
      assert.ok(!r.stdout.includes('ptarmigan'), 'no body text anywhere in recall output');

      assert.deepEqual(recallKeys(space, 'postgres', '--type', 'runbook'), [], '--type filters');
      const human = ok(space.lore('recall', 'certificate', 'rotation'));
      assert.match(human.stdout, /runbook\/rotate-the-tls-certificates/);
      assert.ok(!human.stdout.includes('ptarmigan'));
    });

    it('get shows the whole record with its body; list pages summaries without bodies', () => {
      saved(remember(space, QUEUE, '--body', QUEUE.body, '--tag', 'queue'));
      saved(
        remember(space, {
          type: 'runbook',
          title: 'Rotate the TLS certificates',
          description: 'Yearly certificate rotation',
        }),
      );

      const got = ok(space.lore('get', QUEUE.key, '--json'));
      assert.equal(got.json.memory.key, QUEUE.key);
      assert.equal(got.json.memory.body, QUEUE.body);
      assert.equal(got.json.memory.version, 1);
      assert.deepEqual(got.json.memory.tags, ['queue']);
      assert.equal(got.json.memory.provenance.source, 'user');
      assert.match(got.json.memory.recorded_at, ISO);
      assert.equal(got.json.archived, false);
      assert.match(ok(space.lore('get', QUEUE.key)).stdout, /ptarmigan/, 'the human view shows the body too');

      const all = ok(space.lore('list', '--json'));
      assert.equal(all.json.total, 2);
      assert.equal(all.json.next_offset, null);
      assert.deepEqual(all.json.items.map((m: { key: string }) => m.key).sort(), [
        QUEUE.key,
        'runbook/rotate-the-tls-certificates',
      ]);
      assert.ok(!all.stdout.includes('ptarmigan'), 'list never carries bodies');

      const page1 = ok(space.lore('list', '--json', '--limit', '1'));
      assert.equal(page1.json.items.length, 1);
      assert.equal(page1.json.total, 2);
      assert.equal(page1.json.next_offset, 1);
      const page2 = ok(space.lore('list', '--json', '--limit', '1', '--offset', '1'));
      assert.equal(page2.json.items.length, 1);
      assert.equal(page2.json.next_offset, null);
      assert.notEqual(page2.json.items[0].key, page1.json.items[0].key);
    });

    it(
      'a second save of a key makes version 2; history, get and get ' +
        '--version 1 show both; an identical save changes nothing',
      () => {
        saved(remember(space, QUEUE));
        const v2 = saved(
          remember(space, { ...QUEUE, description: 'Jobs use Postgres SKIP LOCKED; revisited after load tests' }),
        );
        assert.equal(v2.version, 2);
        assert.equal((v2 as unknown as { created: boolean }).created, false);

        const history = ok(space.lore('history', QUEUE.key, '--json')).json;
        assert.equal(history.key, QUEUE.key);
        assert.deepEqual(
          history.versions.map((v: { version: number; current: boolean }) => [v.version, v.current]),
          [
            [1, false],
            [2, true],
          ],
        );
        for (const v of history.versions) assert.match(v.content_digest, HEX64);
        assert.deepEqual(
          history.events.map((e: { event: string }) => e.event),
          ['created', 'updated'],
        );

        const digest = storeDigest(space);
        const again = saved(
          remember(space, { ...QUEUE, description: 'Jobs use Postgres SKIP LOCKED; revisited after load tests' }),
        );
        assert.equal(again.version, 2, 'the same content is not a new version');
        assert.equal((again as unknown as { unchanged: boolean }).unchanged, true);
        assert.equal(storeDigest(space), digest, 'an unchanged save writes nothing, not even an audit event');

        const current = ok(space.lore('get', QUEUE.key, '--json')).json;
        assert.equal(current.memory.version, 2);
        assert.equal(current.memory.description, 'Jobs use Postgres SKIP LOCKED; revisited after load tests');
        const old = ok(space.lore('get', QUEUE.key, '--version', '1', '--json'), 'get --version 1');
        assert.ok(
          old.json?.memory,
          `lore get KEY --version 1 --json should print the archived record; it printed ${JSON.stringify(old.stdout)}`,
        );
        assert.equal(old.json.memory.version, 1);
        assert.equal(old.json.memory.description, QUEUE.description);
        assert.equal(old.json.archived, true);
      },
    );
  });

  describe('editing a memory from the CLI', () => {
    it('remember --key on an existing record keeps the body, anchors, links and tags it did not name', () => {
      saved(
        remember(
          space,
          QUEUE,
          '--body',
          QUEUE.body,
          '--tag',
          'queue',
          '--anchor',
          'src/jobs/queue.ts',
          '--link',
          'x.md',
        ),
      );
      const edited = saved(remember(space, { ...QUEUE, description: 'Jobs use SKIP LOCKED' }, '--key', QUEUE.key));
      assert.equal(edited.version, 2);
      const kept = ok(space.lore('get', QUEUE.key, '--json')).json.memory;
      assert.equal(kept.description, 'Jobs use SKIP LOCKED');
      assert.equal(kept.body, QUEUE.body, 'the body the command did not name is kept');
      assert.deepEqual(kept.tags, ['queue']);
      assert.deepEqual(kept.anchors, ['src/jobs/queue.ts']);
      assert.deepEqual(kept.links, ['x.md']);

      saved(remember(space, { ...QUEUE, description: 'Jobs use SKIP LOCKED' }, '--clear', 'body', '--clear', 'tag'));
      const cleared = ok(space.lore('get', QUEUE.key, '--json')).json.memory;
      assert.equal(cleared.body, '');
      assert.deepEqual(cleared.tags, []);
      assert.deepEqual(cleared.anchors, ['src/jobs/queue.ts'], 'only the fields --clear named are emptied');
    });

    it('--clear refuses a field it cannot clear and a field also given, and saves nothing', () => {
      saved(remember(space, QUEUE, '--body', QUEUE.body));
      const digest = storeDigest(space);
      const bogus = remember(space, QUEUE, '--clear', 'title');
      assert.equal(bogus.code, 2, bogus.stderr);
      assert.match(bogus.stderr, /--clear title is not a field it can clear; use one of: body, anchor/);
      const both = remember(space, QUEUE, '--body', 'new', '--clear', 'body');
      assert.equal(both.code, 2, both.stderr);
      assert.match(both.stderr, /give --body or --clear body, not both/);
      assert.equal(storeDigest(space), digest);
      assert.equal(ok(space.lore('get', QUEUE.key, '--json')).json.memory.body, QUEUE.body);
    });
  });

  describe('lifecycle', () => {
    it('deprecate and dispute keep a record recalled, ranked lower, with the reason', () => {
      const fields = {
        title: 'Cache user sessions in Redis',
        description: 'Sessions live in Redis with a one hour expiry',
      };
      saved(remember(space, fields, '--key', 'decision/sessions-a'));
      saved(remember(space, fields, '--key', 'decision/sessions-b'));
      saved(remember(space, fields, '--key', 'decision/sessions-c'));

      const dep = ok(space.lore('deprecate', 'decision/sessions-b', '--reason', 'moving to signed cookies', '--json'));
      assert.deepEqual(dep.json, {
        key: 'decision/sessions-b',
        version: 1,
        status: 'deprecated',
        previous_status: 'active',
      });
      const dis = ok(space.lore('dispute', 'decision/sessions-c', '--reason', 'the expiry is wrong', '--json'));
      assert.equal(dis.json.status, 'disputed');
      assert.equal(dis.json.previous_status, 'active');

      const hits = ok(space.lore('recall', '--json', 'redis', 'sessions')).json.results;
      assert.deepEqual(
        hits.map((h: { key: string }) => h.key),
        ['decision/sessions-a', 'decision/sessions-b', 'decision/sessions-c'],
        'the same text: the active record first, then deprecated, then disputed',
      );
      const [a, b, c] = hits;
      assert.ok(b.score.total < a.score.total && b.score.status < 1, 'deprecated ranks lower');
      assert.ok(c.score.total < a.score.total && c.score.status < 1, 'disputed ranks lower');
      assert.equal(b.status, 'deprecated');
      assert.equal(b.status_reason, 'moving to signed cookies');
      assert.equal(c.status, 'disputed');
      assert.equal(c.status_reason, 'the expiry is wrong');
    });

    it('retract takes a record out of recall and out of the default list, but get still shows the tombstone', () => {
      saved(remember(space, QUEUE));
      const r = ok(space.lore('retract', QUEUE.key, '--reason', 'never shipped', '--json'));
      assert.equal(r.json.status, 'retracted');

      assert.deepEqual(recallKeys(space, 'postgres', 'queue'), []);
      assert.equal(ok(space.lore('list', '--json')).json.total, 0);
      assert.deepEqual(
        ok(space.lore('list', '--json', '--status', 'retracted')).json.items.map((m: { key: string }) => m.key),
        [QUEUE.key],
      );
      const got = ok(space.lore('get', QUEUE.key, '--json')).json;
      assert.equal(got.memory.status, 'retracted');
      assert.equal(got.memory.status_reason, 'never shipped');
      const history = ok(space.lore('history', QUEUE.key, '--json')).json;
      assert.deepEqual(
        history.events.map((e: { event: string; reason: string | null }) => [e.event, e.reason]),
        [
          ['created', null],
          ['retracted', 'never shipped'],
        ],
      );
    });

    it(
      'supersede points the old record at its successor, drops it from ' + 'recall, and as-of recall still returns it',
      () => {
        const old = saved(
          remember(
            space,
            { title: 'Deploy with Capistrano', description: 'Deploys run Capistrano from the bastion' },
            '--valid-from',
            '2020-01-01',
          ),
        );
        const next = saved(
          remember(
            space,
            { title: 'Deploy with Argo CD', description: 'Deploys sync from git through Argo CD' },
            '--valid-from',
            '2024-01-01',
          ),
        );

        const r = ok(space.lore('supersede', old.key, '--by', next.key, '--valid-from', '2024-01-01', '--json'));
        assert.deepEqual(r.json, { key: old.key, superseded_by: next.key, valid_from: '2024-01-01T00:00:00.000Z' });

        const oldNow = ok(space.lore('get', old.key, '--json')).json.memory;
        assert.equal(oldNow.status, 'superseded');
        assert.equal(oldNow.superseded_by, next.key);
        assert.equal(oldNow.valid_until, '2024-01-01T00:00:00.000Z');
        assert.equal(ok(space.lore('get', next.key, '--json')).json.memory.supersedes, old.key);

        assert.deepEqual(recallKeys(space, 'deploys'), [next.key], 'now: only the successor');
        const then = ok(space.lore('recall', '--json', 'deploys', '--as-of', '2022-06-01')).json;
        assert.deepEqual(
          then.results.map((h: { key: string }) => h.key),
          [old.key],
          'in 2022 Capistrano was the answer',
        );
        assert.equal(then.as_of, '2022-06-01T00:00:00.000Z');

        const history = ok(space.lore('history', old.key, '--json')).json;
        const superseded = history.events.find((e: { event: string }) => e.event === 'superseded');
        assert.ok(superseded, `history of ${old.key} records the supersession: ${JSON.stringify(history.events)}`);
        assert.equal(superseded.related_key, next.key);
      },
    );

    it('forget removes every version, prints a receipt, and leaves no trace of the text in the store', () => {
      saved(
        remember(
          space,
          { title: 'Shard the quokkabase', description: 'Split the quokkabase by tenant' },
          '--body',
          'quokkabase sharding notes v1',
        ),
      );
      const key = 'decision/shard-the-quokkabase';
      saved(
        remember(
          space,
          { title: 'Shard the quokkabase', description: 'Split the quokkabase by tenant and region' },
          '--body',
          'quokkabase sharding notes v2',
        ),
      );
      saved(remember(space, QUEUE));
      const digests = ok(space.lore('history', key, '--json')).json.versions.map(
        (v: { content_digest: string }) => v.content_digest,
      );
      const events = auditEvents(space);
      const database = space.paths().database;
      assert.ok(readFileSync(database).includes('quokkabase'), 'sanity: the text is in the store before forget');

      const started = Date.now();
      const r = ok(space.lore('forget', key, '--json'));
      const receipt = r.json.receipt;
      assert.equal(receipt.key, key);
      assert.equal(receipt.versions_removed, 2);
      assert.deepEqual(receipt.digests, digests, 'the receipt carries the digests of the versions removed');
      assert.match(receipt.forgotten_at, ISO);
      assert.ok(Math.abs(Date.parse(receipt.forgotten_at) - started) < 60_000, 'forgotten_at is now');

      const get = space.lore('get', key);
      assert.notEqual(get.code, 0);
      assert.match(get.stderr, /no memory with key decision\/shard-the-quokkabase/);
      assert.notEqual(space.lore('history', key).code, 0, 'forgotten records leave no history');
      assert.deepEqual(recallKeys(space, 'quokkabase'), []);
      assert.deepEqual(
        ok(space.lore('list', '--json')).json.items.map((m: { key: string }) => m.key),
        [QUEUE.key],
        'other records stay',
      );
      assert.equal(auditEvents(space), events + 1, 'forget appends one audit event and the chain verifies');
      assert.ok(!readFileSync(database).includes('quokkabase'), 'no trace of the forgotten text in the store file');

      const again = space.lore('forget', key);
      assert.notEqual(again.code, 0, 'forget is final: there is nothing left to forget');
    });

    it('audit verify counts exactly one event per write, and reads add none', () => {
      const fresh = ok(space.lore('audit', 'verify', '--json'));
      assert.deepEqual(
        { ok: fresh.json.ok, events: fresh.json.events, problems: fresh.json.problems },
        { ok: true, events: 0, problems: [] },
      );

      saved(remember(space, QUEUE)); // 1
      saved(remember(space, { ...QUEUE, description: 'Revised' })); // 2
      saved(remember(space, { title: 'Use Redis for the job queue', description: 'Redis lists' })); // 3
      ok(space.lore('deprecate', QUEUE.key, '--reason', 'under review')); // 4
      ok(space.lore('supersede', QUEUE.key, '--by', 'decision/use-redis-for-the-job-queue')); // 5
      ok(space.lore('get', QUEUE.key));
      ok(space.lore('recall', 'queue'));
      ok(space.lore('forget', QUEUE.key)); // 6

      const r = ok(space.lore('audit', 'verify', '--json'));
      assert.equal(r.json.ok, true);
      assert.equal(r.json.events, 6);
      assert.match(r.json.head, HEX64);
      assert.deepEqual(r.json.problems, []);
    });
  });

  describe('expected_version', () => {
    it('a save that lost the race exits 3 with the winner and changes nothing', () => {
      saved(remember(space, QUEUE));
      saved(remember(space, { ...QUEUE, description: 'Version two, saved by someone else first' }));
      const digest = storeDigest(space);
      const events = auditEvents(space);

      const r = remember(space, { ...QUEUE, description: 'My edit, based on version one' }, '--expected-version', '1');
      assert.equal(r.code, 3, `exit code: ${r.code} ${r.stderr}`);
      assert.equal(r.json.saved, false);
      assert.equal(r.json.key, QUEUE.key);
      assert.equal(r.json.conflict.expected_version, 1);
      assert.equal(r.json.conflict.current_version, 2);
      assert.equal(r.json.conflict.current.version, 2);
      assert.equal(r.json.conflict.current.description, 'Version two, saved by someone else first');
      assert.match(r.json.conflict.reason, /version 2/);

      assert.equal(storeDigest(space), digest, 'the store file is untouched');
      const got = ok(space.lore('get', QUEUE.key, '--json')).json.memory;
      assert.equal(got.version, 2);
      assert.equal(got.description, 'Version two, saved by someone else first');
      assert.equal(auditEvents(space), events);

      const human = space.lore(
        'remember',
        '--type',
        'decision',
        '--title',
        QUEUE.title,
        '--description',
        'Another stale edit',
        '--expected-version',
        '1',
      );
      assert.equal(human.code, 3);
      assert.match(human.stdout, /not saved: .*version 2/);
    });

    it('an --expected-version that matches saves the next version; 0 means "must not exist yet"', () => {
      const created = saved(remember(space, QUEUE, '--expected-version', '0'));
      assert.equal(created.version, 1);
      const next = saved(remember(space, { ...QUEUE, description: 'Second thoughts' }, '--expected-version', '1'));
      assert.equal(next.version, 2);
      const clash = remember(space, { ...QUEUE, description: 'Create it again' }, '--expected-version', '0');
      assert.equal(clash.code, 3);
      assert.equal(clash.json.conflict.current_version, 2);
    });
  });

  describe('bad input: one line on stderr, a non-zero exit, and the store unchanged', () => {
    // One store, seeded as a user would. Each refused command runs against its own byte-for-byte
    // copy (its own workspace under the test's LORE_HOME), so the commands can run side by side and
    // "unchanged" means: the copy's file still has the seeded store's exact bytes.
    let template: CliSpace;
    let templateView: StoreView;
    let templateDigest: string;
    const RETRACTED = 'decision/old-cron-scheduler';
    const QUARANTINED = 'fact/redis-is-faster-for-queues';
    const RUNBOOK = 'runbook/restart-the-queue-workers';
    const PARALLEL = Math.max(2, Math.min(4, availableParallelism()));

    before(() => {
      template = makeSpace('lore-e2e-template-');
      saved(remember(template, QUEUE, '--body', QUEUE.body, '--valid-from', '2025-01-01'));
      saved(remember(template, { ...QUEUE, description: 'Jobs go through Postgres SKIP LOCKED (v2)' }));
      saved(
        remember(template, {
          type: 'runbook',
          title: 'Restart the queue workers',
          description: 'Drain, then restart workers one at a time',
        }),
      );
      assert.equal(
        saved(
          remember(
            template,
            { type: 'fact', title: 'Redis is faster for queues', description: 'Claimed by a blog post' },
            '--source',
            'webpage',
          ),
        ).status,
        'quarantined',
      );
      saved(remember(template, { title: 'Old cron scheduler', description: 'Jobs were scheduled by cron' }));
      ok(template.lore('retract', RETRACTED, '--reason', 'replaced long ago'));
      templateView = storeView(template);
      assert.equal(templateView.total, 4);
      templateDigest = storeDigest(template)!;
    });
    after(() => template?.cleanup());

    /** A new workspace under this test's LORE_HOME whose store is a copy of the seeded one. */
    function copyOfSeededStore(name: string): CliSpace {
      const workspace = join(space.root, name);
      mkdirSync(workspace);
      const paths = storePaths(workspace, space.home);
      mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
      copyFileSync(template.paths().database, paths.database);
      return {
        ...space,
        workspace,
        lore: (...args) => runCli(args, { home: space.home, workspace }),
        paths: () => paths,
      };
    }

    interface Case {
      args: string[];
      /** What the one stderr line must say. */
      says: RegExp[];
      /** Text that must not appear anywhere in the output. */
      never?: string[];
    }

    /**
     * Runs every case (side by side, each on its own copy of the seeded store), checks what a user
     * sees and that the store did not change, then fails once, listing every case that was not
     * refused properly. Returns the results in order.
     */
    async function refusedAll(cases: Case[]): Promise<CliResult[]> {
      const outcomes = await inParallel(cases, PARALLEL, async (c, i) => {
        const copy = copyOfSeededStore(`case-${i}`);
        const r = await runCliAsync(c.args, { home: space.home, workspace: copy.workspace });
        return { r, copy };
      });
      const failures: string[] = [];
      cases.forEach((c, i) => {
        try {
          checkRefused(c, outcomes[i].r, outcomes[i].copy);
        } catch (error) {
          failures.push((error as Error).message.split('\n')[0]);
        }
      });
      assert.equal(
        failures.length,
        0,
        `${failures.length} of ${cases.length} bad inputs were not refused properly:\n  ${failures.join('\n  ')}`,
      );
      return outcomes.map((o) => o.r);
    }

    function checkRefused({ args, says, never = [] }: Case, r: CliResult, copy: CliSpace): void {
      const label = `lore ${args.map((a) => (a.length > 40 ? `${a.slice(0, 20)}…(${a.length})` : a)).join(' ')}`;
      const shown = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
      assert.ok(
        r.code === 1 || r.code === 2,
        `${label}: expected a failing exit code (1 or 2), got ${r.code}; ` +
          `stdout ${shown(r.stdout)}; stderr ${shown(r.stderr)}`,
      );
      assert.match(
        r.stderr,
        /^lore: [^\n]+\n$/,
        `${label}: stderr must be exactly one line starting "lore: "; got ${JSON.stringify(r.stderr)}`,
      );
      assert.doesNotMatch(r.stderr, /unexpected error/, `${label}: a crash, not a clear error: ${r.stderr}`);
      for (const pattern of says)
        assert.match(
          r.stderr,
          pattern,
          `${label}: the error should say what was wrong (${pattern}); got ${shown(r.stderr)}`,
        );
      if (!args.includes('--json')) assert.equal(r.stdout, '', `${label}: nothing on stdout; got ${shown(r.stdout)}`);
      for (const text of never) {
        assert.ok(
          !r.stderr.includes(text) && !r.stdout.includes(text),
          `${label}: the output must not echo ${JSON.stringify(text.slice(0, 8))}…`,
        );
      }
      if (storeDigest(copy) !== templateDigest) {
        // Say how, in the terms a user would check: list --json and audit verify --json.
        const after = storeView(copy);
        assert.fail(
          `${label}: the store changed: list total ${templateView.total} → ` +
            `${after.total}, audit events ${templateView.audit.events} → ` +
            `${after.audit.events}` +
            (isDeepStrictEqual(after, templateView)
              ? ' (the file changed even though list and audit read the same)'
              : ''),
        );
      }
    }

    it(
      'a copy of the seeded store lists and verifies exactly like the ' +
        'original (what "unchanged" is compared with)',
      () => {
        const copy = copyOfSeededStore('copy');
        assert.deepEqual(storeView(copy), templateView);
        assert.equal(storeDigest(copy), templateDigest, 'reading a store does not change its file');
      },
    );

    const long = (n: number) => 'x'.repeat(n);
    const base = ['--type', 'decision', '--title', 'A fresh decision', '--description', 'Something we decided'];
    const without = (flag: string) => {
      const i = base.indexOf(flag);
      return [...base.slice(0, i), ...base.slice(i + 2)];
    };

    it('remember: missing fields, over-limit text, bad dates and values, unknown options', async () => {
      const bodyFile = join(space.root, 'body.md');
      const big = join(space.root, 'big.md');
      writeFileSync(big, 'b'.repeat(16 * 1024 + 1));
      const wide = join(space.root, 'wide.md');
      writeFileSync(wide, 'é'.repeat(8193)); // 8193 characters, 16386 bytes: the limit is in bytes
      writeFileSync(bodyFile, 'fine');
      await refusedAll([
        { args: ['remember', ...without('--type')], says: [/needs --type/] },
        { args: ['remember', ...without('--title')], says: [/needs --title/] },
        { args: ['remember', ...without('--description')], says: [/needs --description/] },
        { args: ['remember', '--type', 'decision', '--title', '', '--description', 'x'], says: [/--title/] },
        {
          args: ['remember', '--type', 'decision', '--title', long(121), '--description', 'x'],
          says: [/title is 121 characters; the limit is 120/],
        },
        {
          args: ['remember', '--type', 'decision', '--title', 'T', '--description', long(301)],
          says: [/description is 301 characters; the limit is 300/],
        },
        { args: ['remember', ...base, '--body-file', big], says: [/body is 16385 bytes; the limit is 16384/] },
        { args: ['remember', ...base, '--body-file', wide], says: [/body is 16386 bytes/] },
        {
          args: ['remember', ...base, '--body-file', join(space.root, 'missing.md')],
          says: [/cannot read --body-file/, /ENOENT/],
        },
        {
          args: ['remember', ...base, '--body', 'x', '--body-file', bodyFile],
          says: [/--body or --body-file, not both/],
        },
        { args: ['remember', ...base, '--valid-from', '2026-13-45'], says: [/valid_from/, /2026-13-45/] },
        { args: ['remember', ...base, '--valid-from', 'yesterday'], says: [/valid_from/, /yesterday/] },
        // A calendar day that does not exist must be refused, not rolled over to March 2.
        { args: ['remember', ...base, '--valid-from', '2026-02-30'], says: [/valid_from/, /2026-02-30/] },
        {
          args: ['remember', ...base, '--valid-from', '2021-01-01', '--valid-until', '2020-01-01'],
          says: [/valid_until must be later than valid_from/],
        },
        {
          args: ['remember', '--type', 'decree', '--title', 'T', '--description', 'D'],
          says: [/type must be one of/, /decree/],
        },
        { args: ['remember', ...base, '--key', 'nokeytype'], says: [/"nokeytype" is not a valid key/] },
        {
          args: ['remember', ...base, '--key', 'runbook/a-fresh-decision'],
          says: [/does not start with its type "decision\/"/],
        },
        { args: ['remember', ...base, '--confidence', 'high'], says: [/--confidence must be a number/] },
        {
          args: ['remember', ...base, '--expected-version', 'two'],
          says: [/--expected-version must be a whole number/],
        },
        { args: ['remember', ...base, '--link', long(121)], says: [/links\[0\] is 121 characters; the limit is 120/] },
        { args: ['remember', ...base, '--bogus', 'x'], says: [/unknown option '--bogus'/] },
        { args: ['remember', ...base, 'stray'], says: [/unexpected argument.*stray/] },
      ]);
    });

    it('remember: a secret is refused by rule name and never echoed', async () => {
      const secretBody = join(space.root, 'secret.md');
      writeFileSync(secretBody, `Deploy with this token: ${GITHUB_TOKEN}\n`);
      const never = [GITHUB_TOKEN, GITHUB_TOKEN.slice(4, 24)];
      const [inline] = await refusedAll([
        {
          args: ['remember', ...base, '--json', '--body', `the CI token is ${GITHUB_TOKEN}`],
          says: [/github-token/],
          never,
        },
        { args: ['remember', ...base, '--body-file', secretBody], says: [/github-token/], never },
      ]);
      assert.equal(inline.json?.error?.code, 'SECRET_DETECTED');
      assert.equal(inline.json?.error?.details?.rule, 'github-token');
    });

    it('recall: no query, bad --limit, bad --as-of, unknown type or option', async () => {
      await refusedAll([
        { args: ['recall'], says: [/needs QUERY/] },
        { args: ['recall', 'queue', '--limit', 'ten'], says: [/--limit must be a whole number; got "ten"/] },
        { args: ['recall', 'queue', '--limit', '0'], says: [/limit must be a whole number from 1 to \d+; got 0/] },
        { args: ['recall', 'queue', '--limit', '201'], says: [/limit must be a whole number from 1 to \d+; got 201/] },
        { args: ['recall', 'queue', '--as-of', 'yesterday'], says: [/as_of/, /yesterday/] },
        { args: ['recall', 'queue', '--type', 'decree'], says: [/type must be one of/, /decree/] },
        { args: ['recall', '!!!'], says: [/no searchable words/] },
        { args: ['recall', 'queue', '--bogus'], says: [/unknown option '--bogus'/] },
      ]);
    });

    it('get: no key, malformed or unknown keys, bad --version', async () => {
      await refusedAll([
        { args: ['get'], says: [/needs KEY/] },
        { args: ['get', 'nokeytype'], says: [/"nokeytype" is not a valid key/] },
        { args: ['get', 'decision/nope'], says: [/no memory with key decision\/nope/] },
        { args: ['get', QUEUE.key, '--version', 'ten'], says: [/--version must be a whole number/] },
        { args: ['get', QUEUE.key, '--version', '0'], says: [/version must be a whole number from 1/] },
        { args: ['get', QUEUE.key, '--version', '99'], says: [/has no kept version 99/] },
        { args: ['get', QUEUE.key, RUNBOOK], says: [/unexpected argument/] },
        { args: ['get', QUEUE.key, '--bogus'], says: [/unknown option '--bogus'/] },
      ]);
    });

    it('list: bad --limit, --offset, --status, --type, stray arguments', async () => {
      await refusedAll([
        { args: ['list', '--limit', 'ten'], says: [/--limit must be a whole number; got "ten"/] },
        { args: ['list', '--limit', '0'], says: [/limit must be a whole number from 1 to 200; got 0/] },
        { args: ['list', '--limit', '201'], says: [/limit must be a whole number from 1 to 200; got 201/] },
        { args: ['list', '--offset=-1'], says: [/offset must be a whole number from 0/] },
        // As people type it: parseArgs takes "-1" for an option; the answer must still be one line.
        { args: ['list', '--offset', '-1'], says: [/--offset/] },
        { args: ['list', '--offset', 'first'], says: [/--offset must be a whole number/] },
        { args: ['list', '--status', 'alive'], says: [/status must be one of/, /alive/] },
        { args: ['list', '--type', 'decree'], says: [/type must be one of/, /decree/] },
        { args: ['list', 'decisions'], says: [/unexpected argument.*decisions/] },
        { args: ['list', '--bogus'], says: [/unknown option '--bogus'/] },
      ]);
    });

    it('history: no key, malformed or unknown keys', async () => {
      await refusedAll([
        { args: ['history'], says: [/needs KEY/] },
        { args: ['history', 'nokeytype'], says: [/"nokeytype" is not a valid key/] },
        { args: ['history', 'decision/nope'], says: [/no memory with key decision\/nope/] },
        { args: ['history', QUEUE.key, RUNBOOK], says: [/unexpected argument/] },
        { args: ['history', QUEUE.key, '--bogus'], says: [/unknown option '--bogus'/] },
      ]);
    });

    it(
      'deprecate, dispute, retract: no key, no reason, malformed or ' +
        'unknown keys, over-long or secret reasons, a retracted record',
      async () => {
        const cases: Case[] = [];
        for (const command of ['deprecate', 'dispute', 'retract']) {
          cases.push(
            { args: [command, '--reason', 'why'], says: [/needs KEY/] },
            { args: [command, QUEUE.key], says: [/needs --reason/] },
            { args: [command, QUEUE.key, '--reason', ''], says: [/needs --reason/] },
            { args: [command, 'decision/nope', '--reason', 'why'], says: [/no memory with key decision\/nope/] },
            { args: [command, RETRACTED, '--reason', 'why'], says: [/is retracted/] },
            { args: [command, QUEUE.key, '--reason', 'why', '--bogus'], says: [/unknown option '--bogus'/] },
          );
        }
        cases.push(
          { args: ['deprecate', 'nokeytype', '--reason', 'why'], says: [/"nokeytype" is not a valid key/] },
          { args: ['dispute', QUEUE.key, '--reason', long(301)], says: [/reason is 301 characters; the limit is 300/] },
          {
            args: ['retract', QUEUE.key, '--reason', `leaked ${GITHUB_TOKEN}`],
            says: [/github-token/],
            never: [GITHUB_TOKEN],
          },
        );
        await refusedAll(cases);
      },
    );

    it('supersede: missing keys, unknown keys, itself, non-live records, bad dates', async () => {
      await refusedAll([
        { args: ['supersede', '--by', RUNBOOK], says: [/needs OLD/] },
        { args: ['supersede', QUEUE.key], says: [/needs --by/] },
        { args: ['supersede', 'nokeytype', '--by', RUNBOOK], says: [/"nokeytype" is not a valid key/] },
        { args: ['supersede', 'decision/nope', '--by', RUNBOOK], says: [/no memory with key decision\/nope/] },
        { args: ['supersede', QUEUE.key, '--by', 'decision/nope'], says: [/no memory with key decision\/nope/] },
        { args: ['supersede', QUEUE.key, '--by', QUEUE.key], says: [/cannot supersede itself/] },
        { args: ['supersede', QUEUE.key, '--by', QUARANTINED], says: [/quarantined/] },
        { args: ['supersede', RETRACTED, '--by', QUEUE.key], says: [/retracted/] },
        {
          args: ['supersede', QUEUE.key, '--by', RUNBOOK, '--valid-from', 'yesterday'],
          says: [/valid_from/, /yesterday/],
        },
        {
          args: ['supersede', QUEUE.key, '--by', RUNBOOK, '--valid-from', '2026-13-45'],
          says: [/valid_from/, /2026-13-45/],
        },
        {
          args: ['supersede', QUEUE.key, '--by', RUNBOOK, '--valid-from', '1999-01-01'],
          says: [/before .*became valid/],
        },
        { args: ['supersede', QUEUE.key, '--by', RUNBOOK, '--bogus'], says: [/unknown option '--bogus'/] },
      ]);
    });

    it(
      'promote, forget: no key, malformed or unknown keys, stray ' +
        'arguments, and (promote) no terminal to confirm in',
      async () => {
        await refusedAll([
          { args: ['promote'], says: [/needs KEY/] },
          { args: ['promote', QUARANTINED, RUNBOOK], says: [/unexpected argument/] },
          { args: ['promote', QUARANTINED, '--yes'], says: [/unknown option '--yes'/] },
          { args: ['promote', QUARANTINED], says: [/interactive terminal/] },
          { args: ['forget'], says: [/needs KEY/] },
          { args: ['forget', 'nokeytype'], says: [/"nokeytype" is not a valid key/] },
          { args: ['forget', 'decision/nope'], says: [/no memory with key decision\/nope/] },
          { args: ['forget', QUEUE.key, RUNBOOK], says: [/unexpected argument/] },
          { args: ['forget', QUEUE.key, '--force'], says: [/unknown option '--force'/] },
        ]);
      },
    );

    it(
      'audit, doctor and the command itself: unknown (sub)commands, ' +
        'stray arguments, unknown options, a bad --workspace',
      async () => {
        const file = join(space.root, 'not-a-folder.txt');
        writeFileSync(file, 'x');
        await refusedAll([
          { args: ['frobnicate'], says: [/unknown command "frobnicate"/] },
          { args: ['audit'], says: [/needs verify/] },
          { args: ['audit', 'frobnicate'], says: [/unknown audit command "frobnicate"/] },
          { args: ['audit', 'verify', 'now'], says: [/unexpected argument.*now/] },
          { args: ['audit', 'verify', '--bogus'], says: [/unknown option '--bogus'/] },
          { args: ['doctor', 'now'], says: [/unexpected argument.*now/] },
          { args: ['doctor', '--bogus'], says: [/unknown option '--bogus'/] },
        ]);
        for (const command of [['list'], ['remember', ...base]]) {
          const missing = runCli(command, { home: space.home, workspace: join(space.root, 'no-such-folder') });
          assert.notEqual(missing.code, 0);
          assert.match(missing.stderr, /^lore: workspace folder .*no-such-folder does not exist[^\n]*\n$/);
          const notDir = runCli(command, { home: space.home, workspace: file });
          assert.notEqual(notDir.code, 0);
          assert.match(notDir.stderr, /^lore: workspace .*not-a-folder\.txt is not a folder[^\n]*\n$/);
        }
      },
    );

    it('in a workspace that has no store yet, a refused command does not create one', async () => {
      const cases = [
        ['get', 'nokeytype'],
        ['list', '--limit', '0'],
        ['recall', '!!!'],
        ['remember', '--type', 'decision', '--title', long(121), '--description', 'D'],
      ];
      const results = await inParallel(cases, PARALLEL, async (args, i) => {
        const workspace = join(space.root, `fresh-${i}`);
        mkdirSync(workspace);
        const r = await runCliAsync(args, { home: space.home, workspace });
        return { args, r, dir: storePaths(workspace, space.home).dir };
      });
      for (const { args, r } of results) {
        assert.notEqual(r.code, 0, `lore ${args[0]} must fail`);
        assert.match(r.stderr, /^lore: [^\n]+\n$/);
      }
      const leftBehind = results
        .filter(({ dir }) => existsSync(dir))
        .map(({ args }) => `lore ${args.join(' ').slice(0, 40)}`);
      assert.deepEqual(leftBehind, [], 'these were refused but created a store for the workspace');
    });

    it('with --json an error is also a JSON document on stdout, and stderr still has its one line', async () => {
      const [missing, usage] = await refusedAll([
        { args: ['get', 'decision/nope', '--json'], says: [/^lore: no memory with key decision\/nope/] },
        { args: ['list', '--limit', 'ten', '--json'], says: [/--limit/] },
      ]);
      assert.equal(missing.code, 1);
      assert.equal(missing.json?.error?.code, 'NOT_FOUND');
      assert.match(missing.json?.error?.message, /no memory with key decision\/nope/);
      assert.equal(usage.code, 2);
      assert.equal(usage.json?.error?.code, 'INVALID_INPUT');
    });
  });

  describe('--workspace', () => {
    it('defaults to the current folder, and the store lives outside it', () => {
      const r = runCli(
        ['remember', '--json', '--type', 'decision', '--title', QUEUE.title, '--description', QUEUE.description],
        { home: space.home, cwd: space.workspace },
      );
      saved(r);
      const elsewhere = ok(
        runCli(['get', QUEUE.key, '--json'], { home: space.home, workspace: space.workspace, cwd: space.root }),
      );
      assert.equal(
        elsewhere.json.memory.title,
        QUEUE.title,
        '--workspace DIR reaches the store that the cwd default wrote',
      );
      const doctor = ok(runCli(['doctor', '--json'], { home: space.home, cwd: space.workspace }));
      assert.equal(
        doctor.json.checks.find((c: { name: string }) => c.name === 'workspace').detail,
        realpathSync(space.workspace),
      );
      assert.deepEqual(readdirSync(space.workspace), [], 'nothing is written into the workspace folder');
      assert.ok(existsSync(space.paths().database), 'the store is in LORE_HOME');
    });

    it('gives two workspaces two different stores', () => {
      const other = join(space.root, 'other-repo');
      mkdirSync(other);
      const inOther = (...args: string[]) => runCli(args, { home: space.home, workspace: other });
      saved(remember(space, QUEUE));

      assert.equal(ok(inOther('list', '--json')).json.total, 0);
      assert.notEqual(inOther('get', QUEUE.key).code, 0);
      saved(
        inOther('remember', '--json', '--type', 'runbook', '--title', 'Rotate certificates', '--description', 'Yearly'),
      );
      assert.deepEqual(
        ok(space.lore('list', '--json')).json.items.map((m: { key: string }) => m.key),
        [QUEUE.key],
        'the first store is untouched',
      );

      const b = ok(inOther('doctor', '--json')).json.checks.find((c: { name: string }) => c.name === 'store')
        .detail as string;
      assert.notEqual(dirname(b), space.paths().dir, 'the other workspace has a store folder of its own');
      assert.ok(b.startsWith(space.home), 'under the same LORE_HOME');
    });

    it('reaches the same store through a symlink (the store is keyed by the real path)', () => {
      saved(remember(space, QUEUE));
      const link = join(space.root, 'repo-link');
      symlinkSync(space.workspace, link);
      const r = ok(runCli(['list', '--json'], { home: space.home, workspace: link }));
      assert.deepEqual(
        r.json.items.map((m: { key: string }) => m.key),
        [QUEUE.key],
      );
    });
  });

  describe('promote', () => {
    const FACT = {
      type: 'fact',
      title: 'Redis is faster for queues',
      description: 'Claimed by a blog post about queues',
    };
    const KEY = 'fact/redis-is-faster-for-queues';
    const inTerminal = (args: string[], input: string) =>
      runCliInTerminal(args, { home: space.home, workspace: space.workspace, input });

    beforeEach(() => {
      const r = saved(remember(space, FACT, '--source', 'webpage'));
      assert.equal(r.status, 'quarantined', 'a webpage source lands quarantined');
    });

    it('is refused without an interactive terminal, even with "y" piped in, and the record stays quarantined', () => {
      assert.deepEqual(recallKeys(space, 'redis', 'queues'), [], 'quarantined records are not recalled');
      const digest = storeDigest(space);
      const r = runCli(['promote', KEY], { home: space.home, workspace: space.workspace, input: 'y\n' });
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /^lore: [^\n]*interactive terminal[^\n]*\n$/,
        'one line saying it needs an interactive terminal',
      );
      assert.equal(r.stdout, '');
      assert.equal(storeDigest(space), digest);
      assert.equal(ok(space.lore('get', KEY, '--json')).json.memory.status, 'quarantined');
      assert.deepEqual(recallKeys(space, 'redis', 'queues'), []);
    });

    it('refuses a terminal that answers "y" instead of the code it shows (a script, not a person)', () => {
      const digest = storeDigest(space);
      const r = inTerminal(['--json', 'promote', KEY], 'y\n');
      assert.notEqual(r.code, 0);
      assert.match(r.stdout, /type this code: \d{3} \d{3}/, 'it shows a one-time code');
      assert.match(r.stdout, /^saved from: {2}webpage/m, 'it shows where the record came from');
      assert.match(r.stdout + r.stderr, /the code typed is not the one shown/);
      assert.equal(storeDigest(space), digest, 'nothing was written');
      assert.deepEqual(recallKeys(space, 'redis', 'queues'), []);
      // A person typing the code promotes: test/e2e/personActs.test.ts.
    });

    it('leaves the record quarantined when the person answers "n"', () => {
      const digest = storeDigest(space);
      const r = inTerminal(['--json', 'promote', KEY], 'n\n');
      assert.notEqual(r.code, 0);
      assert.equal(r.json?.promoted, false, r.stdout);
      assert.equal(storeDigest(space), digest, 'nothing was written');
      assert.equal(ok(space.lore('get', KEY, '--json')).json.memory.status, 'quarantined');
      assert.deepEqual(recallKeys(space, 'redis', 'queues'), []);
    });

    it('in a terminal, refuses an unknown key and a record that is not quarantined', () => {
      saved(remember(space, QUEUE));
      const digest = storeDigest(space);
      const unknown = inTerminal(['promote', 'fact/nope'], 'y\n');
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stdout + unknown.stderr, /no memory with key fact\/nope/);
      const active = inTerminal(['promote', QUEUE.key], '\n');
      assert.notEqual(active.code, 0);
      assert.match(active.stdout + active.stderr, /not promoted/);
      assert.equal(storeDigest(space), digest);
    });
  });
});
