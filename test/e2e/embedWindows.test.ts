// Embedding throughput rules on the real pipeline (generated model, its tokenizer and ONNX session in a worker):
// texts past the sequence cap are split into windows, never cut off; short texts get exactly the
// vector transformers.js's own feature-extraction pipeline gives; a call made during a long one
// gets the next turn; the model file is hashed once, then known by its size and mtime.

import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import { readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel, type TinyModel } from '../../scripts/makeTinyModel';
import { loadTokenizer } from '../../src/host/embed/modelConfig';
import { modelDigest } from '../../src/host/embed/modelDigest';
import { MeanPool, padBatch, tokenWindows, windowCalls } from '../../src/host/embed/tokenWindows';
import {
  autoThreads,
  createTransformersEmbedder,
  isEmbedderUnavailable,
  type TransformersEmbedder,
  type TransformersEmbedderOptions,
} from '../../src/host/embed/transformersEmbedder';
import { tempDir } from '../support/store';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
};

async function embedder(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const e = await createTransformersEmbedder(options);
  if (isEmbedderUnavailable(e)) throw new Error(e.reason);
  return e;
}

/** Texts a tokenizer could treat differently: accents, case, CJK, punctuation, emoji, empty. */
const TRICKY_TEXTS = [
  'Roll back the Kubernetes deployment',
  'Postgres migration failed at step 3 of 7',
  '',
  'Café DÉJÀ-vu: naïve résumé — “quoted” text…',
  '数据库迁移失败 at 10:45 UTC',
  'emoji 🚀 and tabs\tand\nnewlines, x=y+z; foo.bar(baz)',
];

