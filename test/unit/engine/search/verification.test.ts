// Every recall hit says whether it still holds: a memory whose anchors are all gone ranks below the
// record that now answers and says why; one whose anchors hold says so; a document hit says whether
// the references on its lines hold. A real store reading a real workspace folder.

import assert from 'node:assert/strict';
import type { MemoryHit, RecallHit } from '../../../../src/engine';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

describe('recall: verification on every hit', function () {
  this.timeout(60_000);
  let s: DriftSpace;
  let cron: string;
  let stream: string;
  beforeEach(() => {
    s = driftSpace({
      'src/billing/exporter.ts': 'export function exportNightly() {\n  return 1;\n}\n',
      'src/billing/stream.ts': 'export function streamToLedger() {\n  return 2;\n}\n',
    });
    cron = s.engine.remember(
      person,
      memory({
        title: 'The billing exporter runs nightly from cron',
        description: 'The billing exporter batch runs at 02:00 from the cron host',
        anchors: ['src/billing/exporter.ts'],
      }),
    ).key;
    s.clock.advanceDays(10);
    stream = s.engine.remember(
      person,
      memory({
        title: 'Billing usage streams to the ledger',
        description: 'Usage events go to the ledger as they happen',
        anchors: ['src/billing/stream.ts'],
      }),
    ).key;
  });
  afterEach(() => s.cleanup());

  const recall = async (): Promise<RecallHit[]> =>
    (await s.engine.recall({ query: 'how does the billing exporter run' })).results;

  it('says the anchors hold while they do', async () => {
    const hits = await recall();
    assert.equal(hits[0].key, cron, 'the exporter record matches the question best');
    const v = (hits[0] as MemoryHit).verification;
    assert.equal(v?.state, 'holds');
    assert.deepEqual(v?.anchors, { total: 1, current: 1, drifted: [] });
    assert.equal(v?.reason, '1 anchor current');
  });

  it('ranks a record whose anchors are all gone below the one that holds, and says why', async () => {
    s.remove('src/billing/exporter.ts');
    const hits = await recall();
    const keys = hits.map((h) => h.key);
    assert.ok(keys.indexOf(stream) < keys.indexOf(cron), keys.join(', '));
    const gone = hits.find((h) => h.key === cron)!;
    assert.equal(gone.verification?.state, 'anchors_gone');
    assert.equal(gone.verification?.anchors.current, 0);
    assert.equal(gone.verification?.anchors.drifted[0].state, 'gone');
    assert.match(gone.verification!.reason, /every anchor is gone: src\/billing\/exporter\.ts gone/);
    assert.equal(gone.score.verification, 0.5);
    assert.equal(hits.find((h) => h.key === stream)?.verification?.state, 'holds');
  });

  it('says when an anchor changed, without demoting the record', async () => {
    s.write('src/billing/exporter.ts', 'export function exportHourly() {\n  return 3;\n}\n');
    const hits = await recall();
    assert.equal(hits[0].key, cron);
    assert.equal(hits[0].verification?.state, 'drifted');
    assert.match(hits[0].verification!.reason, /1 anchor drifted: src\/billing\/exporter\.ts changed/);
  });

  it('names a near duplicate on the page', async () => {
    const twin = s.engine.remember(
      person,
      memory({
        key: 'decision/exporter-on-cron',
        title: 'Billing exporter runs nightly from cron',
        description: 'The billing exporter batch runs at 02:00 from the cron host, every night',
        anchors: ['src/billing/exporter.ts'],
      }),
    ).key;
    const hits = await recall();
    const first = hits.find((h) => h.key === cron)!;
    assert.deepEqual(
      first.verification?.duplicates.map((d) => d.key),
      [twin],
    );
    assert.match(first.verification!.reason, new RegExp(`duplicates ${twin}`));
  });
});
