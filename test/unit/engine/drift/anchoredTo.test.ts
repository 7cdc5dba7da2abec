// anchoredTo: what the editor's lens and hover show for one file — the live memories anchored to it
// (by symbol or as a whole), the ADRs that refer to it, each with its drift state; links, other
// documents, retired records and other files stay out.

import assert from 'node:assert/strict';
import { runIndex } from '../../../../src/host/engineApi';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

const QUEUE = 'export function claimNext(db) {\n  return db.query("SELECT 1");\n}\n\nexport const BATCH = 10;\n';
const ADR =
  '# 1. Claim jobs with SKIP LOCKED\n\n## Status\n\nAccepted\n\n## Context\n\nWorkers raced.\n\n' +
  '## Decision\n\nUse `src/jobs/queue.ts` for claiming.\n\n## Consequences\n\nNone.\n';

describe('engine: anchoredTo (the editor lens)', function () {
  let s: DriftSpace;
  beforeEach(() => {
    s = driftSpace({
      'src/jobs/queue.ts': QUEUE,
      'src/other.ts': 'export const other = 1;\n',
      'docs/adr/0001-claim-jobs-with-skip-locked.md': ADR,
      'README.md': '# Readme\n\nSee `src/jobs/queue.ts`.\n',
    });
  });
  afterEach(() => s.cleanup());

  it('lists memories by symbol and file and the ADR referring to it; no links, READMEs, retired ones', async () => {
    const dead = s.engine.remember(
      person,
      memory({ type: 'dead_end', title: 'NOWAIT loses jobs', anchors: ['src/jobs/queue.ts#claimNext'] }),
    );
    const decision = s.engine.remember(
      person,
      memory({ type: 'decision', title: 'Batches of ten', anchors: ['src/jobs/queue.ts'] }),
    );
    const linked = s.engine.remember(person, memory({ title: 'Only linked', links: ['src/jobs/queue.ts'] }));
    const elsewhere = s.engine.remember(person, memory({ title: 'Elsewhere', anchors: ['src/other.ts'] }));
    const retired = s.engine.remember(person, memory({ title: 'Retired', anchors: ['src/jobs/queue.ts'] }));
    s.engine.setStatus(person, retired.key, 'retracted', 'wrong');
    await runIndex(s.engine, s.root, {});

    const found = s.engine.anchoredTo('src/jobs/queue.ts');
    const seen = found.map((r) => [r.source, r.id, r.kind, r.symbol, r.state]).sort();
    assert.deepEqual(
      seen,
      [
        ['doc', 'docs/adr/0001-claim-jobs-with-skip-locked.md', 'adr', null, 'current'],
        ['memory', decision.key, 'decision', null, 'current'],
        ['memory', dead.key, 'dead_end', 'claimNext', 'current'],
      ].sort(),
    );
    assert.ok(!found.some((r) => [linked.key, elsewhere.key, retired.key].includes(r.id)));
    assert.equal(found.find((r) => r.id === dead.key)?.title, 'NOWAIT loses jobs');
  });

  it("carries a reference's drift: an anchored function that changed reads changed", () => {
    const dead = s.engine.remember(person, memory({ type: 'dead_end', anchors: ['src/jobs/queue.ts#claimNext'] }));
    s.write('src/jobs/queue.ts', QUEUE.replace('SELECT 1', 'SELECT 2'));
    s.engine.driftCheck(['src/jobs/queue.ts']);
    const record = s.engine.anchoredTo('src/jobs/queue.ts').find((r) => r.id === dead.key);
    assert.equal(record?.state, 'changed');
  });

  it('refuses an empty path in its own terms', () => {
    assert.throws(() => s.engine.anchoredTo(''), /anchoredTo: path must be/);
  });
});
