// Hybrid recall through the built CLI with a real ONNX model (a tiny random-weight BERT generated
// here) loaded by transformers.js in a worker: vectors are made at index time, used at recall, and
// a change of model re-embeds everything instead of comparing vectors of different models.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { storePaths } from '../../src/host/dataDir';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { CLI, sandbox } from '../support/processes';

const FIXTURE = join(__dirname, '..', 'fixtures', 'workspace');

describe('hybrid recall with a local model', () => {
  it('embeds at index time, fuses vectors into recall, and re-embeds when the model changes', () => {
    const box = sandbox();
    cpSync(FIXTURE, box.workspace, { recursive: true });
    const models = join(box.home, '..', 'models');
    mkdirSync(models, { recursive: true });
    makeTinyModel(models, { name: 'tiny-a', seed: 1 });
    makeTinyModel(models, { name: 'tiny-b', seed: 2 });
    const run = (model: string, args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
        env: { ...box.env, LORE_MODEL_DIR: models, LORE_MODEL: model },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };

    const first = run('tiny-a', ['index']);
    assert.match(first.status.model, /^tiny-a@/);
    assert.equal(first.summary.embedded, first.status.chunks);
    assert.equal(first.status.pending, 0);

    const recalled = run('tiny-a', ['recall', 'restart stuck workers']);
    assert.equal(recalled.vectors, true);
    assert.equal(recalled.results[0].path, 'docs/ops/restart-workers.md');
    assert.ok(recalled.results.every((r: { score: { vector?: number } }) => typeof r.score.vector === 'number'));

    const again = run('tiny-a', ['index']);
    assert.equal(again.summary.embedded, 0, 'nothing is re-embedded when nothing changed');

    const switched = run('tiny-b', ['index']);
    assert.match(switched.status.model, /^tiny-b@/);
    assert.equal(switched.summary.embedded, first.status.chunks, 'a new model re-embeds every chunk');
    const db = new WasmSqlDatabase(storePaths(box.workspace, box.home).database);
    try {
      const models = db.all<{ model: string }>('SELECT DISTINCT model FROM chunk_vectors').map((m) => m.model);
      assert.equal(models.length, 1);
      assert.match(models[0], /^tiny-b@/);
    } finally {
      db.close();
    }

    const lexical = spawnSync(
      process.execPath,
      [CLI, '--workspace', box.workspace, '--json', 'recall', 'restart stuck workers'],
      { env: { ...box.env, LORE_EMBED: 'off' }, encoding: 'utf8' },
    );
    assert.equal(JSON.parse(lexical.stdout).vectors, false, 'without a model, recall is lexical and still answers');
    assert.equal(JSON.parse(lexical.stdout).results[0].path, 'docs/ops/restart-workers.md');
  });

  it(
    'a question sharing no word with any record: vector-only ' +
      'candidates with a model, one line on how to get them without',
    () => {
      const box = sandbox();
      cpSync(FIXTURE, box.workspace, { recursive: true });
      const models = join(box.home, '..', 'models');
      mkdirSync(models, { recursive: true });
      makeTinyModel(models, { name: 'tiny-a', seed: 1 });
      const cli = (env: Record<string, string>, args: string[]) => {
        const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, ...args], {
          env: { ...box.env, ...env },
          encoding: 'utf8',
        });
        assert.equal(r.status, 0, r.stderr);
        return r.stdout;
      };
      const withModel = { LORE_MODEL_DIR: models, LORE_MODEL: 'tiny-a' };
      cli(withModel, ['index']);
      const query = 'quixotic flibbertigibbet';
      const vectorOnly = JSON.parse(cli(withModel, ['--json', 'recall', query]));
      assert.equal(vectorOnly.vectors, true);
      assert.ok(vectorOnly.results.length > 0, 'vector-only candidates reach the list');
      assert.ok(
        vectorOnly.results.every(
          (r: { score: { lexical: number; vector?: number } }) => r.score.lexical === 0 && (r.score.vector ?? 0) > 0,
        ),
      );

      const lexicalOnly = cli({ LORE_EMBED: 'off' }, ['recall', query]);
      assert.match(lexicalOnly, /nothing recalled/);
      assert.match(
        lexicalOnly,
        /meaning-based recall is off .*"Lore: Download Embedding Model".*`lore model download`/,
      );
      assert.equal(lexicalOnly.trim().split('\n').length, 2, 'the hint is one line');
    },
  );
});
