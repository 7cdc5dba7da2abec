// `lore drift check PATH...` at its door: an absolute path inside the workspace is made
// workspace-relative (editors and scripts pass absolute paths); one outside is refused with a
// usage error rather than silently checking nothing.

import assert from 'node:assert/strict';
import { isLoreError } from '../../../../src/engine';
import { workspacePaths } from '../../../../src/cli/commands/drift';

describe('lore drift check paths', () => {
  const roots = ['/home/me/repo', '/private/home/me/repo'];

  it('keeps workspace-relative paths and makes absolute ones inside the workspace relative', () => {
    assert.deepEqual(
      workspacePaths(roots, ['src/a.ts', './docs/x.md', '/home/me/repo/src/b.ts', '/private/home/me/repo/c.md']),
      ['src/a.ts', 'docs/x.md', 'src/b.ts', 'c.md'],
    );
  });

  it('refuses paths outside the workspace', () => {
    for (const path of ['/etc/passwd', '../other/x.md', '/home/me/repo', '/home/me/repo-two/x.md']) {
      assert.throws(
        () => workspacePaths(roots, [path]),
        (e: unknown) =>
          isLoreError(e) && e.code === 'INVALID_INPUT' && e.message.includes('is not a path inside the workspace'),
        path,
      );
    }
  });
});
