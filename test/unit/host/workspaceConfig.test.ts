// What the index covers is configurable per workspace (.lore/config.json): globs added to the
// defaults or replacing them, allowed exceptions to the excludes, a size cap. A bad file names
// the field at fault.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WorkspaceFileSource } from '../../../src/host/fileSource';
import { parseWorkspaceConfig, workspaceDiscoveryRules, WORKSPACE_CONFIG } from '../../../src/host/workspaceConfig';
import { tempDir } from '../../support/store';

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function discovered(root: string, extra = {}): Promise<string[]> {
  return (await new WorkspaceFileSource(root, workspaceDiscoveryRules(root, extra)).list()).map((f) => f.path).sort();
}

describe('workspace index configuration (.lore/config.json)', () => {
  const tree = {
    'README.md': '# Service\n',
    'notes/oncall.txt': 'Page the database owner first.\n',
    'legacy/old.md': '# Old design\n',
    'deploy/staging.tfvars': 'region = "eu-west-2"\n',
    'deploy/prod.tfvars': 'region = "eu-west-1"\n',
    'vendor/docs/guide.md': '# Vendored guide\n',
    'vendor/lib/readme.md': '# Vendored lib\n',
    'big.md': `# Big\n${'x'.repeat(3000)}\n`,
  };

  it('without a config, the defaults apply', async () => {
    const root = tempDir();
    write(root, tree);
    assert.deepEqual(await discovered(root), ['README.md', 'big.md', 'legacy/old.md']);
  });

  it('adds includes and excludes to the defaults, lets allowed files through, and caps size', async () => {
    const root = tempDir();
    write(root, {
      ...tree,
      [WORKSPACE_CONFIG]: JSON.stringify({
        index: {
          include: ['notes/**/*.txt'],
          exclude: ['legacy/**'],
          allow: ['deploy/staging.tfvars', 'vendor/docs/**/*.md'],
          maxFileBytes: 2000,
        },
      }),
    });
    assert.deepEqual(await discovered(root), [
      'README.md',
      'deploy/staging.tfvars',
      'notes/oncall.txt',
      'vendor/docs/guide.md',
    ]);
  });

  it('with defaults off, only the configured globs count; editor settings add to the file', async () => {
    const root = tempDir();
    write(root, { ...tree, [WORKSPACE_CONFIG]: JSON.stringify({ index: { defaults: false, include: ['notes/**'] } }) });
    assert.deepEqual(await discovered(root), ['notes/oncall.txt']);
    assert.deepEqual(await discovered(root, { include: ['legacy/*.md'] }), ['legacy/old.md', 'notes/oncall.txt']);
  });

  it('refuses a bad file with the field at fault and what to do', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /not valid JSON/],
      [[], /must be a JSON object/],
      [{ indx: {} }, /unknown setting\(s\) indx/],
      [{ index: { include: 'docs/**' } }, /index\.include must be a list/],
      [{ index: { exclude: [''] } }, /index\.exclude\[0\] must be a non-empty glob/],
      [{ index: { allow: ['../secrets/*.tfvars'] } }, /must be relative to the workspace/],
      [{ index: { includes: ['x'] } }, /unknown index setting\(s\) includes; known: include/],
      [{ index: { maxFileBytes: -5 } }, /maxFileBytes must be a whole number/],
      [{ index: { defaults: 'no' } }, /defaults must be true or false/],
      [{ index: { defaults: false } }, /nothing would be indexed/],
    ];
    for (const [document, says] of cases) {
      const text = typeof document === 'string' ? document : JSON.stringify(document);
      assert.throws(
        () => parseWorkspaceConfig(text, '/repo/.lore/config.json'),
        (error: Error & { code?: string; hint?: string }) => {
          assert.equal(error.code, 'INVALID_INPUT');
          assert.match(error.message, /^\/repo\/\.lore\/config\.json: /);
          assert.match(error.message, says);
          assert.match(error.hint ?? '', /fix \.lore\/config\.json/);
          return true;
        },
        text,
      );
    }
  });
});
