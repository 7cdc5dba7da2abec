// A folder named `build` is build output only when it looks like it (issue 31): kind's `pkg/build/`
// is Go source its docs link, and leaving every `build/` out made those links false alarms. Output
// is left out when it is git-ignored or its entries show a build tool wrote it.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { looksLikeBuildOutput } from '../../../src/engine/indexing/discovery';
import { WorkspaceFileSource } from '../../../src/host/fileSource';
import { DiskWorkspaceReader } from '../../../src/host/workspaceReader';
import { driftSpace } from '../../support/drift';
import { tempDir } from '../../support/store';

function tree(files: Record<string, string>): string {
  const root = join(tempDir('lore-build-'), 'repo');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('discovery: build folders', () => {
  it('tells a build tool’s output from source by the folder’s entries', () => {
    for (const entries of [
      ['CMakeCache.txt', 'CMakeFiles', 'Makefile'],
      ['asset-manifest.json', 'index.html', 'static'],
      ['classes', 'tmp', 'libs'],
      ['lib.linux-x86_64-cpython-311', 'bdist.linux-x86_64'],
      ['main.o', 'app'],
      ['doctrees', 'html'],
    ])
      assert.ok(looksLikeBuildOutput(entries), entries.join(' '));
    for (const entries of [
      ['build.go', 'build_test.go', 'nodeimage'],
      ['Dockerfile', 'build-image.sh', 'README.md'],
      ['lib.go', 'tmp.go'],
      ['html'],
      [],
    ])
      assert.ok(!looksLikeBuildOutput(entries), entries.join(' '));
  });

  it('lists Go source under pkg/build/ and leaves out CMake output and a git-ignored build/', () => {
    const root = tree({
      'pkg/build/nodeimage/build.go': 'package nodeimage\n',
      'pkg/build/README.md': '# build\n',
      'build/CMakeCache.txt': 'CMAKE_BUILD_TYPE:STRING=Release\n',
      'build/config.h': '#define X 1\n',
      'build/generated.md': '# generated\n',
      'web/.gitignore': 'build/\n',
      'web/build/index.md': '# built page\n',
      'web/src/index.md': '# page\n',
    });
    const indexed = new WorkspaceFileSource(root)
      .listSync()
      .map((f) => f.path)
      .sort();
    assert.ok(indexed.includes('pkg/build/nodeimage/build.go'), indexed.join(' '));
    assert.ok(indexed.includes('pkg/build/README.md'));
    assert.ok(indexed.includes('web/src/index.md'));
    assert.ok(!indexed.some((p) => p.startsWith('build/') || p.startsWith('web/build/')), indexed.join(' '));
    // Drift's view of the workspace (every file) follows the same rule.
    const listed = new DiskWorkspaceReader(root).list().map((f) => f.path);
    assert.ok(listed.includes('pkg/build/nodeimage/build.go'));
    assert.ok(!listed.includes('build/config.h'));
  });

  it('indexes build output a person asked for by replacing the default excludes', () => {
    const root = tree({ 'build/CMakeCache.txt': 'x\n', 'build/notes.md': '# notes\n' });
    const paths = new WorkspaceFileSource(root, { include: ['**/*.md'], exclude: [] }).listSync().map((f) => f.path);
    assert.deepEqual(paths, ['build/notes.md']);
  });

  it('a doc linking Go source in pkg/build/ is current, not broken', () => {
    const s = driftSpace({
      'README.md': '# kind\nNode images are built by [nodeimage](pkg/build/nodeimage/build.go).\n',
      'pkg/build/nodeimage/build.go': 'package nodeimage\n',
    });
    try {
      s.engine.driftScan();
      assert.equal(s.refs('README.md', 'pkg/build/nodeimage/build.go')[0]?.state, 'current');
    } finally {
      s.cleanup();
    }
  });
});
