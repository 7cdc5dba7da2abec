// Issue 31, points 1 and 2, on a runbook that runs the repository's own script: a flag is tied to a
// program only when its line runs that program (generic flags after another tool, or on their own,
// are tied to nothing); renaming the script drifts only that runbook, and the fix the editor offers
// rewrites the script's name on the line and nothing else — after which the line is current again.
// "Not about this file" unties a reference for good. Fixture: test/fixtures/drift-runbook (SOURCE.md).

import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { fixtureFiles } from '../../../support/fixtureFiles';
import { person } from '../../../support/store';
import { foldFindings } from '../../../../src/vscode/drift/fold';
import { relink } from '../../../../src/vscode/drift/relink';

const FIXTURE = join(__dirname, '../../../fixtures/drift-runbook');
const RUNBOOK = 'docs/runbooks/restore-database.md';
const SCRIPT = 'scripts/restore_db.bash';
const RENAMED = 'scripts/restore-db.bash';

/** The fixture's files, without its SOURCE.md (which names the script too). */
function files(): Record<string, string> {
  const { ['SOURCE.md']: _, ...rest } = fixtureFiles(FIXTURE);
  return rest;
}

describe('drift: flags belong to the program their line runs (issue 31, point 2)', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('ties `--dry-run` to the script the runbook runs, and generic flags elsewhere to nothing', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    const tied = s.all().filter((f) => f.reference.target_path === SCRIPT);
    assert.deepEqual(
      tied.map((f) => `${f.source.path} ${f.reference.raw}`).sort(),
      [`${RUNBOOK} --dry-run`, `${RUNBOOK} restore_db.bash`],
      JSON.stringify(tied),
    );
    for (const doc of ['docs/runbooks/deploy-app.md', 'docs/runbooks/rotate-keys.md'])
      assert.deepEqual(
        s.all().filter((f) => f.source.path === doc && f.reference.form === 'flag'),
        [],
        `${doc}: --help, --dry-run and -v after kubectl, helm, vault or alone are no references`,
      );
  });

  it('renaming the script drifts only the runbook that runs it', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    s.move(SCRIPT, RENAMED);
    const drifted = s.engine.driftCheck([SCRIPT, RENAMED]).filter((f) => f.state !== 'current');
    assert.deepEqual([...new Set(drifted.map((f) => f.source.path))], [RUNBOOK], JSON.stringify(drifted));
    assert.ok(drifted.every((f) => f.state === 'relocated' && f.evidence.new_path === RENAMED));
  });

  it('"not about this file" unties a reference for good, kept with the doc across edits and scans', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    const [flag] = s.refs(RUNBOOK, '--dry-run');
    const dismissed = s.engine.dismissReference(person, flag.id);
    assert.equal(dismissed.reference.target_path, SCRIPT);
    assert.deepEqual(s.refs(RUNBOOK, '--dry-run'), []);
    s.write(RUNBOOK, `${files()[RUNBOOK]}\nAsk in #ops first.\n`);
    s.engine.driftCheck([RUNBOOK]);
    s.engine.driftScan();
    s.reopen();
    s.engine.driftScan();
    assert.deepEqual(s.refs(RUNBOOK, '--dry-run'), [], 'still untied after an edit, two scans and a reopen');
    assert.equal(s.refs(RUNBOOK, 'restore_db.bash').length, 1, 'the other references of the line are kept');
    assert.throws(() => s.engine.dismissReference(person, 'ref-x'), /looks like ref-12/);
  });
});

describe('drift: the runbook fix (issue 31, point 1)', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('offers the renamed script as the fix, rewrites only its name, and leaves the runbook current', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    s.move(SCRIPT, RENAMED);
    s.engine.driftCheck([SCRIPT, RENAMED]);
    const path = join(s.root, RUNBOOK);
    const original = readFileSync(path, 'utf8');
    // As the editor does: the warning on each line, its preferred fix applied, the doc saved and checked.
    for (let round = 0; round < 3; round++) {
      const groups = foldFindings(s.all().filter((f) => f.source.path === RUNBOOK));
      if (!groups.length) break;
      const [{ finding }] = groups;
      assert.equal(finding.reference.raw, 'restore_db.bash', 'the line stands for the script, not --dry-run');
      const lines = readFileSync(path, 'utf8').split('\n');
      const at = finding.source.line! - 1;
      const change = relink(finding, lines[at]);
      assert.ok(!('problem' in change), JSON.stringify(change));
      lines[at] = lines[at].slice(0, change.start) + change.text + lines[at].slice(change.end);
      writeFileSync(path, lines.join('\n'));
      s.engine.driftCheck([RUNBOOK]);
    }
    assert.equal(readFileSync(path, 'utf8'), original.replaceAll('restore_db.bash', 'restore-db.bash'));
    assert.deepEqual(
      s.all().filter((f) => f.source.path === RUNBOOK && f.state !== 'current'),
      [],
      'the flag follows the script its line now runs',
    );
    assert.equal(s.refs(RUNBOOK, '--dry-run')[0]?.reference.target_path, RENAMED);
  });
});
