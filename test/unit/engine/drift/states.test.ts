// Drift states and symbol-level precision: a full scan and the per-save check classify each
// reference current, changed, relocated (with the new place), gone or broken; a symbol's
// fingerprint covers only its own text, so an edit elsewhere in the file is not drift.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const QUEUE = [
  'export function claimNext(db) {',
  '  return db.query("SELECT * FROM jobs FOR UPDATE SKIP LOCKED LIMIT 1");',
  '}',
  '',
  'export function release(db, id) {',
  '  return db.query("DELETE FROM locks WHERE id = $1", [id]);',
  '}',
  '',
].join('\n');

const VARIABLES = 'variable "region" {\n  default = "eu-west-2"\n}\n\nvariable "zones" {\n  default = 3\n}\n';

function space(): DriftSpace {
  return driftSpace({
    'docs/jobs.md': [
      '# Jobs',
      'Workers call `claimNext()` (see `src/jobs/queue.ts`); the deploy script is `scripts/deploy.sh`.',
      'The region comes from `var.region`; `settings.replicas` is set in `config/app.yaml`.',
      'Old notes: [legacy](legacy.md).',
    ].join('\n'),
    'src/jobs/queue.ts': QUEUE,
    'scripts/deploy.sh': '#!/bin/sh\necho deploy\n',
    'infra/variables.tf': VARIABLES,
    'config/app.yaml': 'settings:\n  replicas: 2\n  timeout: 30\nlogging:\n  level: info\n',
  });
}

