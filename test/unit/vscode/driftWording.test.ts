// Drift findings as a person reads them in the editor: one plain sentence per state, naming what
// changed and who refers to it; one warning per line and target (a function and its file, named
// on one line, are one).

import assert from 'node:assert/strict';
import type { DriftFinding } from '../../../src/engine';
import { foldFindings } from '../../../src/vscode/drift/fold';
import { driftSentence, referrerWords } from '../../../src/vscode/editorWording';

type Over = Partial<DriftFinding> & { raw: string; target: string | null; symbol?: string | null };

function finding(over: Over): DriftFinding {
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
    const say = (over: Over) => driftSentence(finding(over), adr);
    const since = 'since this ADR was last checked';
    const fn = { raw: 'enqueue()', target: 'src/queue.ts', symbol: 'enqueue' };
    assert.equal(say(fn), `\`enqueue\` in src/queue.ts changed ${since}`);
    const moved = { new_path: 'scripts/jobs/retry.sh', detail: '' };
    assert.equal(
      say({ raw: 'scripts/retry.sh', target: 'scripts/retry.sh', state: 'relocated', evidence: moved }),
      `\`scripts/retry.sh\` moved to scripts/jobs/retry.sh ${since}`,
    );
    assert.equal(say({ ...fn, state: 'gone' }), `\`enqueue\` in src/queue.ts was removed or renamed ${since}`);
    assert.equal(say({ raw: 'a.sh', target: 'a.sh', state: 'gone' }), `\`a.sh\` was deleted or moved ${since}`);
    assert.equal(
      driftSentence(finding({ raw: 'docs/x.md#rollback', target: 'docs/x.md', symbol: 'rollback' }), adr),
      'section #rollback of docs/x.md changed since this ADR was last checked',
    );
    assert.equal(
      driftSentence(finding({ raw: 'src/a.ts#L3-L5', target: 'src/a.ts', symbol: 'L3-L5' }), adr),
      'lines L3-L5 of src/a.ts changed since this ADR was last checked',
    );
    const missing = { detail: 'nope.sh does not exist in the workspace' };
    const broken = say({ raw: 'nope.sh', target: null, state: 'broken', evidence: missing });
    assert.equal(broken, 'This ADR refers to `nope.sh`, but nope.sh does not exist in the workspace');
    const two = { detail: 'ambiguous: 2 files are named run.sh (a/run.sh, b/run.sh)' };
    const ambiguous = say({ raw: 'run.sh', target: null, state: 'ambiguous', evidence: two });
    assert.equal(ambiguous, `This ADR refers to \`run.sh\`, which is ${two.detail}`);
    for (const line of [broken, ambiguous]) {
      assert.ok(!/[.;]\s/.test(line.replace(/\(.*\)/, '')), `one sentence: ${line}`);
    }
  });

  it('names the referrer by its doc kind or memory type', () => {
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' }), 'ADR'), 'this ADR');
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' })), 'this page');
    // Kinds as a person says them (issue 25: "This other refers to…", "This adr refers…").
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' }), 'adr'), 'this ADR');
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' }), 'other'), 'this page');
    assert.equal(referrerWords(finding({ raw: 'x', target: 'x' }), 'runbook'), 'this runbook');
    const memory = finding({ raw: 'x', target: 'x', source: { kind: 'memory', key: 'dead_end/redis' } });
    assert.equal(referrerWords(memory), 'this dead end');
  });

  it('folds a file-wide reference into the function named on the same line, never across lines', () => {
    const fn = finding({ raw: 'processJob()', target: 'src/worker.ts', symbol: 'processJob' });
    const file = finding({ raw: 'src/worker.ts', target: 'src/worker.ts' });
    const line9 = { kind: 'doc' as const, path: 'docs/adr/0001-queue.md', line: 9 };
    const otherLine = finding({ raw: 'src/worker.ts ', target: 'src/worker.ts', source: line9 });
    const current = finding({ raw: 'claim()', target: 'src/worker.ts', symbol: 'claim', state: 'current' });
    const groups = foldFindings([file, fn, otherLine, current]);
    assert.deepEqual(
      groups.map((g) => [g.finding.reference.raw, g.also.map((a) => a.reference.raw)]),
      [
        ['processJob()', ['src/worker.ts']],
        ['src/worker.ts ', []],
      ],
    );
    const alone = foldFindings([file]).map((g) => g.finding);
    assert.deepEqual(alone, [file], 'alone, the file reference is its own warning');
  });
});
