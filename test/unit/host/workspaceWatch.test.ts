// The owner's watched listing (src/host/workspaceWatch.ts) on a real folder with real file events:
// a run with nothing changed does not walk again, a written or deleted file is re-checked on its
// own, a new folder walks again, and a tree past the folder cap falls back to walking.

import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../../src/engine';
import { WorkspaceFileSource } from '../../../src/host/fileSource';
import { WorkspaceWatch } from '../../../src/host/workspaceWatch';
import { tempDir } from '../../support/store';

function workspace(): string {
  const root = tempDir('lore-watch-');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
  writeFileSync(join(root, 'docs', 'a.md'), '# A\n');
  writeFileSync(join(root, 'node_modules', 'pkg', 'README.md'), '# dependency\n');
  return root;
}

/**
 * A watch whose listing can be awaited: `until(expected)` lists again at each reported change
 * until the listing is `expected` (one write reports several events, some after the first list).
 */
function watched(root: string, maxFolders?: number) {
  let wake: () => void = () => {};
  const watch = new WorkspaceWatch(root, silentLogger, () => wake(), maxFolders);
  const source = watch.source({});
  const until = async (expected: string[]) => {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      if (JSON.stringify(await names(source)) === JSON.stringify(expected)) return;
      await changed;
    }
  };
  return { watch, until, source };
}

const names = async (source: { list(): Promise<Array<{ path: string }>> }) =>
  (await source.list()).map((f) => f.path).sort();

describe('WorkspaceWatch', () => {
  let close: () => void = () => {};
  afterEach(() => close());

  it('answers a run with nothing changed without walking, and re-checks only what changed', async () => {
    const root = workspace();
    const { watch, until, source } = watched(root);
    close = () => watch.close();
    assert.deepEqual(await names(source), ['docs/a.md']);
    assert.equal(watch.walks, 1);
    assert.ok(watch.watching);
    assert.deepEqual(await names(source), ['docs/a.md']);
    assert.equal(watch.walks, 1);

    writeFileSync(join(root, 'docs', 'b.md'), '# B\n');
    await until(['docs/a.md', 'docs/b.md']);
    rmSync(join(root, 'docs', 'a.md'));
    await until(['docs/b.md']);
    assert.equal(watch.walks, 1);
    // The listing is the walk's: the same files a fresh walk finds.
    assert.deepEqual(await names(source), await names(new WorkspaceFileSource(root)));
  });

  it('walks again for a new folder, and then watches it', async () => {
    const root = workspace();
    const { watch, until, source } = watched(root);
    close = () => watch.close();
    await source.list();
    mkdirSync(join(root, 'runbooks'));
    writeFileSync(join(root, 'runbooks', 'r.md'), '# R\n');
    await until(['docs/a.md', 'runbooks/r.md']);
    const walks = watch.walks;
    assert.ok(walks >= 2, `walks: ${walks}`);
    writeFileSync(join(root, 'runbooks', 's.md'), '# S\n');
    await until(['docs/a.md', 'runbooks/r.md', 'runbooks/s.md']);
    assert.equal(watch.walks, walks);
  });

  it('falls back to walking every run when the tree has more folders than it may watch', async () => {
    const root = workspace();
    const { watch, source } = watched(root, 1);
    close = () => watch.close();
    assert.deepEqual(await names(source), ['docs/a.md']);
    assert.equal(watch.watching, false);
    // No event is needed: each run walks, so a new file is listed at once.
    writeFileSync(join(root, 'docs', 'b.md'), '# B\n');
    assert.deepEqual(await names(source), ['docs/a.md', 'docs/b.md']);
  });
});
