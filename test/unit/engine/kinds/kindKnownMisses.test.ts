// Known misses of the learned kind model (issue 23, second round), kept as the expectation KINDS.md
// gives: a two-line ADR stub among the numbered pages of a decisions folder is an `adr` ("stub ADRs
// that only link elsewhere are still adr"; "a numbered decisions folder"). The shipped weights judge
// it `other` (0.26, guide 0.21 the runner-up; adr below): the stub has no decision sections and the
// model's prior for short prose pages is `other`. One signal for "a numbered page in a decisions
// folder" made it `adr`, but cost the dev repositories 1.1 points of document-kind accuracy
// (adr-examples 36.5% → 25.0%: its ADRs are unnumbered example pages, judged less by their content
// once the folder signal carried the kind), and the dev repositories decide the features. Skipped
// until the second pass (a folder whose confident siblings agree) can pull it.

import { strict as assert } from 'node:assert';
import { classifyContextOf, classifyKind } from '../../../../src/engine/indexing/classify';

describe('kind model: known misses', () => {
  it.skip('a two-line ADR stub among the numbered pages of docs/adr/ is an adr', () => {
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
  });
});
