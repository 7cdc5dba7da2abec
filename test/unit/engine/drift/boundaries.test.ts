// Drift at the workspace's edges: a reference never makes Lore read a file outside the workspace
// (through a symbolic link, `..` or an absolute path) nor a secret-bearing file (drift knows
// it exists, by its size and time, never its content); images and large files are real targets
// (fingerprinted by their bytes), not broken links; and showing a record's drift does not walk the
// workspace.

import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { WorkspaceReader } from '../../../../src/engine';
import { DiskWorkspaceReader } from '../../../../src/host/workspaceReader';
import { ALL_STATES, driftSpace, type DriftSpace } from '../../../support/drift';
import { memory, person } from '../../../support/store';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

describe('drift: workspace boundaries', function () {
  let s: DriftSpace;
  let outside: string;
  beforeEach(() => {
    s = driftSpace({
      'docs/guide.md': '# Guide\n',
      'src/app.ts': 'export const A = 1;\n',
      '.env': 'API_TOKEN=abc123\n',
      'config/credentials.json': '{"key":"k"}\n',
      'infra/prod.tfvars': 'token = "t"\n',
      'package-lock.json': '{}\n',
    });
    outside = join(dirname(s.root), 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), "the neighbour's secret\n");
    symlinkSync(outside, join(s.root, 'linked'));
    symlinkSync(join(outside, 'secret.txt'), join(s.root, 'alias.txt'));
  });
  afterEach(() => s.cleanup());

  it(
    'the disk reader answers nothing for paths outside the workspace or through links, ' +
      'and only size and time for secret-bearing files',
    () => {
      const reader = new DiskWorkspaceReader(s.root);
      for (const path of [
        'linked/secret.txt',
        'alias.txt',
        '../outside/secret.txt',
        join(outside, 'secret.txt'),
        'docs/../../outside/secret.txt',
      ]) {
        assert.equal(reader.stat(path), null, path);
        assert.equal(reader.read(path), null, path);
        assert.equal(reader.digest(path), null, path);
      }
      for (const path of ['.env', 'config/credentials.json', 'infra/prod.tfvars']) {
        const stat = reader.stat(path);
        assert.ok(stat, path);
        assert.equal(reader.read(path), null, path);
        assert.equal(reader.digest(path), `stat:${stat.size}:${stat.mtimeMs}`, path);
      }
      assert.equal(reader.read('src/app.ts'), 'export const A = 1;\n', 'a plain file is read');
      assert.equal(
        reader.read('package-lock.json'),
        '{}\n',
        'a file the walk skips as noise, not as a secret, is read when named',
      );
      assert.deepEqual(
        reader
          .list()
          .map((f) => f.path)
          .sort(),
        ['.env', 'config/credentials.json', 'docs/guide.md', 'infra/prod.tfvars', 'src/app.ts'],
      );
    },
  );

  it('a memory anchored through a link to a file outside the workspace is broken; one to .env exists', () => {
    const saved = s.engine.remember(person, memory({ anchors: ['linked/secret.txt', 'alias.txt', '.env'] }));
    const refs = s.engine.driftFindings({ key: saved.key, states: ALL_STATES });
    assert.deepEqual(refs.map((r) => [r.reference.raw, r.state, r.reference.target_path]).sort(), [
      ['.env', 'current', '.env'],
      ['alias.txt', 'broken', null],
      ['linked/secret.txt', 'broken', null],
    ]);
  });

  it('a linked image and a file over the text cap are fingerprinted; new bytes make the image changed', () => {
    mkdirSync(join(s.root, 'docs/img'), { recursive: true });
    writeFileSync(join(s.root, 'docs/img/arch.png'), PNG);
    s.write('data/big.csv', 'a,b\n'.repeat(400_000));
    s.write('docs/guide.md', '# Guide\n![architecture](img/arch.png)\nThe sample is [big.csv](../data/big.csv).\n');
    s.engine.driftScan();
    assert.equal(s.refs('docs/guide.md', 'img/arch.png')[0]?.state, 'current');
    assert.equal(s.refs('docs/guide.md', '../data/big.csv')[0]?.state, 'current');
    writeFileSync(join(s.root, 'docs/img/arch.png'), Buffer.concat([PNG, Buffer.from([1, 2, 3])]));
    s.engine.driftCheck(['docs/img/arch.png']);
    assert.equal(s.refs('docs/guide.md', 'img/arch.png')[0]?.state, 'changed');
  });

  it('showing a record anchored to a folder does not walk the workspace', async () => {
    s.write('src/jobs/queue.ts', 'export function claimNext() {}\n');
    let walks = 0;
    const disk = new DiskWorkspaceReader(s.root);
    const counting: WorkspaceReader = {
      list: () => (walks++, disk.list()),
      stat: (p) => disk.stat(p),
      read: (p) => disk.read(p),
      digest: (p) => disk.digest(p),
    };
    s.engine.useFiles(counting);
    const saved = s.engine.remember(person, memory({ anchors: ['src/jobs'] }));
    assert.equal(s.engine.driftFindings({ key: saved.key, states: ['current'] }).length, 1, 'the folder is a target');
    const before = walks;
    s.engine.get(saved.key);
    const recalled = await s.engine.recall({ query: 'job queue postgres' });
    assert.ok(
      recalled.results.some((h) => h.record === 'memory' && h.key === saved.key),
      'the record is recalled',
    );
    assert.equal(walks, before);
  });

  it("a check of a branch switch's many paths at once is answered", () => {
    s.write('scripts/ship.sh', '#!/bin/sh\necho ship\n');
    s.write('docs/guide.md', '# Guide\nRun `scripts/ship.sh`.\n');
    s.engine.driftScan();
    s.write('scripts/ship.sh', '#!/bin/sh\necho ship --now\n');
    const paths = Array.from({ length: 20_000 }, (_, i) => `gen/part${i % 7}/file${i}.ts`);
    const findings = s.engine.driftCheck([...paths, 'scripts/ship.sh']);
    assert.deepEqual(
      findings.map((f) => [f.reference.raw, f.state]),
      [['scripts/ship.sh', 'changed']],
    );
  });

  it('a check refuses anything but a list of paths', () => {
    assert.throws(
      () => s.engine.driftCheck('docs/guide.md' as unknown as string[]),
      /needs a list of workspace-relative paths/,
    );
  });

  it('a check weighing many vanished targets against many saved paths asks the disk about each path about once', () => {
    const files = Array.from({ length: 30 }, (_, i) => `lib/mod${i}.ts`);
    files.forEach((path, i) => s.write(path, `export const m${i} = ${i};\n`));
    s.write('docs/guide.md', `# Guide\n${files.map((p) => `- \`${p}\``).join('\n')}\n`);
    s.engine.driftScan();
    let stats = 0;
    const disk = new DiskWorkspaceReader(s.root);
    s.engine.useFiles({
      list: () => disk.list(),
      stat: (p) => (stats++, disk.stat(p)),
      read: (p) => disk.read(p),
      digest: (p) => disk.digest(p),
    });
    files.forEach((path) => s.remove(path));
    const others = Array.from({ length: 300 }, (_, i) => `other/file${i}.ts`);
    others.forEach((path, i) => s.write(path, `export const o${i} = ${i};\n`));
    const findings = s.engine.driftCheck([...files, ...others]);
    assert.equal(findings.filter((f) => f.state === 'gone').length, files.length);
    assert.ok(stats <= 2 * (files.length + others.length), `${stats} stats for ${files.length + others.length} paths`);
  });
});
