// A full `lore index` of a fixture tree (the test fixtures' real public files, with copies of the
// same content under several paths, and a page of links into sections, folders and symbols) holds
// exactly what the committed expectation says: per document, its kind, chunks and drift references
// (test/support/indexDigest.ts). The indexer's speed work (content extracted once per hash, symbol
// files parsed only when a reference asks, batched writes) must leave every one of them as it was.
// LORE_UPDATE_EXPECTED=1 rewrites the expectation (only for a change meant to alter results).

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, makeSpace, type CliSpace } from '../support/cli';
import { indexDigest } from '../support/indexDigest';

const FIXTURES = resolve(__dirname, '..', 'fixtures');
const EXPECTED = resolve(__dirname, 'indexIdentity.expected.json');

const LINKS = `# Links into the tree

- [alpha's architecture](../fixtures/kinds/repos/alpha/files/docs/architecture.md#architecture-of-alpha)
- [the same page in beta](../fixtures/kinds/repos/beta/files/docs/architecture.md)
- [the fixtures' readme](../fixtures/classify/README.md#classification-fixtures-issue-17)
- [eks inputs](../fixtures/drift-kinds/modules/eks/README.md#inputs), and a missing one:
  [gone](../fixtures/drift-kinds/modules/eks/README.md#outputs)
- the upgrader's \`main\` in \`fixtures/drift-flags/cmd/upgrader/main.go\`
- the runbook's script \`fixtures/drift-runbook/scripts/restore_db.bash\` and folder \`fixtures/drift-mentions/tools\`
- a copy: [copied runbook](../copy/drift-runbook/SOURCE.md)
`;

describe('lore index: what a full index holds', function () {
  this.timeout(300_000);
  let space: CliSpace;
  before(() => {
    space = makeSpace('lore-index-identity-');
    mkdirSync(join(space.workspace, '.git'));
    cpSync(FIXTURES, join(space.workspace, 'fixtures'), { recursive: true });
    // The same content under other paths: copies are indexed as documents of their own.
    cpSync(join(FIXTURES, 'drift-runbook'), join(space.workspace, 'copy', 'drift-runbook'), { recursive: true });
    cpSync(join(FIXTURES, 'drift-flags'), join(space.workspace, 'copy', 'drift-flags'), { recursive: true });
    mkdirSync(join(space.workspace, 'notes'));
    writeFileSync(join(space.workspace, 'notes', 'links.md'), LINKS);
  });
  after(() => space.cleanup());

  /** `lore index --full --json`, given the minutes a loaded machine may take (runCli stops at 30 s). */
  const indexFull = () => {
    const child = spawnSync(process.execPath, [CLI, '--workspace', space.workspace, 'index', '--full', '--json'], {
      env: { ...process.env, LORE_HOME: space.home, LORE_EMBED: 'off' },
      encoding: 'utf8',
      timeout: 240_000,
    });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout) as { summary: { indexed: number } };
  };

  it('indexes every document, chunk, kind and drift reference as the expectation records', () => {
    const run = indexFull();
    assert.ok(run.summary.indexed > 150, `indexed ${run.summary.indexed}`);
    const got = indexDigest(space.paths().database);
    if (process.env.LORE_UPDATE_EXPECTED === '1') writeFileSync(EXPECTED, JSON.stringify(got, null, 2) + '\n');
    const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as Record<string, string>;
    const differ = Object.keys({ ...expected, ...got }).filter((path) => expected[path] !== got[path]);
    assert.deepEqual(differ, [], 'documents whose row, chunks or references differ from the expectation');
    // A second full index over the first gives the same store (nothing depends on what was there).
    indexFull();
    assert.deepEqual(indexDigest(space.paths().database), got);
  });
});
