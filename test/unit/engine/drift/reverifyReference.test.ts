// Re-verifying one reference a document makes: the target is accepted as it is now (a relocated
// one followed to its new place), the finding clears and stays cleared until the target changes
// again, the act is audited; a gone target or a memory's reference is refused with what to do.

import assert from 'node:assert/strict';
import { isLoreError } from '../../../../src/engine';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

describe('drift: re-verify a doc reference', function () {
  let s: DriftSpace;
  beforeEach(() => {
    s = driftSpace({
      'docs/jobs.md': '# Jobs\n\nWorkers call `claimNext()`; restarts follow [the runbook](runbook.md).\n',
      'docs/runbook.md': '# Runbook\n\nRestart the workers.\n',
      'src/queue.ts': 'export function claimNext(db) {\n  return db.query("SKIP LOCKED");\n}\n',
    });
    s.engine.driftScan();
  });
  afterEach(() => s.cleanup());

  it('accepts a changed target: the finding clears, stays cleared on the next check, and is audited', () => {
    s.write('src/queue.ts', 'export function claimNext(db) {\n  return db.query("NOWAIT");\n}\n');
    const [changed] = s.engine.driftCheck(['src/queue.ts']).filter((f) => f.state === 'changed');
    assert.ok(changed, 'the doc reference drifted');
    const accepted = s.engine.reverifyReference(person, changed.id);
    assert.equal(accepted.state, 'current');
    assert.deepEqual(s.engine.driftFindings(), []);
    assert.deepEqual(
      s.engine.driftCheck(['src/queue.ts']).filter((f) => f.state !== 'current'),
      [],
    );
    assert.ok(s.engine.verifyAudit().ok);
    s.write('src/queue.ts', 'export function claimNext(db) {\n  return db.query("SKIP LOCKED NOWAIT");\n}\n');
    assert.equal(
      s.engine.driftCheck(['src/queue.ts']).find((f) => f.id === changed.id)?.state,
      'changed',
      'a later change drifts again',
    );
  });

  it('follows a relocated target to its new place', () => {
    s.move('docs/runbook.md', 'docs/ops/runbook.md');
    const [moved] = s.engine
      .driftCheck(['docs/runbook.md', 'docs/ops/runbook.md'])
      .filter((f) => f.state === 'relocated');
    assert.ok(moved, 'relocated');
    const accepted = s.engine.reverifyReference(person, moved.id);
    assert.equal(accepted.reference.target_path, 'docs/ops/runbook.md');
    assert.deepEqual(s.engine.driftFindings(), []);
  });

  it("refuses a gone target, a memory's reference and a malformed id, saying what to do", () => {
    s.remove('docs/runbook.md');
    const [gone] = s.engine.driftCheck(['docs/runbook.md']).filter((f) => f.state !== 'current');
    assert.throws(
      () => s.engine.reverifyReference(person, gone.id),
      (e: unknown) =>
        isLoreError(e) &&
        e.code === 'INVALID_STATE' &&
        /update or remove the reference in docs\/jobs\.md/.test(e.hint ?? ''),
    );
    const saved = s.engine.remember(person, memory({ anchors: ['src/queue.ts#claimNext'] }));
    assert.ok(saved.saved);
    const [ref] = s.engine.driftFindings({ key: saved.key, states: ['current'] });
    assert.throws(
      () => s.engine.reverifyReference(person, ref.id),
      (e: unknown) => isLoreError(e) && /lore reverify/.test(e.hint ?? ''),
    );
    assert.throws(
      () => s.engine.reverifyReference(person, '12'),
      (e: unknown) => isLoreError(e) && e.code === 'INVALID_INPUT' && /ref-12/.test(e.message),
    );
  });
});
