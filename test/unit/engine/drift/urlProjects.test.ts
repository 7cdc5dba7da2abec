// A same-repository URL in a workspace that holds several repositories (issue 17, point 3): with no
// remote to say which repository this is, `github.com/istio/istio/blob/master/x` in a document of
// the `istio/` project (a folder with its own licence, named like the repository) names `istio/x`.
// A project folder named otherwise (a monorepo's package) does not capture its repository's URLs.

import { strict as assert } from 'node:assert';
import { driftSpace, type DriftSpace } from '../../../support/drift';

describe('drift: URLs of a project that is a folder of the workspace', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const URL = 'https://github.com/istio/istio/blob/master/tests/integration/README.md';

  it('resolves under the project named like the repository, and follows a rename there', () => {
    s = driftSpace({
      'istio/LICENSE': 'Apache License\n',
      'istio/tests/integration/README.md': '# Integration tests\n\nRun them with make.\n',
      'istio/architecture/tests/integration.md': `# Testing\n\nSee the [framework](${URL}).\n`,
      'ansible/LICENSE': 'MIT\n',
    });
    s.engine.driftScan();
    const [ref] = s.refs('istio/architecture/tests/integration.md', URL);
    assert.equal(ref?.reference.target_path, 'istio/tests/integration/README.md');
    assert.equal(ref.state, 'current');
    s.move('istio/tests/integration/README.md', 'istio/tests/integration/GUIDE.md');
    s.engine.driftCheck(['istio/tests/integration/README.md', 'istio/tests/integration/GUIDE.md']);
    const [moved] = s.refs('istio/architecture/tests/integration.md', URL);
    assert.equal(moved.state, 'relocated');
    assert.equal(moved.evidence.new_path, 'istio/tests/integration/GUIDE.md');
  });

  it("a package of a monorepo does not take its repository's URLs", () => {
    const root = 'https://github.com/acme/mono/blob/main/README.md';
    s = driftSpace({
      'README.md': '# Mono\n',
      'packages/foo/package.json': '{"name":"foo"}\n',
      'packages/foo/README.md': `# Foo\n\nPart of [mono](${root}).\n`,
    });
    s.engine.driftScan();
    assert.equal(s.refs('packages/foo/README.md', root)[0]?.reference.target_path, 'README.md');
  });
});
