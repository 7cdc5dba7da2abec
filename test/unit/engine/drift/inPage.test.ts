// Links to a heading of the same document (issue 17, points 3 and 4): `[x](#section)` is watched
// like a link to another page's heading — an edit of that section is `changed`, a heading that was
// never there is `broken` with that reason — and it resolves the way GitHub renders the page:
// repeated headings numbered (`#beta-1`), a fence closed by a list item's indented run, a line
// that opens and closes ``` on itself a code span, and a reference definition no link uses nothing.

import { strict as assert } from 'node:assert';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const KEP = [
  '# KEP-1: Widgets',
  '- [Graduation Criteria](#graduation-criteria)',
  '  - [Beta](#beta)',
  '- [Later graduation](#beta-1)',
  '- [Test Plan](#test-plan)',
  '- [Alarms](#alarms)',
  '',
  '## Graduation Criteria',
  '### Beta',
  'Beta when the API is stable.',
  '## Deprecation',
  '### Beta',
  'Deprecated in beta two releases later.',
  '## Design',
  '* the API',
  '  * extend the status',
  '  ```',
  '    type Status struct {',
  '    # Test Plan inside code is no heading',
  '    }',
  '    ```',
  '',
  '```Widget::Complete: did not get a suggestion``` is logged.',
  '',
  '## Test Plan',
  'Unit tests.',
].join('\n');

describe('drift: in-page heading links', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('resolves a link to its own heading as GitHub does, and reports one that is not there as broken', () => {
    s = driftSpace({ 'keps/1-widgets/README.md': KEP });
    s.engine.driftScan();
    const state = (raw: string) =>
      s.refs('keps/1-widgets/README.md', raw).map((r) => [r.state, r.reference.target_path]);
    for (const raw of ['#graduation-criteria', '#beta', '#beta-1', '#test-plan']) {
      assert.deepEqual(state(raw), [['current', 'keps/1-widgets/README.md']], raw);
    }
    const [alarms] = s.refs('keps/1-widgets/README.md', '#alarms');
    assert.equal(alarms.state, 'broken');
    assert.equal(alarms.evidence.detail, 'keps/1-widgets/README.md has no heading #alarms');
  });

  it('an edit of the section a link of the same page names is a change; an edit elsewhere is not', () => {
    s = driftSpace({ 'keps/1-widgets/README.md': KEP });
    s.engine.driftScan();
    s.write(
      'keps/1-widgets/README.md',
      KEP.replace('Deprecated in beta two releases later.', 'Deprecated in beta one release later.'),
    );
    s.engine.driftCheck(['keps/1-widgets/README.md']);
    assert.equal(s.refs('keps/1-widgets/README.md', '#beta-1')[0].state, 'changed');
    assert.equal(s.refs('keps/1-widgets/README.md', '#beta')[0].state, 'current');
    assert.equal(s.refs('keps/1-widgets/README.md', '#test-plan')[0].state, 'current');
  });

  it('a reference definition no link uses is no reference; one a link uses is', () => {
    const rfc = [
      '# Summary',
      '[summary]: #summary-of-the-rfc',
      '',
      '## Motivation and detail',
      '[motivation]: #motivation',
      '',
      'As the [motivation] says, and see [the guide][guide].',
      '',
      '[guide]: #guide-level-explanation',
      '',
      '## Guide-level explanation',
      'Text.',
    ].join('\n');
    s = driftSpace({ 'text/0001-x.md': rfc });
    s.engine.driftScan();
    assert.deepEqual(s.refs('text/0001-x.md', '#summary-of-the-rfc'), []);
    assert.equal(s.refs('text/0001-x.md', '#motivation')[0]?.state, 'broken');
    assert.equal(s.refs('text/0001-x.md', '#guide-level-explanation')[0]?.state, 'current');
  });
});
