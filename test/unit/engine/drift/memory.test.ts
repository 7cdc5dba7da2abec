// Drift of memories: a record's anchors are fingerprinted when it is saved; recall and get flag it
// once an anchor changes or goes away (and not before); forget leaves no reference behind; and
// re-verify refreshes the fingerprints, makes the basis verified and records it in the audit chain.

import assert from 'node:assert/strict';
import { isLoreError, type DriftFlag, type MemoryHit } from '../../../../src/engine';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { confirmedPerson, memory, person } from '../../../support/store';

const QUEUE =
  'export function claimNext(db) {\n  return db.query("SELECT * ' +
  'FROM jobs FOR UPDATE SKIP LOCKED LIMIT 1");\n}\n\nexport const ' +
  'BATCH = 10;\n';

type Drifted = { flags: string[]; drift?: DriftFlag[] };

describe('drift: memories', function () {
  let s: DriftSpace;
  let key: string;
  beforeEach(() => {
    s = driftSpace({
      'src/jobs/queue.ts': QUEUE,
      'scripts/rotate.sh': '#!/bin/sh\nvault write -f transit/keys/app/rotate\n',
    });
    const saved = s.engine.remember(
      person,
      memory({ anchors: ['src/jobs/queue.ts#claimNext'], links: ['scripts/rotate.sh', 'decision/another-record'] }),
    );
    assert.ok(saved.saved);
    key = saved.key;
  });
  afterEach(() => s.cleanup());

  const hit = async (): Promise<MemoryHit & Drifted> => {
    const result = await s.engine.recall({ query: 'job queue postgres' });
    const found = result.results.find((h) => h.key === key);
    assert.ok(found, 'the record is recalled');
    return found as MemoryHit & Drifted;
  };

  it('fingerprints the anchors and file links at save time (not links to other records)', () => {
    const refs = s.engine.driftFindings({ key, states: ['current'] });
    assert.deepEqual(refs.map((r) => [r.reference.raw, r.reference.target_path, r.reference.symbol ?? null]).sort(), [
      ['scripts/rotate.sh', 'scripts/rotate.sh', null],
      ['src/jobs/queue.ts#claimNext', 'src/jobs/queue.ts', 'claimNext'],
    ]);
  });

  it(
    'recall and get carry no drift while the anchors are unchanged, ' + 'even after an edit elsewhere in the file',
    async () => {
      s.write('src/jobs/queue.ts', QUEUE.replace('BATCH = 10', 'BATCH = 20'));
      const h = await hit();
      assert.equal(h.drift, undefined);
      assert.ok(!h.flags.some((f) => f.startsWith('drift')), h.flags.join(','));
      assert.equal((s.engine.get(key) as Drifted).drift, undefined);
    },
  );

  it('recall and get flag the record once its anchored function changes, without a scan', async () => {
    s.write('src/jobs/queue.ts', QUEUE.replace('SKIP LOCKED', 'NOWAIT'));
    const h = await hit();
    assert.ok(h.flags.includes('drift:changed'), h.flags.join(','));
    assert.deepEqual(
      h.drift?.map((d) => [d.state, d.reference]),
      [['changed', 'src/jobs/queue.ts#claimNext']],
    );
    const got = s.engine.get(key) as Drifted;
    assert.ok(got.flags.includes('drift:changed'));
    assert.match(got.drift![0].detail, /claimNext in src\/jobs\/queue\.ts changed/);
  });

  it('flags a record whose anchored file was deleted as gone', async () => {
    s.remove('scripts/rotate.sh');
    const h = await hit();
    assert.ok(h.flags.includes('drift:gone'), h.flags.join(','));
  });

  it("forget removes the record's references with it", () => {
    s.engine.forget(person, key);
    assert.deepEqual(
      s.engine.driftFindings({ key, states: ['current', 'changed', 'gone', 'relocated', 'broken'] }),
      [],
    );
    s.engine.driftScan();
    assert.ok(!s.all().some((f) => f.source.key === key));
  });

  it('re-verify refreshes the fingerprints, makes the basis verified in a new version, and audits it', async () => {
    s.write('src/jobs/queue.ts', QUEUE.replace('SKIP LOCKED', 'NOWAIT'));
    const before = s.engine.stats().audit_events;
    const result = s.engine.reverify(person, key);
    assert.equal(result.basis, 'verified');
    assert.equal(result.version, 2);
    const got = s.engine.get(key);
    assert.equal(got.memory.basis, 'verified');
    assert.equal(got.memory.version, 2);
    assert.equal(got.drift, undefined, 'no drift right after re-verifying');
    assert.ok(s.engine.stats().audit_events >= before + 2, 'the update and the re-verification are both audited');
    assert.equal(s.engine.verifyAudit().ok, true);
    const refs = s.engine.driftFindings({ key, states: ['current'] });
    assert.equal(refs.length, 2);
    assert.equal((await hit()).drift, undefined);
  });

  it('re-verify follows a relocated anchor to its new place', () => {
    s.move('scripts/rotate.sh', 'ops/rotate.sh');
    s.engine.driftCheck(['scripts/rotate.sh', 'ops/rotate.sh']);
    s.engine.reverify(person, key);
    // The record itself now names the new place (issue 31, point 7), not only drift's row.
    assert.deepEqual(s.engine.get(key).memory.links, ['ops/rotate.sh', 'decision/another-record']);
    const ref = s.engine.driftFindings({ key, states: ['current'] }).find((r) => r.reference.raw === 'ops/rotate.sh');
    assert.equal(ref?.reference.target_path, 'ops/rotate.sh');
  });

  it('re-verify refuses a record whose anchor is gone, and changes nothing', () => {
    s.remove('scripts/rotate.sh');
    const audit = s.engine.stats().audit_events;
    assert.throws(
      () => s.engine.reverify(person, key),
      (e: unknown) =>
        isLoreError(e) && e.code === 'INVALID_STATE' && /scripts\/rotate\.sh, which is gone/.test(e.message),
    );
    assert.equal(s.engine.get(key).memory.version, 1);
    assert.equal(s.engine.stats().audit_events, audit);
  });

  it(
    're-verify keeps a promoted record from a web page active: a ' + 'person checking it does not quarantine it again',
    () => {
      const saved = s.engine.remember(
        person,
        memory({
          key: 'runbook/rotate-from-docs',
          type: 'runbook',
          title: 'Rotate keys (from the vendor docs)',
          anchors: ['scripts/rotate.sh'],
          provenance: { source: 'webpage', client: 'test' },
        }),
      );
      assert.ok(saved.saved);
      s.engine.promote(confirmedPerson, saved.key);
      assert.equal(s.engine.get(saved.key).memory.status, 'active');
      const result = s.engine.reverify(person, saved.key);
      const got = s.engine.get(saved.key).memory;
      assert.deepEqual([got.status, got.basis, got.version], ['active', 'verified', result.version]);
      assert.equal(s.engine.verifyAudit().ok, true);
    },
  );
});
