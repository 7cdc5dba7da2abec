// An index's drift check takes the texts the index has just read: no indexed document is read from
// disk a second time, and the references stored are the ones a scan reading every file stores. A
// text drift would not read itself (past its size cap) is not taken either.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DRIFT_STATES, Engine, type DriftFinding } from '../../../../src/engine';
import type { WorkspaceReader } from '../../../../src/engine/drift/types';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { DiskWorkspaceReader } from '../../../../src/host/workspaceReader';
import { tempDir } from '../../../support/store';

/** The disk reader, counting each path's reads. */
function counting(root: string): { reader: WorkspaceReader; reads: Map<string, number> } {
  const disk = new DiskWorkspaceReader(root);
  const reads = new Map<string, number>();
  const reader: WorkspaceReader = {
    list: () => disk.list(),
    stat: (path) => disk.stat(path),
    digest: (path) => disk.digest(path),
    read: (path) => (reads.set(path, (reads.get(path) ?? 0) + 1), disk.read(path)),
  };
  return { reader, reads };
}

const seen = (findings: DriftFinding[]) =>
  findings.map((f) => `${f.source.path} ${f.reference.raw} ${f.state} ${f.reference.target_path}`).sort();

describe("drift: an index's check takes the index's texts", () => {
  it('reads no indexed document again and stores what a scan of the files stores', async () => {
    const root = tempDir('lore-texts-');
    const files: Record<string, string> = {
      'README.md': '# Shop\n\nSee [setup](docs/setup.md#install) and [ops](docs/ops.md).\n',
      'docs/setup.md': '# Setup\n\n## Install\n\nRun `scripts/install.sh`, then read [ops](ops.md#restart).\n',
      'docs/ops.md': '# Ops\n\n## Restart\n\nSee [the missing page](gone.md) and `config/app.yaml`.\n',
      'scripts/install.sh': '#!/bin/sh\n# Reads config/app.yaml; see docs/ops.md\necho ok\n',
      'config/app.yaml': 'name: shop\n',
      // Past drift's cap (1 MiB): the index may read it under a larger cap, drift never does.
      'docs/huge.md': `# Huge\n\n[setup](setup.md)\n${'filler line of prose\n'.repeat(60_000)}`,
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const db = new WasmSqlDatabase(':memory:');
    try {
      const { reader, reads } = counting(root);
      const engine = new Engine({ db, files: reader });
      const source = new WorkspaceFileSource(root, { include: ['**/*.md', '**/*.sh', '**/*.yaml'], maxBytes: 4 << 20 });
      const run = engine.index(source);
      let step = await run.next();
      while (!step.done) step = await run.next();
      assert.equal(step.value.indexed, 6, 'every file is indexed, the large one too');
      const indexed = ['README.md', 'docs/setup.md', 'docs/ops.md', 'scripts/install.sh', 'config/app.yaml'];
      assert.deepEqual(
        indexed.filter((path) => reads.has(path)),
        [],
        `read again by drift: ${JSON.stringify([...reads])}`,
      );
      const all = () => engine.driftFindings({ states: [...DRIFT_STATES] });
      const afterIndex = seen(all());
      assert.ok(afterIndex.some((f) => f.startsWith('docs/ops.md gone.md broken')));
      assert.ok(!afterIndex.some((f) => f.startsWith('docs/huge.md')), 'the large page says nothing to drift');
      engine.driftScan();
      assert.deepEqual(seen(all()), afterIndex, 'a scan reading every file stores the same references');
    } finally {
      db.close();
    }
  });
});
