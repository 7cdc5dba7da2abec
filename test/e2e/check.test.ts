// `lore check --base REF`, the pull-request gate, on a real git repository through the built CLI:
// only what the change breaks or makes stale is reported (a link broken before it is left out), as
// text, SARIF 2.1.0 and GitHub Actions annotations, with exit 1 when the change breaks something.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli } from '../support/cli';
import { sandbox, type Sandbox } from '../support/processes';

describe('e2e: lore check --base', function () {
  this.timeout(180_000);
  let box: Sandbox;
  const lore = (...args: string[]) => runCli(args, { home: box.home, workspace: box.workspace });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', box.workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      encoding: 'utf8',
    });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(box.workspace, path)), { recursive: true });
    writeFileSync(join(box.workspace, path), text);
  };

  before(() => {
    box = sandbox();
    write(
      'docs/adr/0001-jobs-on-postgres.md',
      '# 1. Jobs on Postgres\n\nThe queue is [src/jobs/queue.ts](../../src/jobs/queue.ts).\n\n' +
        '## Status\n\nAccepted\n\n## Context\n\nWe need a job queue and already run Postgres.\n\n' +
        '## Decision\n\nJobs run on Postgres with SKIP LOCKED.\n\n## Consequences\n\nOne fewer system to run.\n',
    );
    write(
      'docs/guide.md',
      '# Setup\n\nRun [the setup script](../scripts/setup.sh).\n\nThe [old tool](../tools/missing.sh) is gone.\n',
    );
    write('scripts/setup.sh', '#!/bin/sh\necho setup\n');
    write('src/jobs/queue.ts', 'export function claimNext() {\n  return 1;\n}\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const r = lore(
      'remember',
      '--type',
      'decision',
      '--key',
      'decision/setup-script',
      '--title',
      'Setup runs from one script',
      '--description',
      'Everything a new machine needs',
      '--anchor',
      'scripts/setup.sh',
    );
    assert.equal(r.code, 0, r.stderr);
  });

  it('reports nothing and exits 0 when the change breaks nothing, leaving out what was already broken', () => {
    const r = lore('--json', 'check', '--base', 'HEAD');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(r.json.new, []);
    assert.ok(r.json.already_broken >= 1, 'tools/missing.sh was broken before');
  });

  it('reports what the change breaks or makes stale, and only that, and exits 1', () => {
    rmSync(join(box.workspace, 'scripts/setup.sh'));
    write('src/jobs/queue.ts', 'export function claimNext() {\n  return 2;\n}\n');
    const r = lore('check', '--base', 'HEAD');
    assert.equal(r.code, 1, r.stderr + r.stdout);
    assert.match(r.stdout, /^error\s+docs\/guide\.md:3\s+docs\/guide\.md refers to \.\.\/scripts\/setup\.sh: gone/m);
    assert.match(
      r.stdout,
      /^error\s+scripts\/setup\.sh\s+memory decision\/setup-script refers to scripts\/setup\.sh: gone/m,
    );
    assert.match(
      r.stdout,
      /^warning\s+docs\/adr\/0001-jobs-on-postgres\.md:3\s+.*names .*src\/jobs\/queue\.ts, which this change modifies/m,
    );
    assert.doesNotMatch(r.stdout, /missing\.sh/);
  });

  it('writes SARIF 2.1.0 with the shape code scanning requires', () => {
    const r = lore('check', '--base', 'HEAD', '--format', 'sarif');
    assert.equal(r.code, 1);
    const sarif = JSON.parse(r.stdout);
    assert.equal(sarif.version, '2.1.0');
    assert.equal(sarif.runs.length, 1);
    const run = sarif.runs[0];
    assert.equal(run.tool.driver.name, 'Lore');
    const ruleIds = run.tool.driver.rules.map((x: { id: string }) => x.id);
    assert.ok(run.results.length >= 3);
    for (const result of run.results) {
      assert.ok(ruleIds.includes(result.ruleId));
      assert.equal(ruleIds[result.ruleIndex], result.ruleId);
      assert.ok(['error', 'warning'].includes(result.level));
      assert.equal(typeof result.message.text, 'string');
      const location = result.locations[0].physicalLocation;
      assert.equal(typeof location.artifactLocation.uri, 'string');
      assert.ok(!location.region || Number.isInteger(location.region.startLine));
    }
  });

  it('writes GitHub Actions annotations on the changed files', () => {
    const r = lore('check', '--base', 'HEAD', '--format', 'github');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^::error file=docs\/guide\.md,line=3,title=Lore%3A broken-reference::/m);
    assert.match(
      r.stdout,
      /^::warning file=docs\/adr\/0001-jobs-on-postgres\.md,line=3,title=Lore%3A stale-decision::/m,
    );
  });

  it("refuses a base that is not a revision, in the flag's own terms", () => {
    const r = lore('check', '--base', '--output=x');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--base/);
    const unknown = lore('check', '--base', 'no-such-ref');
    assert.notEqual(unknown.code, 0);
    assert.notEqual(unknown.code, 1);
    assert.match(unknown.stderr, /--base no-such-ref: git could not compare it/);
  });

  it('reports a code-span path that held at the base and the change renamed, on a store it never saw', () => {
    // agrc/status-page ff3804e3ee: `site/config.toml` became `site/hugo.toml` while the README kept
    // naming it. A code-span name is a reference only while it resolves, so a store first opened
    // after the change never saw it; the base's own files are scanned first.
    const fresh = sandbox();
    const run = (...args: string[]) => runCli(args, { home: fresh.home, workspace: fresh.workspace });
    const gitHere = (...args: string[]) =>
      execFileSync('git', ['-C', fresh.workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
        encoding: 'utf8',
      });
    mkdirSync(join(fresh.workspace, 'site'), { recursive: true });
    writeFileSync(join(fresh.workspace, 'README.md'), '# Status\n\nGo to `site/config.toml` to change the title.\n');
    writeFileSync(join(fresh.workspace, 'site/config.toml'), 'title = "Status"\n');
    gitHere('init', '-q');
    gitHere('add', '-A');
    gitHere('commit', '-qm', 'base');
    gitHere('mv', 'site/config.toml', 'site/hugo.toml');
    const r = run('check', '--base', 'HEAD');
    assert.equal(r.code, 1, r.stderr + r.stdout);
    assert.match(
      r.stdout,
      /^error\s+README\.md:3\s+README\.md refers to site\/config\.toml, which this change moved to site\/hugo\.toml/m,
    );
    // The README updated with it: nothing is broken.
    writeFileSync(join(fresh.workspace, 'README.md'), '# Status\n\nGo to `site/hugo.toml` to change the title.\n');
    const fixed = run('--json', 'check', '--base', 'HEAD');
    assert.equal(fixed.code, 0, fixed.stderr + fixed.stdout);
    assert.deepEqual(fixed.json.new, []);
  });
});
