// `lore recall` with a local model, as a one-shot process: it answers from the packed sign codes
// the first search wrote; with a live owner (`lore serve`) the owner's model answers and the CLI
// loads none; a model that fails to load after its id was known leaves the answer lexical; the
// one-shot process embeds on its own thread, loading its tokenizer and onnxruntime (not
// transformers.js), and only when the store has vectors for the model.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { storePaths } from '../../src/host/dataDir';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { CLI, sandbox, startServe, type Sandbox } from '../support/processes';

const FIXTURE = join(__dirname, '..', 'fixtures', 'workspace');
/** Lists the scripts and WebAssembly files a process reads, worker threads included. */
const TRACE = join(__dirname, '..', 'support', 'traceWasmLoads.cjs');
const QUERY = 'restart stuck workers';

interface Recalled {
  vectors: boolean;
  results: Array<{ path?: string; key?: string; score: { vector?: number } }>;
}

function setUp(): { box: Sandbox; withModel: NodeJS.ProcessEnv; noModel: NodeJS.ProcessEnv; onnx: string } {
  const box = sandbox();
  cpSync(FIXTURE, box.workspace, { recursive: true });
  const models = join(box.home, '..', 'models');
  mkdirSync(models, { recursive: true });
  const model = makeTinyModel(models, { name: 'tiny-a', seed: 1 });
  return {
    box,
    withModel: { ...box.env, LORE_MODEL_DIR: models, LORE_MODEL: 'tiny-a' },
    // Settings naming a folder with no model in it: this process can load none.
    noModel: { ...box.env, LORE_MODEL_DIR: join(box.home, '..', 'no-models'), LORE_MODEL: 'tiny-a' },
    onnx: join(model.path, 'onnx', 'model.onnx'),
  };
}

function cli(box: Sandbox, env: NodeJS.ProcessEnv, args: string[]): unknown {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
    env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const answers = (r: Recalled) => r.results.map((hit) => hit.path ?? hit.key);

function codePages(box: Sandbox): number {
  const db = new WasmSqlDatabase(storePaths(box.workspace, box.home).database);
  try {
    return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vector_code_pages')!.n;
  } finally {
    db.close();
  }
}

describe('lore recall with a local model, one process at a time', () => {
  it('answers from the packed codes; through a live owner it loads no model and gives the same hits', async () => {
    const { box, withModel, noModel } = setUp();
    cli(box, withModel, ['index']);
    assert.equal(codePages(box), 0, 'indexing writes vectors, and any write to them drops the pages');

    const first = cli(box, withModel, ['recall', QUERY]) as Recalled;
    assert.equal(first.vectors, true);
    assert.equal(first.results[0].path, 'docs/ops/restart-workers.md');
    assert.equal(codePages(box), 1, 'the first search wrote the codes as pages');
    const again = cli(box, withModel, ['recall', QUERY]) as Recalled;
    assert.deepEqual(answers(again), answers(first), 'read from the pages, the same answers');

    const owner = await startServe({ ...box, env: withModel });
    try {
      // The owner prints where it listens before its model has loaded: wait until it has one.
      for (let i = 0; ; i++) {
        const doctor = cli(box, noModel, ['doctor']) as { stats: { index: { model: string | null } } };
        if (doctor.stats.index.model?.startsWith('tiny-a@')) break;
        assert.ok(i < 200, 'the owner loads its model');
        await delay(100);
      }
      const viaOwner = cli(box, noModel, ['recall', QUERY]) as Recalled;
      assert.equal(viaOwner.vectors, true, "the owner's model embedded the question");
      assert.deepEqual(answers(viaOwner), answers(first));
      const vectorScores = (r: Recalled) => r.results.map((hit) => hit.score.vector?.toFixed(6));
      assert.deepEqual(vectorScores(viaOwner), vectorScores(first));
    } finally {
      assert.equal(await owner.stop(), 0);
    }
    const alone = cli(box, noModel, ['recall', QUERY]) as Recalled;
    assert.equal(alone.vectors, false, 'without the owner, these settings give no model');
    assert.equal(alone.results[0].path, 'docs/ops/restart-workers.md');
  });

  it('embeds the question on its own thread (no worker), loading neither transformers.js nor its image library', () => {
    const { box, withModel } = setUp();
    cli(box, withModel, ['index']);
    const trace = join(box.home, '..', 'trace.txt');
    const r = cli(box, { ...withModel, NODE_OPTIONS: `--require ${TRACE}`, LORE_TRACE_WASM: trace }, [
      'recall',
      QUERY,
    ]) as Recalled;
    assert.equal(r.vectors, true);
    const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    const from = (part: string) => loaded.filter((f) => f.includes(part));
    assert.ok(from('/@huggingface/tokenizers/').length > 0, `the tokenizer: ${loaded.join(', ')}`);
    assert.ok(from('/onnxruntime-node/').length > 0, `onnxruntime: ${loaded.join(', ')}`);
    assert.deepEqual(from('/@huggingface/transformers/'), []);
    assert.deepEqual(from('/sharp/'), []);
    assert.deepEqual(from('/onnxruntime-web/'), []);
    assert.deepEqual(from('embedWorker.js'), [], 'a one-shot recall starts no embedding worker');
  });

  it('loads no model when the store has no vectors for it', () => {
    const { box, withModel } = setUp();
    cli(box, { ...box.env, LORE_EMBED: 'off' }, ['index']);
    const trace = join(box.home, '..', 'trace.txt');
    const r = cli(box, { ...withModel, NODE_OPTIONS: `--require ${TRACE}`, LORE_TRACE_WASM: trace }, [
      'recall',
      QUERY,
    ]) as Recalled;
    assert.equal(r.vectors, false);
    assert.equal(r.results[0].path, 'docs/ops/restart-workers.md');
    const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(
      loaded.filter((f) => f.includes('/onnxruntime') || f.includes('/@huggingface/')),
      [],
    );
  });

  it('a model that fails to load after its id came from the cached digest leaves the answer lexical', () => {
    const { box, withModel, onnx } = setUp();
    cli(box, withModel, ['index']);
    // Damaged in place, with the size and mtime the digest cache recorded: the id is the one the
    // vectors carry, and the load fails.
    const { size, atime, mtime } = statSync(onnx);
    writeFileSync(onnx, Buffer.alloc(size, 7));
    utimesSync(onnx, atime, mtime);
    assert.equal(readFileSync(onnx).length, size);
    const r = cli(box, withModel, ['recall', QUERY]) as Recalled;
    assert.equal(r.vectors, false);
    assert.equal(r.results[0].path, 'docs/ops/restart-workers.md');
  });
});
