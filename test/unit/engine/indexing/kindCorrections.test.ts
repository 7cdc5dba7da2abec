// A person's kinds (`.lore/kinds`) over the classifier's, as every index applies them: a full
// index, an incremental one after the file changed (only the documents whose rule changed are
// re-read), a file renamed across a rule, a bad line reported and ignored, and a caller that does
// not read the file leaving the corrections in force. Real files, a real SQLite store.

import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, type IndexSummary } from '../../../../src/engine';
import { localApi, type EngineApi } from '../../../../src/host/engineApi';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { tempDir, TestClock } from '../../../support/store';

const FIXTURE = join(__dirname, '..', '..', '..', 'fixtures', 'workspace');

describe('kinds a person set in .lore/kinds', () => {
  let dir: string;
  let root: string;
  let db: WasmSqlDatabase;
  let engine: Engine;
  let api: EngineApi;
  const kindOf = (path: string) => db.get<{ kind: string }>('SELECT kind FROM docs WHERE path = ?', [path])?.kind;
  const rules = (text: string) => {
    mkdirSync(join(root, '.lore'), { recursive: true });
    writeFileSync(join(root, '.lore', 'kinds'), text);
  };
  const index = async (): Promise<IndexSummary> => (await api.indexWorkspace(root, {})).summary;

  beforeEach(() => {
    dir = tempDir('lore-kinds-');
    root = join(dir, 'repo');
    cpSync(FIXTURE, root, { recursive: true });
    db = new WasmSqlDatabase(join(dir, 'lore.db'));
    engine = new Engine({ db, clock: new TestClock() });
    api = localApi(engine, root);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('win over the classifier on a first index, and the listing says which rule set them', async () => {
    rules('# ours\ndocs/guide.md runbook\ndocs/incidents/** Runbooks\n');
    const summary = await index();
    assert.equal(kindOf('docs/guide.md'), 'runbook');
    assert.equal(kindOf('docs/incidents/2025-03-01-queue-outage.md'), 'runbook');
    assert.equal(kindOf('docs/ops/restart-workers.md'), 'runbook', 'the classifier still decides the rest');
    assert.equal(kindOf('README.md'), 'readme');
    assert.deepEqual(summary.kind_rules, { rules: 2, problems: [], reclassified: 0 });
    assert.equal(kindOf('.lore/kinds'), undefined, 'the rules are not a document');
    const listed = await api.listDocs({ kinds: ['runbook'] });
    assert.deepEqual(
      listed.items.map((d) => [d.path, d.kind_rule]),
      [
        ['docs/guide.md', 'docs/guide.md'],
        ['docs/incidents/2025-03-01-queue-outage.md', 'docs/incidents/**'],
        ['docs/ops/restart-workers.md', undefined],
      ],
    );
    assert.equal((await api.indexStatus()).by_kind.runbook, 3);
  });

  it('re-classifies only the documents whose rule changed when the file changes, then gives them back', async () => {
    const first = await index();
    assert.equal(kindOf('docs/ops/restart-workers.md'), 'runbook');
    assert.equal(first.indexed, 10);
    rules('docs/ops/** guide\n');
    const edited = await index();
    assert.equal(kindOf('docs/ops/restart-workers.md'), 'guide');
    assert.deepEqual(
      [edited.indexed, edited.unchanged, edited.kind_rules?.reclassified],
      [1, 9, 1],
      'one document re-read, not a full re-index',
    );
    const again = await index();
    assert.deepEqual([again.indexed, again.kind_rules?.reclassified], [0, 0], 'the same rules change nothing');
    rules('# nothing set any more\n');
    const removed = await index();
    assert.equal(kindOf('docs/ops/restart-workers.md'), 'runbook', 'the classifier’s kind is back');
    assert.deepEqual([removed.indexed, removed.kind_rules?.reclassified], [1, 1]);
  });

  it('reports a bad line with its number, ignores it, and indexes with the good ones', async () => {
    rules('docs/guide.md runbok\ndocs/guide.md adr\nno-kind-here\n');
    const summary = await index();
    assert.equal(kindOf('docs/guide.md'), 'adr');
    assert.deepEqual(
      summary.kind_rules?.problems.map((p) => p.line),
      [1, 3],
    );
    assert.match(summary.kind_rules!.problems[0].message, /unknown kind "runbok"; the kinds are adr, rfc, runbook/);
  });

  it('gives a file moved under a rule the rule’s kind (a rename does not carry the old kind across)', async () => {
    rules('docs/ops/** postmortem\n');
    await index();
    assert.equal(kindOf('docs/guide.md'), 'guide');
    renameSync(join(root, 'docs/guide.md'), join(root, 'docs/ops/guide.md'));
    const summary = await index();
    assert.equal(kindOf('docs/ops/guide.md'), 'postmortem');
    assert.equal(kindOf('docs/guide.md'), undefined);
    assert.deepEqual([summary.renamed, summary.deleted, summary.indexed], [0, 1, 1]);
  });

  it('stay in force when an index is run by a caller that does not read .lore/kinds', async () => {
    rules('docs/guide.md rfc\n');
    await index();
    writeFileSync(join(root, 'docs/guide.md'), '# Guide\n\nRewritten.\n');
    const run = engine.index(new WorkspaceFileSource(root));
    for (let step = await run.next(); !step.done; step = await run.next());
    assert.equal(kindOf('docs/guide.md'), 'rfc');
  });

  it('counts, for each rule, the indexed documents it matches and the ones it decides', async () => {
    rules('docs/** guide\ndocs/ops/** runbook\nnothing/** adr\n');
    await index();
    const list = await api.listKinds(root);
    assert.deepEqual(
      list.rules.map((r) => [r.line, r.glob, r.kind, r.matches, r.decides]),
      [
        [1, 'docs/**', 'guide', 4, 3],
        [2, 'docs/ops/**', 'runbook', 1, 1],
        [3, 'nothing/**', 'adr', 0, 0],
      ],
    );
  });
});
