// The kinds' second pass (issue 23, point 4): a page's own reading weighed with its folder's
// confident siblings, from what the store holds (kindSiblings.ts). First the rule on stored rows
// with small hand-set weights (so the test says what the mechanism does whatever the shipped
// weights learnt), then through a real store and the indexer: a borderline page among siblings of
// one kind takes their kind, and a later index that finds new siblings changes an unchanged page's
// kind without reading that page again.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyContextOf, classifyKind } from '../../../../src/engine/indexing/classify';
import type { FileSource, SourceFile } from '../../../../src/engine/indexing/indexer';
import type { KindWeights } from '../../../../src/engine/indexing/kindModel';
import type { StoredKind } from '../../../../src/engine/indexing/docStore';
import { reconsiderKinds, storedOwnReading } from '../../../../src/engine/indexing/kindSiblings';
import type { DocKind } from '../../../../src/engine/model/kinds';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { openTestStore, type TestStore } from '../../../support/store';

/** Weights whose only knowledge is that an rfc folder makes an rfc: the pull alone decides. */
const PULL_ONLY: KindWeights = {
  version: 1,
  classes: ['rfc', 'guide'],
  weights: { bias: [0, 0], 'pull:rfc': [4, 0] },
  trained: { repositories: 0, paths: 0, settings: {} },
};

let id = 0;
function row(path: string, scores: Array<[DocKind, number]> | null, kind?: DocKind): StoredKind {
  return {
    id: ++id,
    path,
    kind: kind ?? scores![0][0],
    kind_confidence: scores ? scores[0][1] : 1,
    kind_runner_up: null,
    kind_signals: null,
    kind_own: storedOwnReading(scores ? { scores, signals: ['its own signal'] } : null),
  };
}

describe('kinds: the second pass weighs a page’s folder', () => {
  it('a borderline page among confident rfc siblings becomes an rfc; the same page alone does not', () => {
    const borderline: Array<[DocKind, number]> = [
      ['guide', 0.52],
      ['rfc', 0.45],
    ];
    const rows = [
      row('proposals/0001-a.md', [['rfc', 0.9]]),
      row('proposals/0002-b.md', [['rfc', 0.85]]),
      row('proposals/0003-c.md', [['rfc', 0.8]]),
      row('proposals/0004-d.md', borderline),
      row('docs/0004-d.md', borderline),
      row('docs/setup.md', [['guide', 0.9]]),
    ];
    const updates = new Map(reconsiderKinds(rows, PULL_ONLY).map((u) => [u.path, u]));
    const flipped = updates.get('proposals/0004-d.md')!;
    assert.equal(flipped.kind, 'rfc');
    assert.match(flipped.signals ?? '', /^its folder’s confident siblings are rfc pages \(3 of 3\); its own signal$/);
    assert.notEqual(updates.get('docs/0004-d.md')?.kind ?? 'guide', 'rfc');
  });

  it('never changes a kind a definition or a person’s rule gave, and counts it as a sibling', () => {
    const rows = [
      row('ops/Dockerfile', null, 'dockerfile'),
      row('ops/rfc.md', null, 'rfc'),
      row('ops/notes.md', [
        ['guide', 0.5],
        ['rfc', 0.49],
      ]),
    ];
    const updates = reconsiderKinds(rows, PULL_ONLY);
    assert.deepEqual(
      updates.map((u) => [u.path, u.kind]),
      [['ops/notes.md', 'rfc']],
    );
  });

  it('never moves a page its own text reads firmly, however many siblings disagree', () => {
    const rows = [
      row('p/1.md', [['rfc', 0.95]]),
      row('p/2.md', [['rfc', 0.95]]),
      row('p/3.md', [['rfc', 0.95]]),
      row('p/setup.md', [
        ['guide', 0.92],
        ['rfc', 0.05],
      ]),
    ];
    assert.equal(reconsiderKinds(rows, PULL_ONLY).find((u) => u.path === 'p/setup.md')?.kind ?? 'guide', 'guide');
  });

  it('a folder pulls a page only towards a kind its own reading holds open, whatever the weights learnt', () => {
    // The weights of the branch's first second pass: a folder of incident pages made its members changelogs.
    const crossKind: KindWeights = {
      version: 1,
      classes: ['postmortem', 'changelog', 'guide'],
      weights: { 'pull:postmortem': [0, 6, 0] },
      trained: { repositories: 0, paths: 0, settings: {} },
    };
    const rows = [
      row('incidents/2024-01-02.md', [['postmortem', 0.85]]),
      row('incidents/2024-02-03.md', [['postmortem', 0.85]]),
      row('incidents/2024-03-04.md', [['postmortem', 0.85]]),
      row('incidents/how-we-write-these.md', [
        ['guide', 0.55],
        ['postmortem', 0.4],
      ]),
    ];
    const kinds = new Map(reconsiderKinds(rows, crossKind).map((u) => [u.path, u.kind]));
    assert.equal(kinds.get('incidents/how-we-write-these.md') ?? 'guide', 'guide');
    assert.ok(![...kinds.values()].includes('changelog'));
  });

  it('with the shipped weights, a folder of borderline guides stays a folder of guides', () => {
    const reading: Array<[DocKind, number]> = [
      ['guide', 0.56],
      ['rfc', 0.18],
      ['postmortem', 0.1],
    ];
    const rows = Array.from({ length: 40 }, (_, i) => row(`docs/doc-${i}.md`, reading));
    assert.deepEqual(
      reconsiderKinds(rows).filter((u) => u.kind !== 'guide'),
      [],
    );
  });

  it('is idempotent: a second pass over what the first wrote changes nothing', () => {
    const rows = [
      row('p/1.md', [['rfc', 0.9]]),
      row('p/2.md', [['rfc', 0.9]]),
      row('p/3.md', [
        ['guide', 0.55],
        ['rfc', 0.4],
      ]),
    ];
    const first = reconsiderKinds(rows, PULL_ONLY);
    const written = rows.map((r) => {
      const u = first.find((x) => x.id === r.id);
      return u
        ? { ...r, kind: u.kind, kind_confidence: u.confidence, kind_runner_up: u.runnerUp, kind_signals: u.signals }
        : r;
    });
    assert.ok(first.length > 0);
    assert.deepEqual(reconsiderKinds(written, PULL_ONLY), []);
  });
});

