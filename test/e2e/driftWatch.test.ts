// `lore watch` runs the drift check for the files it sees change: a script a runbook names is
// edited while watching, and the watcher reports the runbook's reference as changed.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CLI, sandbox } from '../support/processes';

describe('lore watch and drift', () => {
  it('scans when it starts and reports drift when a referenced file changes', async () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, 'docs'), { recursive: true });
    mkdirSync(join(box.workspace, 'scripts'), { recursive: true });
    writeFileSync(join(box.workspace, 'docs', 'rotate.md'), '# Rotate keys\n\nRun `scripts/rotate.sh` and restart the API.\n');
    writeFileSync(join(box.workspace, 'scripts', 'rotate.sh'), '#!/bin/sh\nvault write -f transit/keys/app/rotate\n');
    const child = spawn(process.execPath, [CLI, '--workspace', box.workspace, '--json', 'watch'], { env: box.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const seen: Array<{ event: string }> = [];
    const waiters: Array<() => void> = [];
    let buffer = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      buffer += line;
      try {
        seen.push(JSON.parse(buffer));
        buffer = '';
        waiters.splice(0).forEach((wake) => wake());
      } catch {
        // a JSON document spans several lines
      }
    });
    child.once('exit', () => waiters.splice(0).forEach((wake) => wake()));
    const next = async (event: string): Promise<any> => {
      for (;;) {
        const index = seen.findIndex((e) => e.event === event);
        if (index >= 0) return seen.splice(0, index + 1)[index];
        if (child.exitCode !== null) throw new Error(`lore watch ended before "${event}"`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    try {
      const scan = await next('drift-scan');
      assert.equal(scan.references, 1);
      assert.equal(scan.by_state.current, 1);
      await next('watching');
      writeFileSync(join(box.workspace, 'scripts', 'rotate.sh'), '#!/bin/sh\nvault write -f transit/keys/api/rotate\n');
      const drift = await next('drift');
      assert.deepEqual(
        drift.findings.map((f: { state: string; source: { path: string }; reference: { raw: string } }) => [f.state, f.source.path, f.reference.raw]),
        [['changed', 'docs/rotate.md', 'scripts/rotate.sh']],
      );
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
