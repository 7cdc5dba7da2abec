// The text a relocated doc reference is rewritten to: in the form the doc wrote it (relative to the
// doc, or a repository path), its fragment kept, and a clear reason when there is nothing to rewrite.

import assert from 'node:assert/strict';
import type { DriftFinding } from '../../../../src/engine';
import { relink } from '../../../../src/vscode/drift/relink';

function finding(
  raw: string,
  target: string,
  moved: string | undefined,
  state: DriftFinding['state'] = 'relocated',
): DriftFinding {
  return {
    id: 'ref-1',
    source: { kind: 'doc', path: 'docs/ops/worker.md', line: 3 },
    reference: { raw, form: 'link', target_path: target, symbol: null },
    state,
    evidence: { detail: 'moved', ...(moved ? { new_path: moved } : {}) },
    detected_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('relink (update a relocated doc reference)', () => {
  it('keeps a link relative to the doc, with its fragment', () => {
    const line = 'Retries: [the script](../../scripts/retry.sh#usage) does it.';
    const change = relink(finding('../../scripts/retry.sh#usage', 'scripts/retry.sh', 'scripts/jobs/retry.sh'), line);
    assert.ok(!('problem' in change));
    assert.equal(change.text, '../../scripts/jobs/retry.sh#usage');
    assert.equal(line.slice(change.start, change.end), '../../scripts/retry.sh#usage');
    assert.equal(change.line, 2);
  });

  it('keeps a repository path a repository path, and follows moved lines', () => {
    const change = relink(
      finding('src/queue.ts#L10-L12', 'src/queue.ts', 'src/jobs/queue.ts#L20-L22'),
      'See `src/queue.ts#L10-L12`.',
    );
    assert.ok(!('problem' in change));
    assert.equal(change.text, 'src/jobs/queue.ts#L20-L22');
  });

  it('says why when the reference is not relocated or no longer on its line', () => {
    assert.match(
      (relink(finding('a.md', 'docs/ops/a.md', undefined, 'changed'), 'x a.md') as { problem: string }).problem,
      /is changed, not relocated/,
    );
    assert.match(
      (relink(finding('a.md', 'docs/ops/a.md', 'docs/a.md'), 'something else') as { problem: string }).problem,
      /no longer on line 3 of docs\/ops\/worker\.md; save it/,
    );
  });
});
