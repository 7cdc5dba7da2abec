// Known misses of the learned kind model (issue 23, second round), kept as the expectation KINDS.md
// gives: a two-line ADR stub among the numbered pages of a decisions folder is an `adr` ("stub ADRs
// that only link elsewhere are still adr"; "a numbered decisions folder"). The shipped weights
// decide, with the repository context an index builds from the path list. It was `other` before the
// model had one signal for a numbered page in a decisions folder (path#numbered_decision).

import { strict as assert } from 'node:assert';
import { classifyContextOf, classifyKind } from '../../../../src/engine/indexing/classify';
import { kindFeatures } from '../../../../src/engine/indexing/kindFeatures';

describe('kind model: known misses', () => {
  it('a two-line ADR stub among the numbered pages of docs/adr/ is an adr', () => {
    const stub = '# 2. Use X\n\nSuperseded by [5. Use Y](0005-use-y.md).\n';
    const paths = [
      'README.md',
      'docs/adr/0001-record-architecture-decisions.md',
      'docs/adr/0002-use-x.md',
      'docs/adr/0003-queue-in-postgres.md',
      'docs/adr/0005-use-y.md',
      'docs/guide.md',
    ];
    const verdict = classifyKind('docs/adr/0002-use-x.md', stub, classifyContextOf(paths), { explain: true });
    assert.equal(verdict.kind, 'adr');
    assert.ok(verdict.signals.some((s) => s.words === 'a numbered page in a decisions folder'));
  });

  it('has one decisions-folder signal across its spellings, and none for a numbered page elsewhere', () => {
    for (const path of [
      'docs/adr/0002-use-x.md',
      'doc/decisions/20200102-use-x.md',
      'architecture-decision-records/ADR-0007-use-x.md',
    ])
      assert.ok(kindFeatures({ path, text: '# X\n' }).has('path#numbered_decision'), path);
    assert.ok(!kindFeatures({ path: 'docs/adr/README.md', text: '# X\n' }).has('path#numbered_decision'));
    assert.ok(!kindFeatures({ path: 'docs/steps/0002-use-x.md', text: '# X\n' }).has('path#numbered_decision'));
  });
});
