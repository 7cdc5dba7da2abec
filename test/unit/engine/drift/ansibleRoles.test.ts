// An Ansible role named in prose is a reference (issue 17, point 4): "done in a new `nodejs` role"
// names `roles/nodejs/`, run from its tasks/main.yml, so renaming or deleting that file is drift
// for the README. A bare word in a code span with no "role" beside it is not looked up as one.
// Fixture: an excerpt of geerlingguy/ansible-for-devops (MIT, test/fixtures/conventions/SOURCE.md).

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { fixtureFiles } from '../../../support/fixtureFiles';

const BOOK = join(__dirname, '../../../fixtures/conventions/ansible-for-devops');
const README = 'nodejs-role/README.md';
const TASKS = 'nodejs-role/roles/nodejs/tasks/main.yml';

describe('drift: Ansible roles named in prose', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it("watches the role's tasks file and follows it when it moves", () => {
    s = driftSpace(fixtureFiles(BOOK));
    s.engine.driftScan();
    const [ref] = s.refs(README, '`nodejs` role');
    assert.equal(ref?.reference.target_path, TASKS, JSON.stringify(s.all().filter((f) => f.source.path === README)));
    assert.equal(ref.state, 'current');
    s.move(TASKS, 'nodejs-role/roles/nodejs/tasks/install.yml');
    s.engine.driftCheck([TASKS, 'nodejs-role/roles/nodejs/tasks/install.yml']);
    const [moved] = s.refs(README, '`nodejs` role');
    assert.equal(moved.state, 'relocated');
    assert.equal(moved.evidence.new_path, 'nodejs-role/roles/nodejs/tasks/install.yml');
  });

  it('a role of the same name in another project is not the one the README means', () => {
    s = driftSpace({ ...fixtureFiles(BOOK), 'other/roles/nodejs/tasks/main.yml': '- name: other\n  debug: msg=x\n' });
    s.engine.driftScan();
    assert.deepEqual(
      s.refs(README, '`nodejs` role').map((r) => r.reference.target_path),
      [TASKS],
    );
  });
});
