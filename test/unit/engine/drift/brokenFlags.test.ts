// A flag that was already broken when first seen is reported broken (issue 17, point 4) — when the
// command line it is written in runs a program of this repository that defines its flags where drift
// sees them (commands.ts). Another tool's flag (`kubectl --show-labels`), a flag with no command, and
// one given to a script that hands its arguments on are no claims about this repository: not kept.
// Fixture: test/fixtures/drift-flags (SOURCE.md).

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';
import { commandOf } from '../../../../src/engine/drift/commands';
import { fixtureFiles } from '../../../support/fixtureFiles';

const FIXTURE = join(__dirname, '../../../fixtures/drift-flags');
const DOC = 'docs/upgrade.md';
const MAIN = 'cmd/upgrader/main.go';

describe('drift: flags that exist nowhere', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const state = (raw: string) => s.refs(DOC, raw).map((r) => r.state);

  it("reports a flag this repository's own program does not define as broken, saying so", () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    const [plane] = s.refs(DOC, '-control-plane-only');
    assert.equal(plane?.state, 'broken', JSON.stringify(s.all()));
    assert.equal(plane.reference.form, 'flag');
    assert.equal(plane.source.line, 4);
    assert.match(plane.evidence.detail, /-control-plane-only is not defined anywhere in the workspace/);
    assert.match(plane.evidence.detail, /upgrader \(cmd\/upgrader\/main\.go\)/);
    assert.deepEqual(state('--skip-smoke-tests'), ['broken'], 'a shell script parsing its own flags');
    assert.deepEqual(state('-drain-timeout'), ['broken'], '`go run ./cmd/upgrader` in a code block');
    // The flags the programs define resolve as before.
    // `-upgrade-version` is given to `upgrader` and to `go run ./cmd/upgrader`: one reference for each.
    assert.deepEqual(state('-upgrade-version'), ['current', 'current']);
    assert.deepEqual(state('--env'), ['current']);
  });

  it("keeps no finding for another tool's flag, a flag with no command, or one a wrapper hands on", () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    for (const raw of ['--show-labels', '--verbose', '--load']) assert.deepEqual(s.refs(DOC, raw), [], raw);
  });

  it('never takes a test file that spells the flags for the program a doc runs by name', () => {
    // Lore's own README: `lore drift list [--new]` was reported broken "not by lore (test/editor/suite/lore.ts)".
    s = driftSpace({
      'README.md': '# Tool\n\nRun `mytool drift list --new` to see only new drift.\n',
      'test/editor/suite/mytool.ts': "export const args = ['--workspace', '--json'];\nconst flag = '--json';\n",
      'test/mytool.test.ts': "it('takes --json', () => run(['--json']));\n",
    });
    s.engine.driftScan();
    assert.deepEqual(s.refs('README.md', '--new'), [], JSON.stringify(s.all()));
  });

  it('a broken flag becomes current once the program defines it', () => {
    s = driftSpace(fixtureFiles(FIXTURE));
    s.engine.driftScan();
    assert.deepEqual(state('-control-plane-only'), ['broken']);
    s.write(
      MAIN,
      fixtureFiles(FIXTURE)[MAIN].replace(
        '\tflag.Parse()',
        '\tflag.Bool("control-plane-only", false, "upgrade the control plane only")\n\tflag.Parse()',
      ),
    );
    s.engine.driftScan();
    assert.deepEqual(state('-control-plane-only'), ['current']);
  });
});

describe('drift: the program a command line runs', () => {
  it('skips prompts, environment assignments and runners', () => {
    assert.equal(commandOf('$ sudo ./scripts/deploy.sh --force'), './scripts/deploy.sh');
    assert.equal(commandOf('BOOKINFO_TAG=$TAG src/build-services.sh --load'), 'src/build-services.sh');
    assert.equal(commandOf('go run ./cmd/upgrader/ -upgrade-version 1.30'), './cmd/upgrader');
    assert.equal(commandOf('python3 -u tools/check.py --strict'), 'tools/check.py');
    assert.equal(commandOf('--verbose'), null);
    assert.equal(commandOf('"quoted" --flag'), null);
  });
});
