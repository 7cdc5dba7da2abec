// Which store a command uses when no --workspace is given: the repository around the current folder.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, sandbox } from '../support/processes';

describe('default workspace', () => {
  it('is the repository root when run from a subfolder, so both share one store', () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, '.git'));
    const sub = join(box.workspace, 'services', 'api');
    mkdirSync(sub, { recursive: true });
    const run = (cwd: string, args: string[]) =>
      spawnSync(process.execPath, [CLI, '--json', ...args], { cwd, env: box.env, encoding: 'utf8' });
    const saved = run(sub, [
      'remember',
      '--type',
      'convention',
      '--title',
      'Errors are wrapped',
      '--description',
      'Wrap errors with context',
    ]);
    assert.equal(saved.status, 0, saved.stderr);
    const recalled = JSON.parse(run(box.workspace, ['recall', 'wrap errors']).stdout);
    assert.equal(recalled.results[0].key, 'convention/errors-are-wrapped');
  });

  it('reading a workspace that has no store creates nothing', () => {
    const box = sandbox();
    for (const args of [['list'], ['recall', 'anything'], ['get', 'decision/none'], ['audit', 'verify'], ['doctor']]) {
      spawnSync(process.execPath, [CLI, '--workspace', box.workspace, ...args], { env: box.env, encoding: 'utf8' });
    }
    assert.ok(!existsSync(join(box.home, 'workspaces')), 'no store folder was made');
  });
});
