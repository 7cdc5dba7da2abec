// The one settings reader and package.json agree: every `lore.*` setting contributed is read,
// nothing is read that is not contributed, defaults match, and bad values fall back with a reason.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerEnv } from '../../../src/vscode/embedding';
import { MAX_THREADS, readSettings, SETTING_KEYS, type SettingKey } from '../../../src/vscode/settings';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const properties = pkg.contributes.configuration.properties as Record<string, { default: unknown }>;

describe('vscode settings reader', () => {
  it('reads exactly the settings package.json contributes', () => {
    assert.deepEqual(Object.keys(properties).sort(), SETTING_KEYS.map((k) => `lore.${k}`).sort());
    const read = new Set<string>();
    readSettings((key) => void read.add(key));
    assert.deepEqual([...read].sort(), [...SETTING_KEYS].sort());
  });

  it('gives the contributed defaults when nothing is set', () => {
    const fromDefaults = readSettings((key) => properties[`lore.${key}`].default).settings;
    const unset = readSettings(() => undefined).settings;
    assert.deepEqual(fromDefaults, unset);
    assert.deepEqual(unset, {
      dataDir: null,
      index: { include: [], exclude: [], onSave: true },
      embedding: { enabled: true, model: null, modelDir: null, threads: 'auto', endpoint: null },
      drift: { onSave: true, showAlreadyBroken: true },
      codeLens: { enabled: true },
      mcp: { enabled: true, transport: 'http' },
      store: { url: null },
    });
  });

  it('passes set values through, typed', () => {
    const values: Partial<Record<SettingKey, unknown>> = {
      dataDir: '/srv/lore',
      'index.include': ['docs/**/*.md', ' '],
      'index.exclude': ['docs/drafts/**'],
      'embedding.model': 'org/model',
      'embedding.threads': 3,
      'drift.onSave': false,
      'mcp.transport': 'stdio',
    };
    const { settings, problems } = readSettings((key) => values[key]);
    assert.deepEqual(problems, []);
    assert.equal(settings.dataDir, '/srv/lore');
    assert.deepEqual(settings.index.include, ['docs/**/*.md']);
    assert.deepEqual(settings.index.exclude, ['docs/drafts/**']);
    assert.equal(settings.embedding.model, 'org/model');
    assert.equal(settings.embedding.threads, 3);
    assert.equal(settings.drift.onSave, false);
    assert.equal(settings.mcp.transport, 'stdio');
  });

  it('falls back on values it cannot use, and says why for the data dir', () => {
    const values: Partial<Record<SettingKey, unknown>> = {
      dataDir: 'relative/dir',
      'embedding.threads': 99,
      'mcp.transport': 'carrier-pigeon',
      'index.onSave': 'yes',
    };
    const { settings, problems } = readSettings((key) => values[key]);
    assert.equal(settings.dataDir, null);
    assert.match(problems.join('\n'), /lore\.dataDir must be an absolute path; "relative\/dir" is ignored/);
    assert.equal(settings.embedding.threads, MAX_THREADS);
    assert.equal(settings.mcp.transport, 'http');
    assert.equal(settings.index.onSave, true);
  });

  it('defaults the embedding threads to auto, as the engine does, and hands the owner LORE_EMBED_THREADS=auto', () => {
    const fromDefaults = readSettings((key) => properties[`lore.${key}`].default).settings;
    assert.equal(fromDefaults.embedding.threads, 'auto');
    assert.equal(ownerEnv(fromDefaults, '/tmp/lore-home', {}).LORE_EMBED_THREADS, 'auto');
    const two = readSettings((key) => (key === 'embedding.threads' ? 2 : properties[`lore.${key}`].default)).settings;
    assert.equal(ownerEnv(two, '/tmp/lore-home', {}).LORE_EMBED_THREADS, '2');
  });
});
