import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classify, LoreError, type Engine, type IndexSummary } from '../../../../src/engine';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { WorkspaceRepoFiles } from '../../../../src/host/repoFiles';
import { confirmedPerson, memory, openTestStore, person, tempDir, type TestStore } from '../../../support/store';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'adr-repos');
const KEY = 'decision/use-postgres-for-the-job-queue';

function repoFrom(fixture: string): string {
  const root = tempDir('lore-repo-');
  cpSync(join(FIXTURES, fixture), root, { recursive: true });
  return root;
}

async function index(engine: Engine, root: string): Promise<IndexSummary> {
  const run = engine.index(new WorkspaceFileSource(root));
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
  }
}

describe('canonicalize (promote to the repository)', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(
      person,
      memory({ anchors: ['src/jobs/queue.ts'], links: ['https://www.postgresql.org/docs/current/sql-select.html'] }),
    );
  });
  afterEach(() => s.cleanup());

  const cases = [
    {
      fixture: 'adr-tools',
      path: 'doc/architecture/decisions/0003-use-postgres-for-the-job-queue.md',
      starts:
        '# 3. Use Postgres for the job queue\n\nDate: 2026-01-01\n\n## ' +
        'Status\n\nAccepted\n\n## Context\n\nBackground jobs go through ' +
        'Postgres',
      has: [
        /## Decision\n\nWe already run Postgres; one fewer system to operate\./,
        /## Consequences\n\nThis decision applies to:\n\n- `src\/jobs\/queue\.ts`/,
      ],
    },
    {
      fixture: 'adr-tools-template',
      path: 'docs/adr/0002-use-postgres-for-the-job-queue.md',
      starts:
        '# 2. Use Postgres for the job queue\n\nDate: 2026-01-01\n\n## ' +
        'Status\n\nAccepted\n\n## Context\n\nBackground jobs',
      has: [/## Decision\n\nWe already run Postgres/, /## Reviewed by\n\n\(names\)/],
    },
    {
      fixture: 'madr',
      path: 'docs/decisions/0002-use-postgres-for-the-job-queue.md',
      starts:
        '---\nstatus: accepted\ndate: 2026-01-01\n---\n# Use Postgres for ' +
        'the job queue\n\n## Context and Problem Statement\n\nBackground ' +
        'jobs',
      has: [/## Decision Outcome\n\nWe already run Postgres/, /### Consequences/],
    },
    {
      fixture: 'log4brains',
      path: 'docs/architecture/20260101-use-postgres-for-the-job-queue.md',
      starts:
        '# Use Postgres for the job queue\n\n- Status: accepted\n- Date: ' +
        '2026-01-01\n\n## Context and Problem Statement',
      has: [/## Decision Outcome\n\nWe already run Postgres/],
    },
    {
      fixture: 'plain',
      path: 'architecture/decisions/ADR-013-use-postgres-for-the-job-queue.md',
      starts: '# ADR-013: Use Postgres for the job queue\n\nDate: 2026-01-01\n\n## Status\n\nAccepted',
      has: [/## Decision\n\nWe already run Postgres/],
    },
    {
      fixture: 'none',
      path: 'docs/adr/0001-use-postgres-for-the-job-queue.md',
      starts: '# 1. Use Postgres for the job queue\n\nDate: 2026-01-01\n\n## Status',
      has: [/## Context\n\nBackground jobs/],
    },
  ];
  for (const c of cases) {
    it(
      `writes an ADR in the ${c.fixture} convention with the next ` + `number, found by the indexer as an ADR`,
      async () => {
        const root = repoFrom(c.fixture);
        const result = s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(root));
        assert.equal(result.path, c.path);
        assert.equal(result.as, 'adr');
        const text = readFileSync(join(root, c.path), 'utf8');
        assert.ok(text.startsWith(c.starts), `${c.path} starts:\n${text.slice(0, 300)}`);
        for (const pattern of c.has) assert.match(text, pattern);
        assert.match(text, /<!-- lore: decision\/use-postgres-for-the-job-queue v1 [0-9a-f]{64} -->\n$/);
        assert.equal(classify(c.path, text), 'adr');

        const summary = await index(s.engine, root);
        assert.ok(summary.indexed >= 1);
        const hits = (await s.engine.recall({ query: 'postgres job queue' })).results;
        assert.ok(
          hits.some((h) => h.record === 'doc' && h.path === c.path && h.kind === 'adr'),
          JSON.stringify(hits.map((h) => h.key)),
        );

        assert.throws(
          () => s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(root)),
          new RegExp(`already written as ${c.path.replace(/\//g, '\\/')}`),
        );
        assert.deepEqual(
          s.engine.history(KEY).events.map((e) => [e.event, e.reason]),
          [
            ['created', null],
            ['canonicalized', `written to ${c.path}`],
          ],
        );
        assert.equal(
          s.db.all<{ event: string }>("SELECT event FROM audit_events WHERE event = 'memory.canonicalize'").length,
          1,
        );
      },
    );
  }

  it('defaults to an ADR where the repository keeps them, else to a .lore/ record; only decisions become ADRs', () => {
    const plain = repoFrom('plain');
    assert.equal(s.engine.canonicalize(person, KEY, {}, new WorkspaceRepoFiles(plain)).as, 'adr');
    const none = repoFrom('none');
    assert.deepEqual(
      s.engine.canonicalize(person, KEY, {}, new WorkspaceRepoFiles(none)).path,
      '.lore/decision/use-postgres-for-the-job-queue.json',
    );
    s.engine.remember(
      person,
      memory({ type: 'runbook', title: 'Restart the queue', description: 'How to restart the job queue' }),
    );
    assert.throws(
      () => s.engine.canonicalize(person, 'runbook/restart-the-queue', { as: 'adr' }, new WorkspaceRepoFiles(none)),
      /only a decision is written as an ADR/,
    );
    s.engine.remember(
      person,
      memory({ title: 'From a blog', description: 'Cache for a day', provenance: { source: 'webpage' } }),
    );
    assert.throws(
      () => s.engine.canonicalize(person, 'decision/from-a-blog', { as: 'record' }, new WorkspaceRepoFiles(none)),
      (e: unknown) => e instanceof LoreError && e.code === 'INVALID_STATE' && /lore promote/.test(e.hint ?? ''),
    );
  });

  it('reads and writes nothing outside the workspace: a symlinked template or record file is refused', () => {
    const outside = tempDir('lore-outside-');
    writeFileSync(join(outside, 'credentials'), 'aws_secret_access_key = TOP-SECRET-TEMPLATE\n');
    writeFileSync(join(outside, 'precious.txt'), 'precious\n');

    const adr = repoFrom('adr-tools-template');
    rmSync(join(adr, 'docs/adr/templates/template.md'));
    symlinkSync(join(outside, 'credentials'), join(adr, 'docs/adr/templates/template.md'));
    assert.throws(
      () => s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(adr)),
      (e: unknown) =>
        e instanceof LoreError &&
        e.code === 'INVALID_INPUT' &&
        /docs\/adr\/templates\/template\.md leads outside the workspace/.test(e.message),
    );
    assert.equal(existsSync(join(adr, 'docs/adr/0002-use-postgres-for-the-job-queue.md')), false);

    const none = repoFrom('none');
    mkdirSync(join(none, '.lore/decision'), { recursive: true });
    symlinkSync(join(outside, 'precious.txt'), join(none, '.lore/decision/use-postgres-for-the-job-queue.json'));
    assert.throws(
      () => s.engine.canonicalize(person, KEY, { as: 'record' }, new WorkspaceRepoFiles(none)),
      /use-postgres-for-the-job-queue\.json leads outside the workspace/,
    );
    assert.equal(readFileSync(join(outside, 'precious.txt'), 'utf8'), 'precious\n');
    // Nor through a symlink to another file of the repository.
    const readme = readFileSync(join(none, 'README.md'), 'utf8');
    rmSync(join(none, '.lore/decision/use-postgres-for-the-job-queue.json'));
    symlinkSync(join(none, 'README.md'), join(none, '.lore/decision/use-postgres-for-the-job-queue.json'));
    assert.throws(
      () => s.engine.canonicalize(person, KEY, { as: 'record' }, new WorkspaceRepoFiles(none)),
      /is a symlink; Lore does not write through it/,
    );
    assert.equal(readFileSync(join(none, 'README.md'), 'utf8'), readme);

    const linked = repoFrom('none');
    symlinkSync(outside, join(linked, 'docs'));
    assert.throws(
      () => s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(linked)),
      /leads outside the workspace/,
    );
    assert.deepEqual(readdirSync(outside).sort(), ['credentials', 'precious.txt'], 'no folder made outside either');
    assert.deepEqual(
      s.engine.history(KEY).events.map((e) => e.event),
      ['created'],
    );
  });

  describe('.lore/ records through git', () => {
    let teammate: TestStore;
    let root: string;
    const file = '.lore/decision/use-postgres-for-the-job-queue.json';
    beforeEach(() => {
      teammate = openTestStore();
      root = repoFrom('none');
      s.engine.canonicalize(person, KEY, { as: 'record' }, new WorkspaceRepoFiles(root));
    });
    afterEach(() => teammate.cleanup());

    it(
      "arrive in a teammate's store on index, with the author intact; " + 'quarantined until that author is trusted',
      async () => {
        assert.ok(existsSync(join(root, file)));
        const mine = await index(s.engine, root);
        assert.deepEqual(mine.records, {
          files: 1,
          imported: [],
          unchanged: 1,
          quarantined: [],
          conflicts: [],
          refused: [],
        });

        const first = await index(teammate.engine, root);
        assert.deepEqual(first.records?.imported, [KEY]);
        assert.deepEqual(first.records?.quarantined, [KEY]);
        const arrived = teammate.engine.get(KEY).memory;
        assert.equal(arrived.author, s.engine.get(KEY).memory.author);
        assert.equal(arrived.status, 'quarantined');
        assert.equal(
          teammate.db.get<{ actor: string }>("SELECT actor FROM audit_events WHERE event = 'memory.import'")?.actor,
          'import:repository',
        );

        // Trusted, the author's next version arrives active.
        teammate.engine.trustAuthor(confirmedPerson, s.engine.trustedKeys().this_machine.public_key);
        s.engine.remember(person, memory({ description: 'Jobs go through Postgres with SKIP LOCKED; no broker' }));
        assert.equal(s.engine.canonicalize(person, KEY, { as: 'record' }, new WorkspaceRepoFiles(root)).replaced, true);
        const second = await index(teammate.engine, root);
        assert.deepEqual(second.records?.imported, [KEY]);
        assert.equal(teammate.engine.get(KEY).memory.status, 'active');
        assert.equal(
          teammate.engine.get(KEY).memory.description,
          'Jobs go through Postgres with SKIP LOCKED; no broker',
        );
      },
    );

    it('a tampered record file is refused on index and named; nothing is imported', async () => {
      const text = readFileSync(join(root, file), 'utf8');
      writeFileSync(join(root, file), text.replace('SKIP LOCKED', 'NOWAIT'));
      const before = teammate.engine.stats();
      const summary = await index(teammate.engine, root);
      assert.equal(summary.records?.refused.length, 1);
      assert.equal(summary.records?.refused[0].path, file);
      assert.match(
        summary.records!.refused[0].reason,
        /record decision\/use-postgres-for-the-job-queue: its content was changed after it was signed/,
      );
      assert.deepEqual(teammate.engine.stats(), before);
      assert.throws(() => teammate.engine.get(KEY), /no memory with key/);
    });

    it('a record file moved to another path is refused', async () => {
      writeFileSync(join(root, '.lore/decision/use-mysql.json'), readFileSync(join(root, file)));
      const summary = await index(teammate.engine, root);
      assert.deepEqual(
        summary.records?.refused.map((r) => r.path),
        ['.lore/decision/use-mysql.json'],
      );
      assert.match(
        summary.records!.refused[0].reason,
        /holds decision\/use-postgres-for-the-job-queue, whose file is \.lore\/decision\/use-postgres-for-the-job-queue\.json/,
      );
    });

    it('an older record file (an old commit checked out, a file reverted) leaves the newer record alone', async () => {
      teammate.engine.trustAuthor(confirmedPerson, s.engine.trustedKeys().this_machine.public_key);
      const old = readFileSync(join(root, file), 'utf8');
      s.engine.remember(person, memory({ description: "The author's update" }));
      s.engine.canonicalize(person, KEY, { as: 'record' }, new WorkspaceRepoFiles(root));
      await index(teammate.engine, root);
      assert.equal(teammate.engine.get(KEY).memory.description, "The author's update");
      writeFileSync(join(root, file), old);
      const summary = await index(teammate.engine, root);
      assert.deepEqual([summary.records?.imported, summary.records?.unchanged], [[], 1]);
      assert.equal(teammate.engine.get(KEY).memory.description, "The author's update");
      assert.equal(teammate.engine.get(KEY).memory.status, 'active');
    });

    it(
      'keeps a record edited in this store after it arrived, reporting ' +
        "the repository's newer version as a conflict",
      async () => {
        await index(teammate.engine, root);
        teammate.engine.promote(confirmedPerson, KEY);
        teammate.engine.remember(person, memory({ description: 'Our local refinement' }));
        s.engine.remember(person, memory({ description: "The author's update" }));
        s.engine.canonicalize(person, KEY, { as: 'record' }, new WorkspaceRepoFiles(root));
        const summary = await index(teammate.engine, root);
        assert.deepEqual(summary.records?.conflicts, [{ path: file, key: KEY }]);
        assert.equal(teammate.engine.get(KEY).memory.description, 'Our local refinement');
      },
    );
  });
});
