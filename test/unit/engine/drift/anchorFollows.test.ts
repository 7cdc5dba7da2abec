// Issue 31, point 7: a memory's anchors follow their target. Re-verify on a record whose anchored
// file moved saves the record with the new place (the symbol or fragment kept) and fingerprints it
// there, so nothing afterwards points at the deleted path; a target that is gone with no single new
// place cannot be re-verified, and the error says so.

import assert from 'node:assert/strict';
import { isLoreError } from '../../../../src/engine';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

const QUEUE = 'export function claimNext(db) {\n  return db.query("SELECT 1");\n}\n';

describe('drift: memory anchors follow their target (issue 31, point 7)', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('re-verify on a moved anchor moves it to the new place', () => {
    s = driftSpace({ 'src/jobs/queue.ts': QUEUE, 'scripts/rotate.sh': '#!/bin/sh\necho rotate\n' });
    const saved = s.engine.remember(
      person,
      memory({ anchors: ['src/jobs/queue.ts#claimNext'], links: ['scripts/rotate.sh'] }),
    );
    assert.ok(saved.saved);
    s.move('src/jobs/queue.ts', 'src/work/queue.ts');
    s.engine.driftScan();
    const result = s.engine.reverify(person, saved.key);
    assert.deepEqual(result.moved, [{ from: 'src/jobs/queue.ts#claimNext', to: 'src/work/queue.ts#claimNext' }]);
    const record = s.engine.get(saved.key).memory;
    assert.deepEqual(record.anchors, ['src/work/queue.ts#claimNext']);
    assert.deepEqual(record.links, ['scripts/rotate.sh']);
    assert.equal(record.basis, 'verified');
    const refs = s.engine.driftFindings({ key: saved.key, states: ['current'] });
    assert.deepEqual(refs.map((r) => r.reference.target_path).sort(), ['scripts/rotate.sh', 'src/work/queue.ts']);
    assert.deepEqual(s.engine.driftFindings({ key: saved.key }), [], 'nothing drifted any more');
  });

  it('a deleted anchor with no new place is not re-verified', () => {
    s = driftSpace({ 'src/jobs/queue.ts': QUEUE });
    const saved = s.engine.remember(person, memory({ anchors: ['src/jobs/queue.ts#claimNext'] }));
    assert.ok(saved.saved);
    s.remove('src/jobs/queue.ts');
    s.engine.driftScan();
    assert.throws(
      () => s.engine.reverify(person, saved.key),
      (e: unknown) => isLoreError(e) && e.code === 'INVALID_STATE' && /gone/.test(e.message),
    );
    assert.deepEqual(s.engine.get(saved.key).memory.anchors, ['src/jobs/queue.ts#claimNext']);
  });
});

describe('drift: a moved file edited at its new place stays moved (issue 31, point 7)', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('keeps the finding relocated, with its new place, after the moved file is edited', () => {
    s = driftSpace({
      'docs/a.md': '# A\n\nRun [the script](../scripts/run.sh).\n',
      'scripts/run.sh': '#!/bin/sh\necho 1\n',
    });
    s.engine.driftScan();
    s.move('scripts/run.sh', 'bin/run.sh');
    s.engine.driftCheck(['scripts/run.sh', 'bin/run.sh']);
    assert.equal(s.refs('docs/a.md', '../scripts/run.sh')[0].state, 'relocated');
    s.write('bin/run.sh', '#!/bin/sh\necho 2\n');
    s.engine.driftCheck(['bin/run.sh']);
    s.engine.driftScan();
    const [link] = s.refs('docs/a.md', '../scripts/run.sh');
    assert.equal(link.state, 'relocated', JSON.stringify(link));
    assert.equal(link.evidence.new_path, 'bin/run.sh');
  });
});