/** An adr folder makes an adr (hand-set, so the test says what the mechanism does, not what was learnt). */
const ADR_PULL: KindWeights = {
  version: 1,
  classes: ['adr', 'rfc', 'runbook', 'postmortem', 'changelog', 'readme', 'guide'],
  weights: { 'pull:adr': [6, 0, 0, 0, 0, 0, 0] },
  trained: { repositories: 0, paths: 0, settings: {} },
};

/** A file source that records which files were read. */
class CountingSource implements FileSource {
  readonly reads: string[] = [];
  constructor(private readonly inner: FileSource) {}
  list(): Promise<SourceFile[]> {
    return this.inner.list();
  }
  read(path: string): Promise<string | null> {
    this.reads.push(path);
    return this.inner.read(path);
  }
}

const ADR = (n: number, title: string) =>
  `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\nAccepted\n\n` +
  `## Context\n\nWe need to choose how to ${title.toLowerCase()}.\n\n` +
  `## Decision\n\nWe will ${title.toLowerCase()}.\n\n## Consequences\n\nThe team keeps one way of doing it.\n`;

describe('kinds: the second pass through the index', function () {
  this.timeout(60_000);
  let s: TestStore;
  beforeEach(() => (s = openTestStore()));
  afterEach(() => s.cleanup());

  const kindOf = (path: string) =>
    s.db.get<{ kind: string; kind_signals: string | null }>('SELECT kind, kind_signals FROM docs WHERE path = ?', [
      path,
    ]);

  it('a short decision page among ADRs becomes an adr; a new sibling updates it without reading it again', async () => {
    const root = join(s.dir, 'repo');
    mkdirSync(join(root, 'docs', 'adr'), { recursive: true });
    writeFileSync(join(root, 'README.md'), '# Service\n\nThe service and its docs.\n');
    const page = 'docs/adr/0006-logging.md';
    const text =
      '# 6. Logging\n\nWe log in JSON to standard output, one event a line, and the platform ships the lines ' +
      'to the log store.\n';
    writeFileSync(join(root, page), text);
    writeFileSync(join(root, 'docs', 'adr', '0001-record-decisions.md'), ADR(1, 'Record decisions'));
    writeFileSync(join(root, 'docs', 'adr', '0003-queue-in-postgres.md'), ADR(3, 'Queue jobs in Postgres'));
    writeFileSync(join(root, 'docs', 'adr', '0004-deploy-with-helm.md'), ADR(4, 'Deploy with Helm'));
    const first = new CountingSource(new WorkspaceFileSource(root));
    let run = s.engine.index(first, { siblings: true, siblingWeights: ADR_PULL });
    while (!(await run.next()).done);
    assert.ok(first.reads.includes(page));
    const paths = (await new WorkspaceFileSource(root).list()).map((f) => f.path);
    const own = classifyKind(page, text, classifyContextOf(paths));
    assert.equal(own.kind, 'guide', 'its own text alone reads as a guide');
    const before = kindOf(page)!;
    assert.equal(before.kind, 'adr', 'among three ADRs it is an adr');
    assert.match(before.kind_signals ?? '', /^its folder’s confident siblings are adr pages \(3 of 3\)/);

    // A fourth decision lands beside it; the page itself does not change.
    writeFileSync(join(root, 'docs', 'adr', '0005-use-y.md'), ADR(5, 'Use Y'));
    const second = new CountingSource(new WorkspaceFileSource(root));
    run = s.engine.index(second, { siblings: true, siblingWeights: ADR_PULL });
    while (!(await run.next()).done);
    assert.deepEqual(second.reads, ['docs/adr/0005-use-y.md'], 'only the new file is read');
    const after = kindOf(page)!;
    assert.equal(after.kind, 'adr');
    assert.match(after.kind_signals ?? '', /^its folder’s confident siblings are adr pages \(4 of 4\)/);
    assert.equal(s.engine.indexStatus().by_kind.adr, 5, 'the counts the tree shows include it');
  });
});
