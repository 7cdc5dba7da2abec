// Drift findings as a person reads them in the editor: one plain sentence per state, naming what
// changed and who refers to it; one warning per line and target (a function and its file, named
// on one line, are one).

import assert from 'node:assert/strict';
import type { DriftFinding } from '../../../src/engine';
import { foldFindings } from '../../../src/vscode/drift/fold';
import { driftSentence, referrerWords } from '../../../src/vscode/editorWording';

function finding(over: Partial<DriftFinding> & { raw: string; target: string | null; symbol?: string | null }): DriftFinding {
  const { raw, target, symbol, ...rest } = over;
  return {
    id: `ref-${raw}`,
    source: { kind: 'doc', path: 'docs/adr/0001-queue.md', line: 3 },
    reference: { raw, form: 'path', target_path: target, symbol: symbol ?? null },
    state: 'changed',
    evidence: { detail: 'from the engine' },
    detected_at: '2026-12-01T10:00:00Z',
    ...rest,
  };
}

describe('vscode drift wording', () => {
  const adr = 'this ADR';

  it('says every state in one sentence, naming the target and the referrer', () => {
    const fn = { raw: 'enqueue()', target: 'src/queue.ts', symbol: 'enqueue' };
    assert.equal(driftSentence(finding(fn), adr), '`enqueue` in src/queue.ts changed since this ADR was last checked');
    assert.equal(
      driftSentence(finding({ raw: 'scripts/retry.sh', target: 'scripts/retry.sh', state: 'relocated', evidence: { new_path: 'scripts/jobs/retry.sh', detail: '' } }), adr),
      '`scripts/retry.sh` moved to scripts/jobs/retry.sh since this ADR was last checked',
    );
    assert.equal(driftSentence(finding({ ...fn, state: 'gone' }), adr), '`enqueue` in src/queue.ts was removed or renamed since this ADR was last checked');
    assert.equal(driftSentence(finding({ raw: 'a.sh', target: 'a.sh', state: 'gone' }), adr), '`a.sh` was deleted or moved since this ADR was last checked');
    assert.equal(
      driftSentence(finding({ raw: 'docs/x.md#rollback', target: 'docs/x.md', symbol: 'rollback' }), adr),
      'section #rollback of docs/x.md changed since this ADR was last checked',
    );
    assert.equal(
      driftSentence(finding({ raw: 'src/a.ts#L3-L5', target: 'src/a.ts', symbol: 'L3-L5' }), adr),
      'lines L3-L5 of src/a.ts changed since this ADR was last checked',
    );
    const broken = finding({ raw: 'nope.sh', target: null, state: 'broken', evidence: { detail: 'nope.sh does not exist in the workspace' } });
    assert.equal(driftSentence(broken, adr), 'This ADR refers to `nope.sh`, but nope.sh does not exist in the workspace');
    const ambiguous = finding({ raw: 'run.sh', target: null, state: 'ambiguous', evidence: { detail: 'ambiguous: 2 files are named run.sh (a/run.sh, b/run.sh)' } });
    assert.equal(driftSentence(ambiguous, adr), 'This ADR refers to `run.sh`, which is ambiguous: 2 files are named run.sh (a/run.sh, b/run.sh)');
    for (const line of [driftSentence(broken, adr), driftSentence(ambiguous, adr)]) assert.ok(!/[.;]\s/.test(line.replace(/\(.*\)/, '')), line);
  });

  it('names the referrer by its doc kind or memory type', () => {
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' }), 'ADR'), 'this ADR');
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' })), 'this doc');
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x', source: { kind: 'memory', key: 'dead_end/redis' } })), 'this dead end');
  });

  it('folds a file-wide reference into the function named on the same line, never across lines', () => {
    const fn = finding({ raw: 'processJob()', target: 'src/worker.ts', symbol: 'processJob' });
    const file = finding({ raw: 'src/worker.ts', target: 'src/worker.ts' });
    const otherLine = finding({ raw: 'src/worker.ts ', target: 'src/worker.ts', source: { kind: 'doc', path: 'docs/adr/0001-queue.md', line: 9 } });
    const current = finding({ raw: 'claim()', target: 'src/worker.ts', symbol: 'claim', state: 'current' });
    const groups = foldFindings([file, fn, otherLine, current]);
    assert.deepEqual(groups.map((g) => [g.finding.reference.raw, g.also.map((a) => a.reference.raw)]), [
      ['processJob()', ['src/worker.ts']],
      ['src/worker.ts ', []],
    ]);
    assert.deepEqual(foldFindings([file]).map((g) => g.finding), [file], 'alone, the file reference is its own warning');
  });
});
