// The editor↔owner settings are one table (host/ownerSettings.ts): the editor writes the owner's
// environment from its settings with the table's names, the owner reads it back with the same
// names, and an error naming a variable reaches the editor as the setting. A name changed on one
// side only fails here.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { embedderSettingsFromEnv } from '../../../src/host/embedSettings';
import { OWNER_SETTINGS } from '../../../src/host/ownerSettings';
import { editorWording } from '../../../src/vscode/editorWording';
import { ownerEnv } from '../../../src/vscode/embedding';
import type { LoreSettings } from '../../../src/vscode/settings';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
const contributed = Object.keys(manifest.contributes.configuration.properties ?? {}).concat(
  ...(Array.isArray(manifest.contributes.configuration)
    ? manifest.contributes.configuration.map((c: { properties: object }) => Object.keys(c.properties))
    : []),
);

function settings(embedding: Partial<LoreSettings['embedding']>): LoreSettings {
  return {
    dataDir: null,
    store: { url: null },
    index: { include: [], exclude: [], onSave: true },
    embedding: { enabled: true, model: null, modelDir: null, threads: 'auto', endpoint: null, ...embedding },
    drift: { onSave: true, showAlreadyBroken: false },
    codeLens: { enabled: true },
    mcp: { enabled: true, transport: 'stdio' },
  } as LoreSettings;
}

describe('the editor↔owner settings table', () => {
  it('names settings the manifest contributes', () => {
    for (const { setting } of Object.values(OWNER_SETTINGS))
      assert.ok(contributed.includes(setting), `${setting} is not in package.json`);
  });

  it('what the editor sets from its settings, the owner reads back as the same settings', () => {
    const local = ownerEnv(settings({ model: 'org/model', modelDir: '/models', threads: 3 }), '/data', {});
    assert.equal(local[OWNER_SETTINGS.dataDir.env], '/data');
    const read = embedderSettingsFromEnv('/data', local) as { modelDir?: string; modelName?: string; threads?: number };
    assert.equal(read.modelDir, '/models');
    assert.equal(read.modelName, 'org/model');
    assert.equal(read.threads, 3);

    const endpoint = { url: 'http://127.0.0.1:9/v1/embeddings', model: 'e5', tokenFile: '/t/token' };
    const remote = embedderSettingsFromEnv('/data', ownerEnv(settings({ endpoint }), '/data', {})) as {
      endpoint?: { url: string; model: string; tokenFile?: string };
    };
    assert.deepEqual(
      { url: remote.endpoint?.url, model: remote.endpoint?.model, tokenFile: remote.endpoint?.tokenFile },
      endpoint,
    );
    assert.equal(embedderSettingsFromEnv('/data', ownerEnv(settings({ enabled: false }), '/data', {})), null);
  });

  it('words each variable of the table as its setting at the editor', () => {
    for (const { env, setting } of Object.values(OWNER_SETTINGS)) {
      const text = env === OWNER_SETTINGS.embeddingEnabled.env ? `set ${env}=off` : `set ${env}`;
      assert.ok(editorWording(text).includes(setting), `${text} → ${editorWording(text)}`);
    }
    assert.equal(editorWording('set LORE_MODEL'), 'set the lore.embedding.model setting');
    assert.equal(editorWording('set LORE_MODEL_DIR'), 'set the lore.embedding.modelDir setting');
  });
});
