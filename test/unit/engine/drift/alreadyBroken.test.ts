// Issue 31, points 3 and 5: breakage that was there when Lore first looked is "already broken" — kept
// apart from drift caused since, which is listed first, and left out by `--new` (fresh) — and a name
// several files match is no finding at all (only asked for by state, for the explain view), while a
// name that meant one file keeps meaning it when a namesake appears.

import { strict as assert } from 'node:assert';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const GUIDE = 'docs/guide.md';

describe('drift: already broken, and drift caused since (issue 31, point 5)', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  function space(): DriftSpace {
    const made = driftSpace({
      [GUIDE]: '# Guide\n\nSee [setup](setup.md) and [the old page](retired.md).\n',
      'docs/setup.md': '# Setup\n\nInstall it.\n',
    });
    // Lore starts after the files were written (the clock the store keeps is a little ahead of them).
    made.clock.set(new Date(Date.now() + 5_000).toISOString());
    return made;
  }

  it('marks a link broken before Lore as already broken, and lists drift caused since first', () => {
    s = space();
    s.engine.driftScan();
    const [old] = s.refs(GUIDE, 'retired.md');
    assert.equal(old.state, 'broken');
    assert.equal(old.already_broken, true, JSON.stringify(old));
    s.remove('docs/setup.md');
    s.engine.driftCheck(['docs/setup.md']);
    const listed = s.engine.driftFindings();
    assert.deepEqual(
      listed.map((f) => [f.reference.raw, f.state, f.already_broken ?? false]),
      [
        ['setup.md', 'gone', false],
        ['retired.md', 'broken', true],
      ],
      'drift caused since first',
    );
    assert.deepEqual(
      s.engine.driftFindings({ fresh: true }).map((f) => f.reference.raw),
      ['setup.md'],
      '`lore drift list --new` gives only the new',
    );
  });

  it('a broken link written after Lore started is new drift, and a fixed old one breaking again is new too', () => {
    s = space();
    s.engine.driftScan();
    s.write('docs/new.md', '# New\n\nSee [nothing](nowhere.md).\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(s.root, 'docs/new.md'), later, later);
    s.engine.driftCheck(['docs/new.md']);
    const [fresh] = s.refs('docs/new.md', 'nowhere.md');
    assert.equal(fresh.state, 'broken');
    assert.equal(fresh.already_broken, undefined);
    s.write('docs/retired.md', '# Retired\n');
    s.engine.driftScan();
    assert.equal(s.refs(GUIDE, 'retired.md')[0].state, 'current');
    s.remove('docs/retired.md');
    s.engine.driftScan();
    const [again] = s.refs(GUIDE, 'retired.md');
    assert.equal(again.state, 'gone');
    assert.equal(again.already_broken, undefined, 'fixed once, breaking again is drift caused since');
  });
});

describe('drift: "ambiguous" is never a finding (issue 31, point 3)', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('a name several files match is kept for the explain view only', () => {
    s = driftSpace({
      'docs/cases.md': '# Cases\n\nEach case has a `case.yaml` beside its `meta.json`.\n',
      'cases/a/case.yaml': 'a: 1\n',
      'cases/b/case.yaml': 'b: 1\n',
      'cases/a/meta.json': '{}\n',
      'cases/b/meta.json': '{}\n',
    });
    const scan = s.engine.driftScan();
    assert.deepEqual(scan.findings, [], 'the scan reports nothing');
    assert.deepEqual(s.engine.driftFindings(), [], '`lore drift list` and the editor list nothing');
    const asked = s.engine.driftFindings({ states: ['ambiguous'] });
    assert.deepEqual(asked.map((f) => f.reference.raw).sort(), ['case.yaml', 'meta.json']);
  });

  it('a name that meant one file keeps meaning it when a namesake appears, and is reported with it', () => {
    s = driftSpace({
      'docs/ops.md': '# Ops\n\nThe limits live in `limits.yaml`.\n',
      'config/limits.yaml': 'cpu: 2\n',
    });
    s.engine.driftScan();
    assert.equal(s.refs('docs/ops.md', 'limits.yaml')[0].reference.target_path, 'config/limits.yaml');
    s.write('charts/app/limits.yaml', 'memory: 1Gi\n');
    s.engine.driftScan();
    s.remove('config/limits.yaml');
    s.engine.driftScan();
    const [meant] = s.refs('docs/ops.md', 'limits.yaml');
    assert.notEqual(meant.state, 'ambiguous');
    assert.notEqual(meant.state, 'current');
    assert.equal(meant.reference.target_path, 'config/limits.yaml');
    assert.deepEqual(
      s.engine.driftFindings().map((f) => f.reference.target_path),
      ['config/limits.yaml'],
    );
  });
});
