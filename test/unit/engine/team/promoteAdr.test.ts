// Promote to Repository writes an ADR a maintainer would merge (issue 25), in three conventions
// with an index: adr-tools (its `generate toc` list), MADR (an index.md table) and a numbered
// folder whose README lists the newest first. The selection's own fences are kept and none is left
// open; the file name is the title cut at a word boundary; the index gains an entry in its own
// format; a preview says where it would go and writes nothing.

import { strict as assert } from 'node:assert';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkspaceRepoFiles } from '../../../../src/host/repoFiles';
import { memory, openTestStore, person, tempDir, type TestStore } from '../../../support/store';
import { openFence } from '../../../../src/engine/text/fences';
import { adrTitle } from '../../../../src/engine/team/adrIndex';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'adr-repos');
const TITLE = 'Roll back a failed Helm release with the previous revision instead of redeploying from main';
const KEY = 'decision/roll-back-a-failed-helm-release';
const SLUG = 'roll-back-a-failed-helm-release-with-the-previous-revision';
const BODY = 'When a release fails its checks:\n\n```bash\nhelm rollback api 0 --wait\n```\n\nThen page the owner.';

function repoFrom(fixture: string): string {
  const root = tempDir('lore-repo-');
  cpSync(join(FIXTURES, fixture), root, { recursive: true });
  return root;
}

describe('promote to repository: an ADR a maintainer would merge', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory({ key: KEY, title: TITLE, body: BODY }));
  });
  afterEach(() => s.cleanup());

  const cases = [
    {
      fixture: 'adr-tools-toc',
      path: `doc/adr/0003-${SLUG}.md`,
      index: 'doc/adr/README.md',
      entry: `* [3. ${TITLE}](0003-${SLUG}.md)`,
      after: '* [2. Use Terraform for infrastructure](0002-use-terraform-for-infrastructure.md)',
    },
    {
      fixture: 'madr-index',
      path: `docs/decisions/0003-${SLUG}.md`,
      index: 'docs/decisions/index.md',
      entry: `| [ADR-0003](0003-${SLUG}.md) | ${TITLE} | accepted |`,
      after: '| [ADR-0002](0002-use-postgres-for-sessions.md) | Use Postgres for sessions | accepted |',
    },
    {
      fixture: 'numbered-index',
      path: `docs/adr/003-${SLUG}.md`,
      index: 'docs/adr/README.md',
      entry: `- 003 — [${TITLE}](003-${SLUG}.md)`,
      after: 'Newest first.\n',
    },
  ];
  for (const c of cases) {
    it(`${c.fixture}: fences kept, name cut at a word, the index's own format`, () => {
      const root = repoFrom(c.fixture);
      const before = readdirSync(join(root, c.path, '..')).sort();
      const preview = s.engine.canonicalize(person, KEY, { as: 'adr', preview: true }, new WorkspaceRepoFiles(root));
      assert.equal(preview.path, c.path);
      assert.equal(preview.index, c.index);
      assert.deepEqual(readdirSync(join(root, c.path, '..')).sort(), before, 'a preview writes nothing');
      assert.deepEqual(
        s.engine.history(KEY).events.map((e) => e.event),
        ['created'],
      );

      const result = s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(root));
      assert.equal(result.path, c.path);
      const text = readFileSync(join(root, c.path), 'utf8');
      assert.ok(text.includes(BODY), `the selection's own fence is kept as it was:\n${text}`);
      assert.ok(!/```[a-z]+\n[^`]*```bash/.test(text), 'no fence wraps the selection’s fence');
      assert.equal(openFence(text), null);
      assert.equal(adrTitle(text), TITLE);

      const index = readFileSync(join(root, c.index), 'utf8');
      assert.ok(index.includes(`${c.after}\n${c.entry}\n`) || index.includes(`${c.after}\n${c.entry}`), index);
      assert.equal(index.split('\n').filter((l) => l.includes(SLUG)).length, 1);
    });
  }

  it('closes a fence the body left open, so the sections after it stay prose', () => {
    s.engine.remember(person, memory({ key: 'decision/open-fence', title: 'Open fence', body: 'Run:\n\n```sh\nmake' }));
    const root = repoFrom('adr-tools-toc');
    const { path } = s.engine.canonicalize(person, 'decision/open-fence', { as: 'adr' }, new WorkspaceRepoFiles(root));
    const text = readFileSync(join(root, path), 'utf8');
    assert.equal(openFence(text), null);
    assert.match(text, /```sh\nmake\n```\n\n## Consequences/);
  });

  it('a folder without an index gets none, and the same word-boundary name', () => {
    const root = repoFrom('madr');
    const result = s.engine.canonicalize(person, KEY, { as: 'adr' }, new WorkspaceRepoFiles(root));
    assert.equal(result.index, null);
    assert.equal(result.path, `docs/decisions/0002-${SLUG}.md`);
  });
});
