// Coverage by default of what infrastructure repositories keep besides documents (issue 17, point
// 2, on four untuned repositories): Rego policies, templatefile() inputs, Terraform backend configs,
// tech-docs pages saved as .md.erb or .html.erb, and extensionless executable scripts with a
// shebang. On a real disk: the walk lists them, the index stores them, read_file serves them, and
// secret-bearing files stay out through the one secret rule.

import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Engine, type IndexSummary } from '../../../src/engine';
import { discoveryMatcher, discoveryRulesFrom } from '../../../src/engine/indexing/discovery';
import { WorkspaceFileSource } from '../../../src/host/fileSource';
import { WasmSqlDatabase } from '../../../src/host/sqlite';
import { readWorkspaceFile } from '../../../src/host/workspaceFiles';
import { tempDir, TestClock } from '../../support/store';

describe('coverage: policies, templates, backend configs, tech-docs pages and scripts', () => {
  it('the default lists take .rego, .tmpl, .tftpl, .backend and tech-docs .md.erb/.html.erb pages', () => {
    const m = discoveryMatcher();
    for (const path of [
      'policies/member/utilities.rego',
      'cluster/config/prometheus/app_alert.rules.tmpl',
      'modules/vm/cloud-init.tftpl',
      'terraform/projects/app-search/integration.blue.backend',
      'source/runbooks/auth0-dedicated-endpoints-migration.md.erb',
      'source/manual/dictionary.html.erb',
    ])
      assert.ok(m.accepts(path), path);
    // An application's views are not a docs site's pages; secret-bearing templates stay out.
    for (const path of ['app/views/users/show.html.erb', '.env.tmpl', 'config/credentials.tmpl'])
      assert.ok(!m.accepts(path), path);
  });

  it('an extensionless file is a candidate script unless excluded, secret or a person replaced the defaults', () => {
    const m = discoveryMatcher(discoveryRulesFrom());
    assert.ok(m.mayBeScript('terraform/userdata/00-base'));
    assert.ok(m.mayBeScript('git-hooks/pre-push'));
    for (const path of ['keys/id_rsa', 'node_modules/x/cli', 'docs/notes.txt', '.envrc'])
      assert.ok(!m.mayBeScript(path), path);
    assert.ok(!discoveryMatcher(discoveryRulesFrom({ defaults: false, include: ['**/*.md'] })).mayBeScript('x/run'));
    const head = (text: string) => () => text;
    assert.ok(m.acceptsFile('git-hooks/pre-push', 0o100755, head('#!')));
    assert.ok(!m.acceptsFile('git-hooks/pre-push', 0o100644, head('#!')));
    assert.ok(!m.acceptsFile('tools/blob', 0o100755, head('\x7fE')));
    assert.ok(!m.acceptsFile('keys/id_rsa', 0o100755, head('#!')));
  });

  describe('on disk', () => {
    let base: string;
    let root: string;
    let db: WasmSqlDatabase;
    beforeEach(() => {
      base = tempDir('lore-scripts-');
      root = join(base, 'repo');
      const put = (path: string, text: string | Buffer, mode = 0o644) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
        chmodSync(join(root, path), mode);
      };
      put('git-hooks/pre-push', '#!/usr/bin/env bash\nset -euo pipefail\nhelm lint charts/*\n', 0o755);
      put('terraform/userdata/00-base', '#!/bin/bash\n# Snippet: base\napt-get update\n');
      put('tools/blob', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]), 0o755);
      put('tools/notes', 'Not a script, though executable.\n', 0o755);
      put('credentials', '#!/bin/sh\necho key\n', 0o755);
      put('policies/deny.rego', 'package main\n\ndeny[msg] { msg := "no" }\n');
      put('project/integration.backend', 'bucket = "state"\nkey    = "project.tfstate"\nregion = "eu-west-1"\n');
      put('config/alertmanager.yml.tmpl', 'route:\n  receiver: ${receiver}\n');
      db = new WasmSqlDatabase(join(base, 'lore.db'));
    });
    afterEach(() => {
      db.close();
      rmSync(base, { recursive: true, force: true });
    });

    it('the walk lists executable scripts with a shebang, and nothing executable without one', async () => {
      const files = (await new WorkspaceFileSource(root, discoveryRulesFrom()).list()).map((f) => f.path).sort();
      assert.deepEqual(files, [
        'config/alertmanager.yml.tmpl',
        'git-hooks/pre-push',
        'policies/deny.rego',
        'project/integration.backend',
      ]);
    });

    it('the index stores them with their kinds, and read_file serves the script', async () => {
      const engine = new Engine({ db, clock: new TestClock() });
      const run = engine.index(new WorkspaceFileSource(root, discoveryRulesFrom()));
      let step = await run.next();
      while (!step.done) step = await run.next();
      const summary: IndexSummary = step.value;
      assert.equal(summary.indexed, 4);
      const kinds = db.all<{ path: string; kind: string }>('SELECT path, kind FROM docs ORDER BY path');
      assert.deepEqual(kinds, [
        { path: 'config/alertmanager.yml.tmpl', kind: 'config' },
        { path: 'git-hooks/pre-push', kind: 'code' },
        { path: 'policies/deny.rego', kind: 'code' },
        { path: 'project/integration.backend', kind: 'config' },
      ]);
      assert.match(readWorkspaceFile(root, 'git-hooks/pre-push').text, /helm lint/);
      assert.throws(() => readWorkspaceFile(root, 'tools/notes'), /not one of the documents/);
      assert.throws(() => readWorkspaceFile(root, 'credentials'), /may hold secrets/);
    });
  });
});