describe('embedding windows, turns and the model digest', function () {
  let dir: string;
  let model: TinyModel;
  let e: TransformersEmbedder;

  before(async () => {
    dir = tempDir('lore-windows-');
    model = makeTinyModel(dir, { dtypes: ['fp32'] });
    e = await embedder({ modelDir: dir, modelName: model.name, dtype: 'fp32', threads: 1 });
  });
  after(async () => {
    await e?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('splits ids into windows of at most the cap, each wrapped in the special tokens, losing none', () => {
    const encoder = { body: (t: string) => t.split(' ').map(Number), prefix: [101], suffix: [102] };
    const windows = tokenWindows(encoder, '1 2 3 4 5 6 7 8 9 10 11', 6);
    assert.deepEqual(windows, [
      [101, 1, 2, 3, 4, 102],
      [101, 5, 6, 7, 8, 102],
      [101, 9, 10, 11, 102],
    ]);
    assert.deepEqual(tokenWindows({ ...encoder, body: () => [] }, '', 6), [[101, 102]]);
  });

  it("runs each window as a row of its own, longest first, never padding a text's last window to the cap", () => {
    const w = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
    // Text 0 is split into windows of 256 and 40 tokens; text 1 is one window of 120.
    const calls = windowCalls([[w(256), w(40)], [w(120)]], 1);
    assert.deepEqual(
      calls.map((c) => [c.windows.map((x) => x.length), c.textOfRow]),
      [
        [[256], [0]],
        [[120], [1]],
        [[40], [0]],
      ],
    );
    const two = windowCalls([[w(256), w(40)], [w(120)]], 2);
    assert.deepEqual(
      two.map((c) => c.windows.map((x) => x.length)),
      [[256, 120], [40]],
      'at most as many rows per call as the batch size, grouped by length',
    );
  });

  it('pools a text whose windows fall in different calls into the mean over all its tokens', () => {
    const dims = 2;
    const pool = new MeanPool(2);
    // Call 1: text 0's first window (2 tokens) and text 1 (1 token, padded to 2).
    pool.add(new Float32Array([1, 0, 3, 0, 0, 5, 9, 9]), padBatch([[7, 7], [7]], 0), dims, [0, 1]);
    // Call 2: text 0's second window (1 token).
    pool.add(new Float32Array([2, 0]), padBatch([[7]], 0), dims, [0]);
    const out = pool.finish();
    assert.deepEqual([...out.subarray(0, 2)], [1, 0], 'text 0: mean (2, 0) normalised');
    assert.deepEqual([...out.subarray(2, 4)], [0, 1], 'text 1: the padding row is not counted');
  });

  it("caps sequences at 256 tokens by default and never past the model's positions", async () => {
    assert.equal(e.maxTokens, 256);
    const wide = await embedder({ modelDir: dir, modelName: model.name, dtype: 'fp32', threads: 1, maxTokens: 4000 });
    try {
      assert.equal(wide.maxTokens, 512, 'the generated model has 512 positions');
    } finally {
      await wide.close();
    }
  });

  it('embeds what comes after the cap: texts that differ only past token 512 get different vectors', async () => {
    const opening = 'deploy the service then restart the worker '.repeat(120); // ~840 tokens
    const [a, b, again] = await e.embed([
      `${opening} rollback postgres migration`.repeat(1),
      `${opening} kubernetes secret token rotation`,
      `${opening} rollback postgres migration`,
    ]);
    assert.ok(cosine(a, b) < 0.99999, `a cut-off text would give the same vector: cosine ${cosine(a, b)}`);
    assert.ok(cosine(a, again) > 0.99999);
  });

  it('gives a long text the same vector alone and in a batch with others', async () => {
    const long = 'deploy the service then restart the worker '.repeat(90);
    const [alone] = await e.embed([long]);
    const before = e.batchSize;
    e.batchSize = 4;
    try {
      const [, inBatch] = await e.embed(['a short chunk', long, 'another one about postgres', 'x']);
      assert.ok(cosine(alone, inBatch) > 0.9999, `cosine ${cosine(alone, inBatch)}`);
    } finally {
      e.batchSize = before;
    }
  });

  it("gives a text within the cap the vector of transformers.js's own feature-extraction pipeline", async () => {
    const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
    const transformers = fromTransformers('@huggingface/transformers') as typeof import('@huggingface/transformers');
    transformers.env.allowRemoteModels = false;
    transformers.env.localModelPath = dir;
    const pipe = await transformers.pipeline('feature-extraction', model.name, { dtype: 'fp32' });
    try {
      const ours = await e.embed(TRICKY_TEXTS);
      for (let i = 0; i < TRICKY_TEXTS.length; i++) {
        const theirs = (await pipe([TRICKY_TEXTS[i]], { pooling: 'mean', normalize: true })).data as Float32Array;
        const worst = Math.max(...Array.from(theirs, (x, d) => Math.abs(x - ours[i][d])));
        assert.ok(worst < 1e-6, `text ${i}: largest difference ${worst}`);
      }
    } finally {
      await pipe.dispose();
    }
  });

  it("tokenizes as transformers.js's tokenizer does: same ids, same special tokens, same pad id", async () => {
    const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
    const transformers = fromTransformers('@huggingface/transformers') as typeof import('@huggingface/transformers');
    transformers.env.allowRemoteModels = false;
    transformers.env.localModelPath = dir;
    const theirs = await transformers.AutoTokenizer.from_pretrained(model.name);
    const ours = loadTokenizer(fromTransformers, model.path);
    for (const text of TRICKY_TEXTS) {
      assert.deepEqual(ours.encoder.body(text), theirs.encode(text, { add_special_tokens: false }), text);
      const wrapped = [...ours.encoder.prefix, ...ours.encoder.body(text), ...ours.encoder.suffix];
      assert.deepEqual(wrapped, theirs.encode(text), text);
    }
    assert.equal(ours.padId, theirs.pad_token_id);
    assert.equal(ours.maxLength, theirs.model_max_length);
  });

  it('a call made while a long one runs gets the next turn, not the end of the queue', async () => {
    const texts = Array.from({ length: 30 }, (_, i) => `chunk ${i} about the release pipeline and its cache`);
    const order: string[] = [];
    let queried: Promise<void> | undefined;
    e.onBatch = (done) => {
      if (done === 1 && !queried) queried = e.embed(['how do we roll back']).then(() => void order.push('query'));
    };
    try {
      await e.embed(texts).then(() => order.push('index'));
      await queried;
    } finally {
      e.onBatch = undefined;
    }
    assert.deepEqual(order, ['query', 'index']);
  });

  it('threads auto: cores − 1, at least 1, at most 4, and 1 on a machine already busy', () => {
    assert.equal(autoThreads(2, 0.1), 1);
    assert.equal(autoThreads(4, 0.5), 3);
    assert.equal(autoThreads(16, 1), 4);
    assert.equal(autoThreads(8, 9), 1);
    assert.equal(autoThreads(1, 0), 1);
  });

  it('hashes the model file once, then knows it by size and mtime until either changes', async () => {
    const file = join(model.path, 'onnx', 'model.onnx');
    const cache = join(dir, 'home', 'model-digests.json');
    const first = await modelDigest(file, cache);
    assert.equal(first.hashed, true);
    assert.match(first.sha256, /^[0-9a-f]{64}$/);
    const second = await modelDigest(file, cache);
    assert.deepEqual(second, { sha256: first.sha256, hashed: false });
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    assert.equal((await modelDigest(file, cache)).hashed, true, 'a new mtime is hashed again');
    assert.equal(Object.keys(JSON.parse(readFileSync(cache, 'utf8'))).length, 1);

    // Through the embedder: its model id carries the digest, read from the cache in the data dir.
    const home = join(dir, 'data');
    const a = await embedder({ modelDir: dir, modelName: model.name, dtype: 'fp32', threads: 1, dataDir: home });
    await a.close();
    assert.ok(a.modelId.endsWith(first.sha256.slice(0, 12)), a.modelId);
    const recorded = JSON.parse(readFileSync(join(home, 'model-digests.json'), 'utf8')) as Record<
      string,
      { sha256: string }
    >;
    assert.equal(Object.values(recorded)[0].sha256, first.sha256);
  });
});
