// The version has one source, package.json: the CLI's `--version`, MCP's server info and SARIF's tool
// driver read it through LORE_VERSION, and the plugin manifests Claude Code reads (static JSON that
// cannot import it) must state the same one, so a release bump that misses one fails here.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LORE_VERSION } from '../../src/engine';
import { SERVER_VERSION } from '../../src/mcp/server';

const ROOT = join(__dirname, '../..');
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const { version } = read('package.json') as { version: string };

describe('the version is read from package.json', () => {
  it('the engine, the CLI and MCP state package.json’s version', () => {
    assert.equal(LORE_VERSION, version);
    assert.equal(SERVER_VERSION, version);
  });

  it('the Claude Code plugin and its marketplace entry state the same version', () => {
    assert.equal(read('plugins/lore/.claude-plugin/plugin.json').version, version);
    const entries = read('.claude-plugin/marketplace.json').plugins as { name: string; version: string }[];
    assert.deepEqual(
      entries.map((p) => [p.name, p.version]),
      [['lore', version]],
    );
  });
});
