// `lore watch` runs the drift check for the files it sees change: a script a runbook names is
// edited while watching, and the watcher reports the runbook's reference as changed.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, startWatch } from '../support/processes';

describe('lore watch and drift', () => {
  it('scans when it starts and reports drift when a referenced file changes', async () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, 'docs'), { recursive: true });
    mkdirSync(join(box.workspace, 'scripts'), { recursive: true });
    writeFileSync(
      join(box.workspace, 'docs', 'rotate.md'),
      '# Rotate keys\n\nRun `scripts/rotate.sh` and restart the API.\n',
    );
    writeFileSync(join(box.workspace, 'scripts', 'rotate.sh'), '#!/bin/sh\nvault write -f transit/keys/app/rotate\n');
    const { next, stop } = startWatch(box);
    try {
      const scan = await next('drift-scan');
      assert.equal(scan.references, 1);
      assert.equal(scan.by_state.current, 1);
      await next('watching');
      writeFileSync(join(box.workspace, 'scripts', 'rotate.sh'), '#!/bin/sh\nvault write -f transit/keys/api/rotate\n');
      const drift = await next('drift');
      assert.deepEqual(
        drift.findings.map((f: { state: string; source: { path: string }; reference: { raw: string } }) => [
          f.state,
          f.source.path,
          f.reference.raw,
        ]),
        [['changed', 'docs/rotate.md', 'scripts/rotate.sh']],
      );
    } finally {
      await stop();
    }
  });
});
