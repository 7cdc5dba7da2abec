// A memory anchored to a root file that has no extension (`Dockerfile`, `Makefile`) is anchored to
// that file, not to a symbol of that name: the editor walk found "Dockerfile is not defined anywhere
// in the workspace" on a memory whose Dockerfile was right there.

import assert from 'node:assert/strict';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

describe('drift: a bare file name as a memory anchor', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('anchors to the root file of that name, and says so when it goes', () => {
    s = driftSpace({
      Dockerfile: 'FROM node:20\nCMD ["node", "server.js"]\n',
      'src/server.js': 'function start() {}\n',
    });
    const { key } = s.engine.remember(person, memory({ anchors: ['Dockerfile', 'start'] }));
    const refs = s.engine.driftFindings({ key, states: ['current'] });
    assert.deepEqual(
      refs.map((r) => [r.reference.raw, r.state, r.reference.target_path, r.reference.symbol ?? null]).sort(),
      [
        ['Dockerfile', 'current', 'Dockerfile', null],
        ['start', 'current', 'src/server.js', 'start'],
      ],
    );
    s.remove('Dockerfile');
    s.engine.driftCheck(['Dockerfile']);
    const [gone] = s.engine.driftFindings({ key }).filter((r) => r.reference.raw === 'Dockerfile');
    assert.equal(gone.state, 'gone');
  });
});
