// Doc-tool embeds on a real repository's page (issue 31, point 8): efficientgo/e2e's README is filled
// by mdox from line ranges of its example test (`mdox-exec="sed -n '24,28p' …"` on a fence inside a
// numbered list item). A line added above the ranges shifts both (relocated, the fix moves the range),
// an edit inside one changes it, and a rename moves both. Fixture: test/fixtures/drift-embeds-e2e
// (SOURCE.md; Apache License 2.0).

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { relink } from '../../../../src/vscode/drift/relink';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const FIXTURE = join(__dirname, '../../../fixtures/drift-embeds-e2e');
const TEST = 'examples/thanos/e2etest_test.go';
const FIRST = `sed -n '24,28p' ${TEST}`;
const SECOND = `sed -n '30,53p' ${TEST}`;

describe('drift: mdox line ranges on efficientgo/e2e', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const files = () => ({
    'README.md': readFileSync(join(FIXTURE, 'README.md'), 'utf8'),
    [TEST]: readFileSync(join(FIXTURE, TEST), 'utf8'),
  });

  it('both ranges are watched; a line added above shifts them and the fix moves the range', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    for (const raw of [FIRST, SECOND]) assert.equal(s.refs('README.md', raw)[0]?.state, 'current', raw);
    const code = files()[TEST];
    s.write(
      TEST,
      code.replace('func TestExample(', '// TestExample runs Thanos against two Prometheus.\nfunc TestExample('),
    );
    s.engine.driftCheck([TEST]);
    const [first] = s.refs('README.md', FIRST);
    assert.deepEqual([first.state, first.evidence.new_path], ['relocated', `${TEST}#L25-L29`]);
    const line = `   \`\`\`go mdox-exec="${FIRST}"`;
    const fix = relink(first, line);
    assert.ok(!('problem' in fix), JSON.stringify(fix));
    assert.equal(line.slice(0, fix.start) + fix.text + line.slice(fix.end), line.replace('24,28p', '25,29p'));
    assert.equal(s.refs('README.md', SECOND)[0].evidence.new_path, `${TEST}#L31-L54`);
  });

  it('an edit inside a range changes it (the other holds); a rename moves both', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    s.write(TEST, files()[TEST].replace('"prometheus-2"', '"prometheus-b"'));
    s.engine.driftCheck([TEST]);
    assert.equal(s.refs('README.md', SECOND)[0].state, 'changed');
    assert.equal(s.refs('README.md', FIRST)[0].state, 'current');
    s.move(TEST, 'examples/thanos/example_test.go');
    s.engine.driftCheck([TEST, 'examples/thanos/example_test.go']);
    assert.equal(s.refs('README.md', FIRST)[0].state, 'relocated');
    assert.equal(s.refs('README.md', FIRST)[0].evidence.new_path, 'examples/thanos/example_test.go');
  });
});
