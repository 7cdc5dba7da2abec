// Drift never guesses: a vanished target is relocated only when exactly one place fits. Empty
// files and copies of the same content, or a name several files define, leave it gone with the
// candidates as evidence. A heading's section is the prose under it, whatever its code blocks say.

import assert from 'node:assert/strict';
import { driftSpace, type DriftSpace } from '../../../support/drift';

describe('drift: relocation and sections', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('a deleted empty file is gone, not relocated to another empty file', () => {
    s = driftSpace({
      'docs/pkg.md': 'The package marker is `src/pkg/__init__.py`.\n',
      'src/pkg/__init__.py': '',
      'src/other/__init__.py': '',
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/pkg.md', 'src/pkg/__init__.py')[0].state, 'current');
    s.remove('src/pkg/__init__.py');
    s.engine.driftScan();
    const ref = s.refs('docs/pkg.md', 'src/pkg/__init__.py')[0];
    assert.equal(ref.state, 'gone');
    assert.equal(ref.evidence.new_path, undefined);
  });

  it('a deleted file whose content two other files hold is gone, with both as evidence', () => {
    const license = 'MIT License\nCopyright (c) the authors\n';
    s = driftSpace({
      'docs/legal.md': 'See `pkg/a/LICENSE.txt`.\n',
      'pkg/a/LICENSE.txt': license,
      'pkg/b/LICENSE.txt': license,
      'pkg/c/LICENSE.txt': license,
    });
    s.engine.driftScan();
    s.remove('pkg/a/LICENSE.txt');
    s.engine.driftScan();
    const ref = s.refs('docs/legal.md', 'pkg/a/LICENSE.txt')[0];
    assert.equal(ref.state, 'gone');
    assert.match(
      ref.evidence.detail,
      /2 files now hold the same content \(pkg\/b\/LICENSE\.txt, pkg\/c\/LICENSE\.txt\)/,
    );
  });

  it('a value removed from its chart is gone, not relocated to a namesake in other charts', () => {
    s = driftSpace({
      'charts/a/README.md': '# Chart a\nScale with `replicaCount`.\n',
      'charts/a/values.yaml': 'replicaCount: 1\nimage: nginx\n',
      'charts/b/values.yaml': 'replicaCount: 2\n',
      'charts/c/values.yaml': 'replicaCount: 3\n',
    });
    s.engine.driftScan();
    assert.deepEqual(
      s.refs('charts/a/README.md', 'replicaCount').map((r) => [r.state, r.reference.target_path]),
      [['current', 'charts/a/values.yaml']],
    );
    s.write('charts/a/values.yaml', 'image: nginx\n');
    s.engine.driftScan();
    const ref = s.refs('charts/a/README.md', 'replicaCount')[0];
    assert.equal(ref.state, 'gone');
    assert.match(
      ref.evidence.detail,
      /replicaCount is no longer defined in charts\/a\/values\.yaml; 2 files define replicaCount/,
    );
  });

  it('a section keeps going past a `# comment` in its code block: an edit below the block is a change', () => {
    const guide = [
      '# Guide',
      '## Setup',
      '```sh',
      '# install the tools',
      'npm ci',
      '```',
      'Then run the tests.',
      '## Next',
      'More.',
    ];
    s = driftSpace({
      'docs/readme.md': 'Start at [setup](guide.md#setup) or [nowhere](guide.md#nowhere).\n',
      'docs/guide.md': guide.join('\n'),
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/readme.md', 'guide.md#setup')[0].state, 'current');
    const missing = s.refs('docs/readme.md', 'guide.md#nowhere')[0];
    assert.equal(missing.state, 'broken');
    assert.equal(missing.evidence.detail, 'docs/guide.md has no heading #nowhere');
    s.write('docs/guide.md', guide.join('\n').replace('Then run the tests.', 'Then run the tests twice.'));
    s.engine.driftCheck(['docs/guide.md']);
    assert.equal(s.refs('docs/readme.md', 'guide.md#setup')[0].state, 'changed');
  });
});
