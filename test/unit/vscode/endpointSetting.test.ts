// The editor's embeddings-endpoint settings: read only when a URL is set, machine-scoped (a
// workspace's .vscode/settings.json cannot send the repository's text to another server), and
// restricted in untrusted workspaces.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSettings } from '../../../src/vscode/settings';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const properties = pkg.contributes.configuration.properties as Record<string, { scope: string }>;

describe('vscode embedding endpoint settings', () => {
  it('are read only when a URL is set', () => {
    const values: Record<string, string> = {
      'embedding.endpoint.url': ' http://127.0.0.1:11434/v1 ',
      'embedding.endpoint.model': 'nomic-embed-text',
    };
    assert.deepEqual(readSettings((key) => values[key]).settings.embedding.endpoint, {
      url: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      tokenFile: null,
    });
    assert.equal(
      readSettings((key) => (key === 'embedding.endpoint.model' ? 'x' : undefined)).settings.embedding.endpoint,
      null,
    );
  });

  it('cannot be set by a workspace', () => {
    for (const key of ['url', 'model', 'tokenFile'])
      assert.equal(properties[`lore.embedding.endpoint.${key}`].scope, 'machine');
    const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.ok(
      restricted.includes('lore.embedding.endpoint.url') && restricted.includes('lore.embedding.endpoint.tokenFile'),
    );
  });
});
