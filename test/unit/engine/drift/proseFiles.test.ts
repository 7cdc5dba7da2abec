// A file named in running text is a reference (issue 17, point 4), not only one in a code span or
// a link: "edit charts/app/values.yaml" follows the file when it moves. Prose words are not looked
// up as symbols, and a name that is not here (another project's file) is no finding.

import { strict as assert } from 'node:assert';
import { driftSpace, type DriftSpace } from '../../../support/drift';

describe('drift: files named in prose', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const DOC = [
    '# Scaling',
    '',
    'To scale the app, edit charts/app/values.yaml and raise ' +
      '**replicas**; the read-only mode is described in UPGRADING.md.',
    'Other projects keep theirs in config/locales/en.yml, which is not ours.',
  ].join('\n');

  it('follows a path and a file name written in a sentence, and ignores words and absent files', () => {
    s = driftSpace({
      'docs/scaling.md': DOC,
      'charts/app/values.yaml': 'replicas: 1\nread-only: false\n',
      'UPGRADING.md': '# Upgrading\n',
    });
    s.engine.driftScan();
    const mine = s.all().filter((f) => f.source.path === 'docs/scaling.md');
    assert.deepEqual(mine.map((f) => [f.reference.raw, f.state, f.reference.target_path]).sort(), [
      ['UPGRADING.md', 'current', 'UPGRADING.md'],
      ['charts/app/values.yaml', 'current', 'charts/app/values.yaml'],
    ]);
    s.move('charts/app/values.yaml', 'charts/app/values.prod.yaml');
    s.engine.driftCheck(['charts/app/values.yaml', 'charts/app/values.prod.yaml']);
    const [moved] = s.refs('docs/scaling.md', 'charts/app/values.yaml');
    assert.equal(moved.state, 'relocated');
    assert.equal(moved.evidence.new_path, 'charts/app/values.prod.yaml');
  });
});
