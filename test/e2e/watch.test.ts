// `lore index` and `lore watch` through the built CLI: documents become recallable, and edits
// while watching are indexed without another command.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, sandbox, startWatch } from '../support/processes';

const FIXTURE = join(__dirname, '..', 'fixtures', 'workspace');

describe('lore index and lore watch', () => {
  it('indexes the workspace and recalls documents with path, kind and lines', () => {
    const box = sandbox();
    cpSync(FIXTURE, box.workspace, { recursive: true });
    const run = (args: string[]) =>
      spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
        env: box.env,
        encoding: 'utf8',
      });
    const indexed = run(['index']);
    assert.equal(indexed.status, 0, indexed.stderr);
    const out = JSON.parse(indexed.stdout);
    assert.equal(out.summary.indexed, 10);
    assert.equal(out.status.files, 10);
    assert.equal(out.summary.redactions, 1);
    const recalled = JSON.parse(run(['recall', 'restart stuck workers']).stdout);
    const [top] = recalled.results;
    assert.deepEqual(
      { path: top.path, kind: top.kind, record: top.record },
      { path: 'docs/ops/restart-workers.md', kind: 'runbook', record: 'doc' },
    );
    assert.ok(Number.isInteger(top.lines[0]) && top.lines[1] >= top.lines[0], JSON.stringify(top.lines));
    assert.equal(JSON.parse(run(['index']).stdout).summary.unchanged, 10);
  });

  it('keeps the index fresh while watching, and serves clients meanwhile', async () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, 'docs'), { recursive: true });
    writeFileSync(join(box.workspace, 'docs', 'first.md'), '# First document\n\nAbout zebra crossings and traffic.\n');
    const { next, stop } = startWatch(box);
    try {
      await next('watching');
      writeFileSync(
        join(box.workspace, 'docs', 'second.md'),
        '# Second document\n\nHow we rotate the flamingo certificates.\n',
      );
      const indexed = await next('indexed');
      assert.equal(indexed.summary.indexed, 1);
      const recalled = spawnSync(
        process.execPath,
        [CLI, '--workspace', box.workspace, '--json', 'recall', 'flamingo certificates'],
        { env: box.env, encoding: 'utf8' },
      );
      assert.equal(recalled.status, 0, recalled.stderr);
      assert.equal(JSON.parse(recalled.stdout).results[0].path, 'docs/second.md');
    } finally {
      await stop();
    }
  });
});
