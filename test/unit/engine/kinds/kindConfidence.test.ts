// The kind's confidence is kept and used (issue 23, point 7), through a real store: the index stores
// each document's probability, a close runner-up and the deciding signals (schema 12), the document
// list returns them for the tree's tooltip, and a kind-filtered recall ("runbooks for …") also
// returns the borderline documents whose runner-up is that kind, ranked after the kind's own.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '../../../../src/engine';
import { putDoc, type DocRecord } from '../../../../src/engine/indexing/docStore';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { kindReason } from '../../../../src/vscode/views/labels';
import { openTestStore, type TestStore } from '../../../support/store';

function doc(path: string, kind: DocRecord['kind'], text: string, runnerUp: DocRecord['kindRunnerUp']): DocRecord {
  const chunks = [{ heading: path, startLine: 1, endLine: 1, text }];
  return {
    path,
    kind,
    kindConfidence: 0.55,
    kindRunnerUp: runnerUp,
    title: path,
    contentHash: path,
    size: 1,
    mtimeMs: 1,
    redactions: 0,
    chunks,
  };
}

describe('kind confidence: stored, listed, used by the kind filter', function () {
  this.timeout(60_000);
  let s: TestStore;
  beforeEach(() => (s = openTestStore()));
  afterEach(() => s.cleanup());

  it('the index stores each kind with its confidence and signals; the list returns them', async () => {
    assert.ok(SCHEMA_VERSION >= 12, 'the kind columns came with schema 12');
    const root = join(s.dir, 'repo');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'Dockerfile'), 'FROM alpine\n');
    const steps = '1. Drain the node\n2. Restart the workers\n\n```bash\nkubectl rollout restart deploy/workers\n```\n';
    writeFileSync(join(root, 'docs', 'restart.md'), `# Restart the workers\n\n${steps}`);
    const run = s.engine.index(new WorkspaceFileSource(root));
    while (!(await run.next()).done);
    const items = s.engine.listDocs().items;
    const docker = items.find((d) => d.path === 'Dockerfile')!;
    assert.equal(docker.kind_confidence, 1);
    assert.match(docker.kind_signals ?? '', /Dockerfile/);
    assert.match(kindReason(docker), /^Kind by definition: /);
    const page = items.find((d) => d.path === 'docs/restart.md')!;
    assert.ok(page.kind_confidence! > 0 && page.kind_confidence! < 1, String(page.kind_confidence));
    assert.ok(page.kind_signals, 'the model says which signals decided it');
    assert.match(kindReason(page), new RegExp(`^Kind: ${page.kind}, \\d+% sure`));
  });

  it('a kind-filtered recall takes borderline documents of that runner-up kind, after the kind’s own', async () => {
    s.db.transaction(() => {
      putDoc(s.db, doc('ops/restart.md', 'runbook', 'restart the billing workers', null), '2026-01-01T00:00:00Z');
      // Says "billing workers" more often (a better lexical match), but is only borderline a runbook.
      putDoc(
        s.db,
        doc('ops/billing.md', 'guide', 'billing workers billing workers restart', 'runbook'),
        '2026-01-01T00:00:00Z',
      );
      putDoc(
        s.db,
        doc('docs/billing.md', 'guide', 'billing workers billing workers', 'readme'),
        '2026-01-01T00:00:00Z',
      );
    });
    const filtered = await s.engine.recall({ query: 'billing workers', kinds: ['runbook'] });
    assert.deepEqual(
      filtered.results.map((h) => [h.record === 'doc' ? h.path : h.key, h.flags]),
      [
        ['ops/restart.md', []],
        ['ops/billing.md', ['borderline_kind']],
      ],
    );
    const open = await s.engine.recall({ query: 'billing workers' });
    assert.ok(open.results.every((h) => !h.flags.includes('borderline_kind')));
    assert.equal(open.results.length, 3);
  });

  it('a question that names a kind ("runbooks for …") prefers the borderline documents of it too', async () => {
    s.db.transaction(() => {
      putDoc(s.db, doc('ops/restore.md', 'guide', 'restore the ledger database from the nightly dump', 'runbook'), 'x');
      putDoc(s.db, doc('docs/ledger.md', 'guide', 'the ledger database ledger database nightly', 'readme'), 'x');
    });
    const named = await s.engine.recall({ query: 'runbooks for the ledger database' });
    const byPath = new Map(named.results.map((h) => [h.record === 'doc' ? h.path : h.key, h.score]));
    assert.equal(byPath.get('ops/restore.md')?.intent, 1.5, 'its close runner-up is the kind the question names');
    assert.equal(byPath.get('docs/ledger.md')?.intent, undefined);
    assert.equal(named.results[0].record === 'doc' && named.results[0].path, 'ops/restore.md');
  });
});