describe('drift: states', function () {
  let s: DriftSpace;
  beforeEach(() => {
    s = space();
    s.engine.driftScan();
  });
  afterEach(() => s.cleanup());

  const state = (raw: string) => {
    const refs = s.refs('docs/jobs.md', raw);
    assert.equal(refs.length, 1, `one reference ${raw}: ${JSON.stringify(refs)}`);
    return refs[0];
  };

  it('classifies every resolved reference current at the first scan, and a dead link broken', () => {
    const result = s.engine.driftScan();
    assert.equal(result.by_state.broken, 1);
    assert.equal(result.findings.length, 1);
    assert.equal(result.findings[0].reference.raw, 'legacy.md');
    assert.equal(result.by_state.current, result.references - 1);
  });

  it('a modified file makes a reference to it changed, found by the per-save check of that path', () => {
    s.write('scripts/deploy.sh', '#!/bin/sh\necho deploy --force\n');
    const findings = s.engine.driftCheck(['scripts/deploy.sh']);
    const ref = findings.find((f) => f.reference.raw === 'scripts/deploy.sh');
    assert.equal(ref?.state, 'changed');
    assert.match(ref!.evidence.detail, /scripts\/deploy\.sh changed/);
    assert.equal(state('scripts/deploy.sh').state, 'changed', 'the finding persists');
  });

  it('an edit outside a function leaves a reference to that function current; an edit inside makes it changed', () => {
    s.write('src/jobs/queue.ts', QUEUE.replace('DELETE FROM locks', 'DELETE FROM job_locks'));
    s.engine.driftCheck(['src/jobs/queue.ts']);
    assert.equal(state('claimNext()').state, 'current', 'release() changed, claimNext() did not');
    assert.equal(state('src/jobs/queue.ts').state, 'changed', 'the file as a whole did change');
    s.write('src/jobs/queue.ts', QUEUE.replace('SKIP LOCKED', 'NOWAIT'));
    s.engine.driftCheck(['src/jobs/queue.ts']);
    const ref = state('claimNext()');
    assert.equal(ref.state, 'changed');
    assert.match(ref.evidence.detail, /claimNext in src\/jobs\/queue\.ts changed/);
  });

  it('symbol precision holds for Terraform blocks and YAML keys', () => {
    s.write('infra/variables.tf', VARIABLES.replace('default = 3', 'default = 2'));
    s.write('config/app.yaml', 'settings:\n  replicas: 2\n  timeout: 60\nlogging:\n  level: info\n');
    s.engine.driftCheck(['infra/variables.tf', 'config/app.yaml']);
    assert.equal(state('var.region').state, 'current');
    s.write('infra/variables.tf', VARIABLES.replace('eu-west-2', 'eu-west-1'));
    s.engine.driftCheck(['infra/variables.tf']);
    assert.equal(state('var.region').state, 'changed');
  });

  it('a renamed file is relocated, with the new path as evidence', () => {
    s.move('scripts/deploy.sh', 'scripts/release.sh');
    s.engine.driftCheck(['scripts/deploy.sh', 'scripts/release.sh']);
    const ref = state('scripts/deploy.sh');
    assert.equal(ref.state, 'relocated');
    assert.equal(ref.evidence.old_path, 'scripts/deploy.sh');
    assert.equal(ref.evidence.new_path, 'scripts/release.sh');
  });

  it('a full scan finds a moved file by its content without being told where it went', () => {
    s.move('scripts/deploy.sh', 'tools/ship.sh');
    s.engine.driftScan();
    assert.equal(state('scripts/deploy.sh').evidence.new_path, 'tools/ship.sh');
  });

  it('a function moved to another file is relocated by its symbol', () => {
    s.write('src/jobs/queue.ts', QUEUE.split('\n').slice(4).join('\n'));
    s.write('src/jobs/claim.ts', QUEUE.split('\n').slice(0, 4).join('\n'));
    s.engine.driftCheck(['src/jobs/queue.ts', 'src/jobs/claim.ts']);
    const ref = state('claimNext()');
    assert.equal(ref.state, 'relocated');
    assert.equal(ref.evidence.new_path, 'src/jobs/claim.ts');
  });

  it('a deleted file is gone; a symbol deleted from its file is gone', () => {
    s.remove('scripts/deploy.sh');
    s.write('src/jobs/queue.ts', QUEUE.split('\n').slice(4).join('\n'));
    s.engine.driftScan();
    assert.equal(state('scripts/deploy.sh').state, 'gone');
    const fn = state('claimNext()');
    assert.equal(fn.state, 'gone');
    assert.match(fn.evidence.detail, /claimNext is no longer defined in src\/jobs\/queue\.ts/);
  });

  it('an edit to the document does not absorb a change its target made meanwhile', () => {
    s.write('scripts/deploy.sh', '#!/bin/sh\necho other\n');
    s.write('docs/jobs.md', `Intro line.\n${readDoc(s)}`);
    s.engine.driftCheck(['docs/jobs.md', 'scripts/deploy.sh']);
    const ref = state('scripts/deploy.sh');
    assert.equal(ref.state, 'changed');
    assert.equal(ref.source.line, 3, 'the line follows the document');
  });

  it('a reference removed from the document is no longer tracked; a new one is fingerprinted when it appears', () => {
    s.write('docs/jobs.md', '# Jobs\nOnly `config/app.yaml` now.\n');
    s.engine.driftCheck(['docs/jobs.md']);
    assert.deepEqual(s.refs('docs/jobs.md', 'scripts/deploy.sh'), []);
    assert.equal(state('config/app.yaml').state, 'current');
  });

  it(
    'lines named by number that shifted down the file are relocated ' + 'to their new numbers; edited ones are changed',
    () => {
      s.write('docs/lines.md', 'See [the query](../src/jobs/queue.ts#L1-L2).\n');
      s.engine.driftCheck(['docs/lines.md']);
      s.write('src/jobs/queue.ts', `// a new header line\n${QUEUE}`);
      s.engine.driftCheck(['src/jobs/queue.ts']);
      const moved = s.refs('docs/lines.md', '../src/jobs/queue.ts#L1-L2')[0];
      assert.equal(moved.state, 'relocated');
      assert.equal(moved.evidence.new_path, 'src/jobs/queue.ts#L2-L3');
      s.write('src/jobs/queue.ts', QUEUE.replace('SKIP LOCKED', 'NOWAIT'));
      s.engine.driftCheck(['src/jobs/queue.ts']);
      assert.equal(s.refs('docs/lines.md', '../src/jobs/queue.ts#L1-L2')[0].state, 'changed');
    },
  );

  it('findings persist in the store across a reopen', () => {
    s.remove('scripts/deploy.sh');
    s.engine.driftCheck(['scripts/deploy.sh']);
    s.reopen();
    const gone = s.engine.driftFindings({ states: ['gone'] });
    assert.deepEqual(
      gone.map((f) => f.reference.raw),
      ['scripts/deploy.sh'],
    );
    assert.deepEqual(
      s.engine.driftFindings({ path: 'scripts/deploy.sh' }).map((f) => f.state),
      ['gone'],
    );
  });

  it('a dead link is current once the per-save check sees its target created', () => {
    assert.equal(state('legacy.md').state, 'broken');
    s.write('docs/legacy.md', '# Legacy notes\n');
    s.engine.driftCheck(['docs/legacy.md']);
    const ref = state('legacy.md');
    assert.deepEqual([ref.state, ref.reference.target_path], ['current', 'docs/legacy.md']);
  });

  it('a scan after the target is restored brings the reference back to current', () => {
    s.write('scripts/deploy.sh', '#!/bin/sh\necho deploy --force\n');
    s.engine.driftScan();
    assert.equal(state('scripts/deploy.sh').state, 'changed');
    s.write('scripts/deploy.sh', '#!/bin/sh\necho deploy\n');
    s.engine.driftScan();
    assert.equal(state('scripts/deploy.sh').state, 'current');
  });
});

function readDoc(s: DriftSpace): string {
  return readFileSync(join(s.root, 'docs/jobs.md'), 'utf8');
}
