// The real embedding path: a generated random-weight BERT, its tokenizer and ONNX session loaded
// inside the worker_thread from files on disk only.

import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { makeTinyModel, type TinyModel } from '../../scripts/makeTinyModel';
import type { EmbedderUnavailable } from '../../src/engine/embed/embedder';
import type { WorkerMessage } from '../../src/host/embed/protocol';
import { createInProcessEmbedder } from '../../src/host/embed/inProcessEmbedder';
import {
  createTransformersEmbedder,
  isEmbedderUnavailable,
  startEmbedWorker,
  TransformersEmbedder,
  type TransformersEmbedderOptions,
} from '../../src/host/embed/transformersEmbedder';
import { tempDir } from '../support/store';

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const TEXTS = Array.from(
  { length: 40 },
  (_, i) => `Runbook ${i}: restart worker ${i * 7} after the deploy of release ${i % 5} failed with error ${i * 13}`,
);

async function embedder(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const e = await createTransformersEmbedder(options);
  if (isEmbedderUnavailable(e)) assert.fail(e.reason);
  return e;
}

function unavailable(result: TransformersEmbedder | EmbedderUnavailable): string {
  assert.ok(isEmbedderUnavailable(result), 'expected EmbedderUnavailable');
  return result.reason;
}

describe('TransformersEmbedder (generated model, real tokenizer and onnxruntime session in a worker)', function () {
  let dir: string;
  let model: TinyModel;
  let e: TransformersEmbedder;

  before(async () => {
    dir = tempDir('lore-embed-');
    model = makeTinyModel(dir, { dtypes: ['fp32', 'q8'] });
    e = await embedder({ modelDir: dir, modelName: model.name, dtype: 'fp32', batchSize: 8 });
  });
  after(async () => {
    await e?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => (e.onBatch = undefined));

  it('loads on the native runtime with one intra-op thread and names the exact model', () => {
    assert.equal(e.backend, 'native');
    assert.equal(e.fallbackReason, undefined);
    assert.equal(e.dims, 32);
    assert.match(e.modelId, /^tiny-bert@fp32#[0-9a-f]{12}$/);
    assert.equal(e.sessionOptions.intraOpNumThreads, 1);
    assert.equal(e.threads, 1);
    assert.equal(e.batchSize, 8);
  });

  it(
    'returns unit vectors of the model size; the same text gives the ' + 'same vector, different texts differ',
    async () => {
      const [a, b, c] = await e.embed([
        'Roll back the Kubernetes deployment',
        'Postgres migration failed at step 3',
        '',
      ]);
      const [again] = await e.embed(['Roll back the Kubernetes deployment']);
      for (const v of [a, b, c]) {
        assert.equal(v.length, 32);
        assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
      }
      assert.deepEqual(again, a);
      assert.ok(cosine(a, b) < 0.99, `cosine ${cosine(a, b)}`);
      assert.ok(cosine(a, c) < 0.99);
    },
  );

  it('embeds 40 texts in batches and returns them in order', async () => {
    const seen: number[] = [];
    e.onBatch = (done) => seen.push(done);
    const all = await e.embed(TEXTS);
    assert.equal(all.length, 40);
    assert.deepEqual(seen, [8, 16, 24, 32, 40]);
    // Each equals the text embedded alone (padding in a batch changes only rounding).
    for (const i of [0, 13, 27, 39]) {
      const [alone] = await e.embed([TEXTS[i]]);
      assert.ok(cosine(all[i], alone) > 0.9999, `text ${i}: ${cosine(all[i], alone)}`);
      if (i > 0) assert.ok(cosine(all[i], all[i - 1]) < 0.9999);
    }
  });

  it('keeps concurrent calls apart and handles empty input and texts beyond 512 tokens', async () => {
    const long = 'deploy '.repeat(2000);
    const [x, y, none] = await Promise.all([e.embed(TEXTS.slice(0, 20)), e.embed([TEXTS[5], long]), e.embed([])]);
    assert.equal(x.length, 20);
    assert.ok(cosine(x[5], y[0]) > 0.9999);
    assert.equal(y[1].length, 32);
    assert.deepEqual(none, []);
  });

  it('stops between batches when aborted, rejects with an AbortError and stays usable', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    e.onBatch = (done) => {
      seen.push(done);
      controller.abort();
    };
    await assert.rejects(e.embed(TEXTS, controller.signal), { name: 'AbortError' });
    assert.deepEqual(seen, [8]);
    e.onBatch = undefined;
    assert.equal((await e.embed(['still works'])).length, 1);
  });

  it('rejects promptly when aborted while a batch is in flight, or before it starts', async () => {
    const early = new AbortController();
    early.abort();
    await assert.rejects(e.embed(TEXTS, early.signal), { name: 'AbortError' });
    const midway = new AbortController();
    const work = e.embed(TEXTS, midway.signal);
    setImmediate(() => midway.abort());
    await assert.rejects(work, { name: 'AbortError' });
    assert.equal((await e.embed(['after abort'])).length, 1);
  });

  it('caps threads as asked: two intra-op threads give the same vectors', async () => {
    const two = await embedder({ modelDir: dir, modelName: model.name, dtype: 'fp32', threads: 2 });
    try {
      assert.equal(two.sessionOptions.intraOpNumThreads, 2);
      assert.equal(two.modelId, e.modelId);
      const [a] = await two.embed([TEXTS[3]]);
      const [b] = await e.embed([TEXTS[3]]);
      assert.ok(cosine(a, b) > 0.99999);
    } finally {
      await two.close();
    }
  });

  it('falls back to WebAssembly when the native runtime cannot load, and says so', async function () {
    const wasm = await embedder({
      modelDir: dir,
      modelName: model.name,
      dtype: 'fp32',
      nativeModule: 'onnxruntime-node-missing-for-test',
    });
    try {
      assert.equal(wasm.backend, 'wasm');
      assert.match(wasm.fallbackReason ?? '', /native onnxruntime-node failed to load/);
      assert.deepEqual(wasm.sessionOptions.executionProviders, ['wasm']);
      const [a] = await wasm.embed([TEXTS[9]]);
      const [b] = await e.embed([TEXTS[9]]);
      assert.ok(cosine(a, b) > 0.9999, `${cosine(a, b)}`);
    } finally {
      await wasm.close();
    }
  });

  it("one-shot, on the caller's thread, gives the worker's vectors for both dtypes, and the same id", async () => {
    const texts = [TEXTS[0], TEXTS[17], '', 'deploy '.repeat(700)];
    for (const dtype of ['fp32', 'q8'] as const) {
      const worker = await embedder({ modelDir: dir, modelName: model.name, dtype, threads: 1 });
      const oneShot = await createInProcessEmbedder({ modelDir: dir, modelName: model.name, dtype, oneShot: true });
      try {
        if (isEmbedderUnavailable(oneShot)) assert.fail(oneShot.reason);
        assert.equal(oneShot.modelId, worker.modelId);
        assert.equal(oneShot.dims, worker.dims);
        const [ours, theirs] = [await oneShot.embed(texts), await worker.embed(texts)];
        for (let i = 0; i < texts.length; i++) {
          const worst = Math.max(...Array.from(theirs[i], (x, d) => Math.abs(x - ours[i][d])));
          assert.ok(worst < 1e-6, `${dtype} text ${i}: largest difference ${worst}`);
        }
      } finally {
        await worker.close();
        if (!isEmbedderUnavailable(oneShot)) await oneShot.close();
      }
    }
  });

  it('picks q8 (onnx/model_quantized.onnx) when no dtype is given and it exists', async () => {
    const q8 = await embedder({ modelDir: model.path });
    try {
      assert.match(q8.modelId, /^tiny-bert@q8#/);
      assert.notEqual(q8.modelId, e.modelId);
      const [a] = await q8.embed([TEXTS[1]]);
      const [b] = await e.embed([TEXTS[1]]);
      assert.ok(cosine(a, b) > 0.99, `${cosine(a, b)}`); // quantised weights, same model
    } finally {
      await q8.close();
    }
  });

  it('runs from an esbuild bundle with dist/embedWorker.js beside it', async () => {
    const out = join(process.cwd(), '.lore-test', `embed-bundle-${process.pid}`);
    mkdirSync(out, { recursive: true });
    try {
      const common = {
        bundle: true,
        platform: 'node' as const,
        target: 'node20',
        format: 'cjs' as const,
        logLevel: 'error' as const,
      };
      const external = [
        '@huggingface/transformers',
        'onnxruntime-node',
        'onnxruntime-web',
        'onnxruntime-common',
        'sharp',
      ];
      await build({ ...common, entryPoints: ['test/support/embedProbe.ts'], outfile: join(out, 'probe.js') });
      await build({
        ...common,
        entryPoints: ['src/host/embed/embedWorker.ts'],
        outfile: join(out, 'embedWorker.js'),
        external,
      });
      const { stdout } = await promisify(execFile)(process.execPath, [join(out, 'probe.js'), model.path, TEXTS[2]], {
        timeout: 30_000,
      });
      const result = JSON.parse(stdout);
      assert.equal(result.backend, 'native', stdout);
      assert.equal(result.modelId, e.modelId);
      const [b] = await e.embed([TEXTS[2]]);
      assert.ok(cosine(result.vectors[0], b) > 0.99999);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('closes, even mid-inference: the worker thread ends and pending and later calls reject', async () => {
    const closing = await embedder({ modelDir: dir, modelName: model.name, dtype: 'fp32', batchSize: 40 });
    assert.equal(closing.running, true);
    const inFlight = closing.embed(TEXTS.map((t) => t.repeat(10)));
    await new Promise((resolve) => setImmediate(resolve)); // the batch has been posted by now
    await closing.close();
    assert.equal(closing.running, false);
    await assert.rejects(inFlight, /closed/);
    await assert.rejects(closing.embed(['x']), /closed/);
    await closing.close(); // idempotent
  });

  describe('without a usable model', () => {
    it('says which folder is missing and which setting to fix', async () => {
      const reason = unavailable(
        await createTransformersEmbedder({ modelDir: join(dir, 'no-such-folder'), modelName: 'tiny-bert' }),
      );
      assert.match(reason, /no-such-folder/);
      assert.match(reason, /modelDir/);
      assert.match(reason, /lexical-only/);
    });

    it('names the default model and where to put it when it is not in the data dir', async () => {
      const reason = unavailable(await createTransformersEmbedder({ dataDir: join(dir, 'lore-home') }));
      assert.match(reason, /Xenova\/all-MiniLM-L6-v2 \(q8\)/);
      assert.ok(reason.includes(join(dir, 'lore-home', 'models')), reason);
    });

    it('lists the files a model folder lacks', async () => {
      const partial = makeTinyModel(join(dir, 'partial'), { name: 'partial-bert' });
      rmSync(join(partial.path, 'tokenizer.json'));
      const reason = unavailable(await createTransformersEmbedder({ modelDir: partial.path }));
      assert.match(reason, /missing tokenizer\.json/);
      const noQ8 = unavailable(await createTransformersEmbedder({ modelDir: partial.path, dtype: 'q8' }));
      assert.match(noQ8, /onnx\/model_quantized\.onnx/);
    });

    it('reports a corrupt ONNX file as a reason, not a crash', async () => {
      const broken = makeTinyModel(join(dir, 'broken'), { name: 'broken-bert' });
      writeFileSync(join(broken.path, 'onnx', 'model.onnx'), 'not a protobuf');
      const reason = unavailable(await createTransformersEmbedder({ modelDir: broken.path, dtype: 'fp32' }));
      assert.match(reason, /could not be loaded/);
    });

    it('never fetches: the worker reads the model from disk only, and names the missing file', async () => {
      const worker: Worker = startEmbedWorker({
        modelRoot: join(dir, 'empty-root'),
        modelName: 'Xenova/all-MiniLM-L6-v2',
        dtype: 'q8',
        modelFile: join(dir, 'empty-root', 'missing.onnx'),
        threads: 1,
        backend: 'native',
        nativeModule: 'onnxruntime-node',
        maxTokens: 256,
      });
      try {
        const first = await new Promise<WorkerMessage>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        });
        assert.equal(first.type, 'failed');
        assert.match(
          (first as { message: string }).message,
          /ENOENT.*empty-root\/Xenova\/all-MiniLM-L6-v2\/config\.json/,
        );
      } finally {
        await worker.terminate();
      }
    });
  });
});
