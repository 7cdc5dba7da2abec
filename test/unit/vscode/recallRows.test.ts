// The editor's Recall… rows say whether each hit still holds (issue 29, point 1): the state beside
// the key, the records a hit duplicates or replaces even when it holds, and the reason as a warning
// when it does not. The hits come from a real store's recall; only the row wording is the editor's
// (the picker itself is shown in the editor tier's Recall… tests).

import assert from 'node:assert/strict';
import type { RecallHit } from '../../../src/engine';
import { createFakeVscode, installFakeVscode } from '../../support/fakeVscode';
import { driftSpace, type DriftSpace } from '../../support/drift';
import { memory, person } from '../../support/store';

describe('Recall… rows: verification as the editor shows it', function () {
  this.timeout(60_000);
  let s: DriftSpace;
  let hitItem: (hit: RecallHit) => { description?: string; detail?: string };
  before(() => {
    installFakeVscode(createFakeVscode());
    ({ hitItem } =
      require('../../../src/vscode/commands/recall') as typeof import('../../../src/vscode/commands/recall'));
  });
  beforeEach(() => {
    s = driftSpace({ 'src/billing/exporter.ts': 'export function exportNightly() {\n  return 1;\n}\n' });
  });
  afterEach(() => s.cleanup());

  const rowFor = async (key: string) => {
    const hits = (await s.engine.recall({ query: 'how does the billing exporter run' })).results;
    const hit = hits.find((h) => h.key === key);
    assert.ok(hit, `${key} among ${hits.map((h) => h.key).join(', ')}`);
    return hitItem(hit);
  };

  it('a record that holds names the record it duplicates beside its state', async () => {
    const cron = s.engine.remember(
      person,
      memory({
        title: 'The billing exporter runs nightly from cron',
        description: 'The billing exporter batch runs at 02:00 from the cron host',
        anchors: ['src/billing/exporter.ts'],
      }),
    ).key;
    const twin = s.engine.remember(
      person,
      memory({
        key: 'decision/exporter-on-cron',
        title: 'Billing exporter runs nightly from cron',
        description: 'The billing exporter batch runs at 02:00 from the cron host, every night',
        anchors: ['src/billing/exporter.ts'],
      }),
    ).key;
    const row = await rowFor(cron);
    assert.match(row.description ?? '', new RegExp(` · holds; duplicates ${twin}`));
    assert.doesNotMatch(row.detail ?? '', /\$\(warning\)/, 'a record that holds is not a warning');
  });

  it('a record whose anchors are gone says so as a warning, with the reason', async () => {
    const cron = s.engine.remember(
      person,
      memory({
        title: 'The billing exporter runs nightly from cron',
        description: 'The billing exporter batch runs at 02:00 from the cron host',
        anchors: ['src/billing/exporter.ts'],
      }),
    ).key;
    s.remove('src/billing/exporter.ts');
    const row = await rowFor(cron);
    assert.match(row.description ?? '', / · anchors gone/);
    assert.match(row.detail ?? '', /^\$\(warning\) every anchor is gone: src\/billing\/exporter\.ts gone/);
  });
});
