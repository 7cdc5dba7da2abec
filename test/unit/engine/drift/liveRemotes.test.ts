// The repository is known from its git remotes, read again when they change (issue 17, point 3):
// a URL of this repository added as a remote after the store opened is resolved here, and one of
// another repository is not.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../../../src/engine';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { DiskWorkspaceReader, liveRepositories } from '../../../../src/host/workspaceReader';
import { tempDir } from '../../../support/store';

describe('drift: remotes added after the store opened', () => {
  it('a URL to this repository counts once its remote exists, without reopening', () => {
    const root = tempDir('lore-remotes-');
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs/a.md'), '# A\n');
    writeFileSync(join(root, 'README.md'), '# R\n[a](https://github.com/acme/shop/blob/main/docs/a.md#missing)\n');
    const db = new WasmSqlDatabase(':memory:');
    try {
      const engine = new Engine({ db, files: new DiskWorkspaceReader(root), repositories: liveRepositories(root) });
      engine.driftScan();
      assert.deepEqual(engine.driftFindings(), [], 'without a remote, an unresolved anchor in a URL is no finding');
      mkdirSync(join(root, '.git'));
      writeFileSync(join(root, '.git/config'), '[remote "origin"]\n\turl = git@github.com:acme/shop.git\n');
      engine.driftScan();
      const found = engine.driftFindings();
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0].state, 'broken');
      assert.match(found[0].evidence.detail, /has no heading #missing/);
    } finally {
      db.close();
    }
  });

  const origin = (root: string, repo: string) => {
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, '.git/config'), `[remote "origin"]\n\turl = git@github.com:${repo}.git\n`);
  };

  it('a URL of another repository stored before the remote existed is dropped once it does', () => {
    const root = tempDir('lore-remotes-');
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs/a.md'), '# A\n');
    writeFileSync(
      join(root, 'README.md'),
      '# R\nUpstream: [their a](https://github.com/other/proj/blob/main/docs/a.md).\n',
    );
    const db = new WasmSqlDatabase(':memory:');
    try {
      const engine = new Engine({ db, files: new DiskWorkspaceReader(root), repositories: liveRepositories(root) });
      engine.driftScan();
      const url = 'https://github.com/other/proj/blob/main/docs/a.md';
      const stored = () =>
        engine
          .driftFindings({ states: ['current', 'changed', 'gone', 'relocated', 'broken'] })
          .filter((f) => f.reference.raw === url);
      assert.equal(stored().length, 1, 'without a remote, a URL whose path exists here counts');
      origin(root, 'acme/shop');
      writeFileSync(join(root, 'docs/a.md'), '# A\n\nEdited here.\n');
      assert.deepEqual(engine.driftCheck(['docs/a.md']), [], "the other repository's URL is no reference of ours");
      assert.deepEqual(stored(), []);
    } finally {
      db.close();
    }
  });

  it('a URL that turns out to be ours keeps the baseline it had, so an edit made meanwhile shows', () => {
    const root = tempDir('lore-remotes-');
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs/a.md'), '# A\n');
    const url = 'https://github.com/acme/shop/blob/main/docs/a.md';
    writeFileSync(join(root, 'README.md'), `# R\nSee [a](${url}).\n`);
    const db = new WasmSqlDatabase(':memory:');
    try {
      const engine = new Engine({ db, files: new DiskWorkspaceReader(root), repositories: liveRepositories(root) });
      engine.driftScan();
      writeFileSync(join(root, 'docs/a.md'), '# A\n\nEdited.\n');
      origin(root, 'acme/shop');
      const found = engine.driftCheck(['docs/a.md']).filter((f) => f.reference.raw === url);
      assert.deepEqual(
        found.map((f) => f.state),
        ['changed'],
      );
    } finally {
      db.close();
    }
  });

  it('a scan or check reads the remotes once, however many references it resolves', () => {
    const root = tempDir('lore-remotes-');
    mkdirSync(join(root, 'docs'));
    const links = Array.from({ length: 30 }, (_, i) => `- [${i}](docs/p${i}.md) and \`docs/q${i}.md\``);
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `docs/p${i}.md`), `# P${i}\n`);
    writeFileSync(
      join(root, 'README.md'),
      `# R\n${links.join('\n')}\n[ours](https://github.com/acme/shop/blob/main/docs/p1.md#missing)\n`,
    );
    const db = new WasmSqlDatabase(':memory:');
    try {
      const live = liveRepositories(root);
      let reads = 0;
      const engine = new Engine({ db, files: new DiskWorkspaceReader(root), repositories: () => (reads++, live()) });
      engine.driftScan();
      assert.ok(engine.driftFindings({ states: ['current'] }).length >= 30, 'the links are stored');
      assert.equal(reads, 1, 'one scan, one read of the remotes');
      origin(root, 'acme/shop');
      writeFileSync(
        join(root, 'README.md'),
        `# R\n${links.join('\n')}\n[ours](https://github.com/acme/shop/blob/main/docs/p2.md#gone)\n`,
      );
      const found = engine.driftCheck(['README.md']).filter((f) => f.state === 'broken');
      assert.equal(reads, 2, 'the next check reads them again');
      assert.deepEqual(
        found.map((f) => f.evidence.detail),
        ['docs/p2.md has no heading #gone'],
        'a remote added since the scan counts in the next check',
      );
    } finally {
      db.close();
    }
  });
});
