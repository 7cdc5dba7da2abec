// The pinned history replay (eval/history): the case list is well formed, large enough for issue
// 29's bar (10 commits that broke a reference, 50 that broke nothing), names no reserved
// repository, and a case whose mirror is absent is skipped with the reason, never run or failed.

import { strict as assert } from 'node:assert';
import { readCases, replay } from '../../../eval/history/replay';

const RESERVED = [
  'ministryofjustice/cloud-platform',
  'alphagov/govuk-infrastructure',
  'thanos-io/thanos',
  'kubernetes-sigs/kubespray',
  'jupyterhub/mybinder.org-deploy',
  'aetna000/MemoryStackBench',
  'ipiton/agent-memory-mcp',
];

describe('eval/history: the replayed commits', () => {
  const cases = readCases();

  it('pins at least 10 commits that broke a reference and 50 that broke nothing, each once', () => {
    assert.ok(cases.filter((c) => c.expect === 'broken').length >= 10);
    assert.ok(cases.filter((c) => c.expect === 'clean').length >= 50);
    assert.equal(new Set(cases.map((c) => `${c.repo}@${c.commit}`)).size, cases.length);
    for (const c of cases) {
      assert.match(c.commit, /^[0-9a-f]{40}$/, `${c.repo} pins a whole commit`);
      assert.ok(c.cause, `${c.repo} ${c.commit} says why`);
      assert.ok(!RESERVED.includes(c.repo), `${c.repo} is reserved`);
      if (c.expect === 'broken') assert.ok(c.path && c.reference, `${c.commit} names the document and reference`);
    }
  });

  it('skips a case whose mirror is absent, saying so', () => {
    const outcome = replay({ repo: 'nobody/absent-repository', commit: '0'.repeat(40), expect: 'clean', cause: 'x' });
    assert.equal(outcome.outcome, 'skipped');
    assert.match(outcome.detail!, /no mirror of nobody\/absent-repository/);
  });
});
