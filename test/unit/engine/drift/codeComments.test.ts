// Paths and URLs in code comments (issue 31, point 6): a Go package comment naming a doc, a YAML or
// Terraform comment linking this repository's own file on GitHub, follow that file when it moves.
// Only comment tokens that are clearly paths (a slash and a tracked file type's extension) or this
// repository's GitHub URLs count, and only when they named a file that was there when first seen:
// words, string literals, absolute paths and other projects' files are never findings.

import { strict as assert } from 'node:assert';
import { commentTexts, extractFromComments } from '../../../../src/engine/drift/codeComments';
import { driftSpace, type DriftSpace } from '../../../support/drift';

describe('drift: paths and URLs in code comments', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const GO = [
    '// Package queue runs jobs in order.',
    '//',
    '// See docs/design/queue.md for why jobs are never reordered, and',
    '// pkg/other/thing.go (another project) for nothing.',
    'package queue',
    '',
    'const help = "see docs/design/queue.md" // a string is no comment; docs/design/queue.md here is',
  ].join('\n');

  it("a Go package comment's doc path follows the doc's rename; absent paths are no finding", () => {
    s = driftSpace({ 'pkg/queue/doc.go': GO, 'docs/design/queue.md': '# Queue\n\nOrder holds.\n' });
    s.engine.driftScan();
    const mine = s.all().filter((f) => f.source.path === 'pkg/queue/doc.go');
    assert.deepEqual(
      mine.map((f) => [f.reference.raw, f.state, f.reference.target_path, f.source.line]),
      [['docs/design/queue.md', 'current', 'docs/design/queue.md', 3]],
    );
    s.move('docs/design/queue.md', 'docs/design/job-queue.md');
    s.engine.driftCheck(['docs/design/queue.md', 'docs/design/job-queue.md']);
    const [moved] = s.refs('pkg/queue/doc.go', 'docs/design/queue.md');
    assert.equal(moved.state, 'relocated');
    assert.equal(moved.evidence.new_path, 'docs/design/job-queue.md');
  });

  it('an edit of the file a comment names is no drift: the comment says where it is, not what it says', () => {
    s = driftSpace({ 'pkg/queue/doc.go': GO, 'docs/design/queue.md': '# Queue\n\nOrder holds.\n' });
    s.engine.driftScan();
    s.write('docs/design/queue.md', '# Queue\n\nOrder holds, and retries keep it.\n');
    s.engine.driftCheck(['docs/design/queue.md']);
    const [row] = s.rows('pkg/queue/doc.go', 'docs/design/queue.md');
    assert.equal(row.state, 'current');
    assert.equal(row.detail, 'still there (a code comment names it)');
  });

  it("a YAML comment's GitHub URL of this repository is tracked; another repository's never is", () => {
    const values = [
      '# Settings: https://github.com/acme/platform/blob/main/docs/settings.md#replicas',
      '# Upstream: https://github.com/other/project/blob/main/docs/settings.md',
      'replicas: 2 # see https://github.com/acme/platform/blob/main/charts/app/README.md',
      'url: "https://github.com/acme/platform/blob/main/docs/settings.md"',
    ].join('\n');
    s = driftSpace(
      {
        'charts/app/values.yaml': values,
        'charts/app/README.md': '# App\n',
        'docs/settings.md': '# Settings\n\n## Replicas\n\nTwo.\n',
      },
      ['acme/platform'],
    );
    s.engine.driftScan();
    const mine = s.all().filter((f) => f.source.path === 'charts/app/values.yaml');
    assert.deepEqual(mine.map((f) => [f.reference.raw, f.state, f.reference.target_path]).sort(), [
      ['https://github.com/acme/platform/blob/main/charts/app/README.md', 'current', 'charts/app/README.md'],
      ['https://github.com/acme/platform/blob/main/docs/settings.md#replicas', 'current', 'docs/settings.md'],
    ]);
    s.remove('charts/app/README.md');
    s.engine.driftCheck(['charts/app/README.md']);
    const readme = 'https://github.com/acme/platform/blob/main/charts/app/README.md';
    assert.equal(s.refs('charts/app/values.yaml', readme)[0].state, 'gone');
  });

  it('a heading a comment names that is not there, and prose words, are never findings', () => {
    s = driftSpace(
      {
        'main.tf': [
          '# Read docs/guide.md#no-such-heading first; e.g. tf/plan, /etc/eks/bootstrap.sh, v1.2/x.',
          '// https://github.com/acme/infra/blob/main/docs/gone.md',
          'resource "x" "y" {}',
        ].join('\n'),
        'docs/guide.md': '# Guide\n',
        'etc/eks/bootstrap.sh': '#!/bin/sh\n',
      },
      ['acme/infra'],
    );
    s.engine.driftScan();
    assert.deepEqual(
      s.all().filter((f) => f.source.path === 'main.tf'),
      [],
    );
  });

  it('reads comments by the language: `#` and `//` after whitespace, block comments, never inside strings', () => {
    assert.deepEqual(commentTexts('a.go', 'x := "a // b" // c\n/* d\ne */ f\ng'), [' c', ' d', 'e ', '']);
    assert.deepEqual(commentTexts('a.yaml', 'a: b#c\nd: "e # f" # g\n# h'), ['', ' g', ' h']);
    assert.deepEqual(commentTexts('a.md', '# Title'), ['']);
    const refs = extractFromComments('x.py', '# see ./tools/run.sh, github.com/x/y.go and README.md\n');
    assert.deepEqual(
      refs.map((r) => r.raw),
      ['./tools/run.sh'],
    );
  });
});
