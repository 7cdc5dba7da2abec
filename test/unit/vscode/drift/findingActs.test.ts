// A memory's drift finding in the Drift view offers Dispute and Supersede only when the engine
// allows them from the memory's status, read from a real store: a disputed memory's finding offers
// Supersede, not Dispute. The menus' `when` clauses against the row's value are checked in
// lifecycleMenus.test.ts; the click itself is the editor tier's.

import { strict as assert } from 'node:assert';
import { localApi } from '../../../../src/host/engineApi';
import { DriftTracker } from '../../../../src/vscode/drift/tracker';
import { findingContextValue } from '../../../../src/vscode/views/contextValues';
import { driftNodes } from '../../../../src/vscode/views/treeModel';
import { driftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

describe("a memory's drift finding offers what its status allows", () => {
  it('reads the status from the store: active offers Dispute and Supersede, disputed only Supersede', async () => {
    const space = driftSpace({ 'src/pay.ts': 'export function charge() {}\n' });
    try {
      space.engine.remember(person, memory({ key: 'decision/pay', anchors: ['src/pay.ts'] }));
      space.remove('src/pay.ts');
      space.engine.driftScan();
      const store = { folder: '/repo', api: localApi(space.engine) };
      const tracker = new DriftTracker();
      const rowValues = async () => {
        await tracker.refresh(store as never);
        const statusOf = (key: string) => tracker.memoryStatus('/repo', key);
        return driftNodes('/repo', tracker.known('/repo'), true, statusOf).flatMap((n) =>
          n.kind === 'finding' && n.finding.source.key === 'decision/pay'
            ? [findingContextValue(n.finding, { status: n.status })]
            : [],
        );
      };
      assert.deepEqual(await rowValues(), ['finding.memory canDispute canSupersede']);
      space.engine.setStatus(person, 'decision/pay', 'disputed', 'the charge moved');
      assert.deepEqual(await rowValues(), ['finding.memory canSupersede'], 'a full read learns the new status');
    } finally {
      space.cleanup();
    }
  });
});
