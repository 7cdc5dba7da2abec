// A recall hit on a document is one chunk of it (issue 17, point 5): it carries the drift of the
// references written in that chunk only, not of every reference the file makes.

import { strict as assert } from 'node:assert';
import type { RecallResult } from '../../../../src/engine';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const GUIDE = [
  '# Operations guide',
  '',
  '## Restarting the billing workers',
  '',
  'Billing workers restart with [the restart script](../scripts/restart.sh) after a deploy.',
  '',
  '## Rotating the payment provider keys',
  '',
  'Provider keys rotate with [the rotation script](../scripts/rotate.sh) every quarter.',
  '',
].join('\n');

describe("drift: recall hits on a document carry their own chunk's drift", function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const docHit = (result: RecallResult, words: RegExp) => {
    const hits = result.results.filter((h) => h.record === 'doc' && h.path === 'docs/guide.md');
    return hits.find((h) => h.record === 'doc' && words.test(h.title + h.description)) ?? hits[0];
  };

  it("a hit on the rotation section does not carry the restart section's changed link", async () => {
    s = driftSpace({
      'docs/guide.md': GUIDE,
      'scripts/restart.sh': '#!/bin/sh\nsystemctl restart billing\n',
      'scripts/rotate.sh': '#!/bin/sh\nrotate\n',
    });
    const run = s.engine.index(new WorkspaceFileSource(s.root));
    for (let step = await run.next(); !step.done; step = await run.next());
    s.write('scripts/restart.sh', '#!/bin/sh\nsystemctl restart billing-v2\n');
    s.engine.driftCheck(['scripts/restart.sh']);
    assert.equal(s.refs('docs/guide.md', '../scripts/restart.sh')[0].state, 'changed');

    const rotation = docHit(await s.engine.recall({ query: 'rotating payment provider keys quarter' }), /Rotating/);
    assert.ok(rotation && rotation.record === 'doc', 'the rotation section is recalled');
    assert.ok(rotation.lines[0] >= 7, `the hit is the rotation chunk: lines ${rotation.lines}`);
    assert.ok(!rotation.flags.includes('drift:changed'), rotation.flags.join(','));

    const restart = docHit(await s.engine.recall({ query: 'restarting billing workers after deploy' }), /Restarting/);
    assert.ok(
      restart && restart.record === 'doc' && restart.lines[0] <= 5 && restart.lines[1] >= 5,
      `lines ${restart?.record === 'doc' ? restart.lines : ''}`,
    );
    assert.ok(restart.flags.includes('drift:changed'), restart.flags.join(','));
    assert.deepEqual(
      (restart as { drift?: Array<{ reference: string }> }).drift?.map((d) => d.reference),
      ['../scripts/restart.sh'],
    );
  });
});
