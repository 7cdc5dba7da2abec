// The embedding worker_thread: loads a local model through transformers.js (its tokenizer and
// ONNX model; pooling and normalisation in tokenWindows.ts) and embeds one batch per request, so
// ONNX inference never runs on the caller's thread. Texts past the sequence cap are split into
// windows rather than truncated. Remote models are disabled: the files must
// already be on disk. Built to dist/embedWorker.js, which every caller starts (tests and benches too).
//
// Backends: native onnxruntime-node first; when its binding cannot load (or `backend: 'wasm'`),
// onnxruntime-web's WebAssembly build from node_modules, handed to transformers.js through the
// global it checks for a host-provided runtime.

import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Backend, WorkerInit, WorkerMessage, WorkerRequest } from './protocol';
import { MeanPool, padBatch, sequenceCap, tokenWindows, windowCalls, type Encoder } from './tokenWindows';

type Transformers = typeof import('@huggingface/transformers');

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Requires transformers.js with some of its imports answered by empty modules: onnxruntime-node
 * when another runtime is used (it is required at load even then), and sharp, its image library
 * (text embedding never touches images).
 */
function requireTransformers(fromTransformers: NodeRequire, stubs: string[]): Transformers {
  if (stubs.length === 0) return fromTransformers('@huggingface/transformers') as Transformers;
  const loader = Module as unknown as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
    _cache: Record<string, unknown>;
  };
  for (const name of stubs) {
    const stub = new Module(`lore-stub:${name}`);
    stub.loaded = true;
    stub.exports = {};
    loader._cache[`lore-stub:${name}`] = stub;
  }
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]) {
    return stubs.includes(request) ? `lore-stub:${request}` : resolve.call(this, request, ...rest);
  };
  try {
    return fromTransformers('@huggingface/transformers') as Transformers;
  } finally {
    loader._resolveFilename = resolve;
  }
}

function loadsOrWhy(fromTransformers: NodeRequire, name: string): string | undefined {
  try {
    fromTransformers(name);
    return undefined;
  } catch (err) {
    return message(err).split('\n')[0];
  }
}

function loadRuntime(): { transformers: Transformers; backend: Backend; fallbackReason?: string } {
  const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
  // Text embedding never touches images: sharp (a native image library) is never loaded.
  const stubs = ['sharp'];
  let fallbackReason: string | undefined;
  if (init.backend !== 'wasm') {
    const nativeError =
      loadsOrWhy(fromTransformers, init.nativeModule) ??
      (init.nativeModule === 'onnxruntime-node' ? undefined : `${init.nativeModule} is not onnxruntime-node`);
    if (nativeError === undefined)
      return { transformers: requireTransformers(fromTransformers, stubs), backend: 'native' };
    fallbackReason = `native onnxruntime-node failed to load: ${nativeError}`;
    if (init.backend === 'native') throw new Error(fallbackReason);
  }
  // WebAssembly: onnxruntime-web's Node build with its local .wasm files (transformers.js would
  // otherwise point at a CDN), handed over through the global transformers.js checks for a
  // host-provided runtime.
  const ortWeb = fromTransformers('onnxruntime-web') as typeof import('onnxruntime-web');
  ortWeb.env.wasm.wasmPaths = dirname(fromTransformers.resolve('onnxruntime-web')) + '/';
  ortWeb.env.wasm.numThreads = init.threads;
  (globalThis as Record<symbol, unknown>)[Symbol.for('onnxruntime')] = ortWeb;
  return {
    transformers: requireTransformers(fromTransformers, [...stubs, 'onnxruntime-node']),
    backend: 'wasm',
    fallbackReason,
  };
}

let extractor: FeatureExtractionPipeline;
/** Requests waiting, run one at a time in arrival order. */
const waiting: WorkerRequest[] = [];
let draining = false;
let encoder: Encoder;
let cap = 0;
let withTokenTypes = false;
let pad = 0;
let TensorClass: Transformers['Tensor'];

/**
 * The request's texts, each split into windows of at most `cap` tokens; as many windows per
 * model call as the request has texts (the caller's batch size), longest first.
 */
async function embed(texts: string[]): Promise<{ dims: number; vectors: Float32Array }> {
  const pieces = texts.map((text) => tokenWindows(encoder, text, cap));
  const pool = new MeanPool(texts.length);
  for (const call of windowCalls(pieces, texts.length)) {
    const batch = padBatch(call.windows, pad);
    const shape = [batch.rows, batch.width];
    const feeds: Record<string, unknown> = {
      input_ids: new TensorClass('int64', batch.ids, shape),
      attention_mask: new TensorClass('int64', batch.mask, shape),
    };
    if (withTokenTypes) feeds.token_type_ids = new TensorClass('int64', new BigInt64Array(batch.ids.length), shape);
    type Out = { dims: number[]; data: Float32Array; dispose?(): void };
    const outputs = (await extractor.model(feeds)) as Record<string, Out>;
    const hidden = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
    pool.add(hidden.data, batch, hidden.dims[hidden.dims.length - 1], call.textOfRow);
    for (const out of Object.values(outputs)) out.dispose?.();
  }
  return { dims: pool.dims, vectors: pool.finish() };
}

/** The tokenizer as token windows need it: ids without special tokens, and those tokens. */
function encoderOf(tokenizer: FeatureExtractionPipeline['tokenizer']): Encoder {
  const encode = (text: string, specials: boolean): number[] =>
    tokenizer.encode(text, { add_special_tokens: specials });
  const empty = encode('', true);
  return {
    body: (text) => encode(text, false),
    prefix: empty.length >= 2 ? empty.slice(0, 1) : [],
    suffix: empty.length >= 2 ? empty.slice(1) : empty,
  };
}

async function start(): Promise<void> {
  const started = Date.now();
  const { transformers, backend, fallbackReason } = loadRuntime();
  const { env, LogLevel, pipeline } = transformers;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = init.modelRoot;
  env.useFSCache = false;
  env.logLevel = LogLevel.ERROR;
  const sessionOptions: Record<string, unknown> =
    backend === 'native'
      ? { intraOpNumThreads: init.threads, interOpNumThreads: 1, executionMode: 'sequential' as const }
      : { executionProviders: ['wasm'] };
  extractor = (await pipeline('feature-extraction', init.modelName, {
    dtype: init.dtype as 'fp32',
    // On the WebAssembly runtime, 'auto' keeps transformers.js from insisting on its Node default (cpu).
    ...(backend === 'wasm' ? { device: 'auto' as const } : {}),
    session_options: sessionOptions,
  })) as FeatureExtractionPipeline;
  TensorClass = transformers.Tensor;
  encoder = encoderOf(extractor.tokenizer);
  const positions = (extractor.model.config as { max_position_embeddings?: number }).max_position_embeddings;
  cap = sequenceCap(init.maxTokens, Math.min(positions ?? Infinity, extractor.tokenizer.model_max_length ?? Infinity));
  const probe = extractor.tokenizer('lore') as unknown as Record<string, unknown>;
  withTokenTypes = 'token_type_ids' in probe;
  pad = extractor.tokenizer.pad_token_id ?? 0;
  const { dims } = await embed(['lore']);
  post({ type: 'ready', dims, backend, fallbackReason, sessionOptions, maxTokens: cap, loadMs: Date.now() - started });
}

async function drain(): Promise<void> {
  draining = true;
  for (let request = waiting.shift(); request; request = waiting.shift()) {
    try {
      const { dims, vectors } = await embed(request.texts);
      post({ type: 'embedded', id: request.id, dims, vectors }, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      post({ type: 'error', id: request.id, message: message(err) });
    }
  }
  draining = false;
}

port.on('message', (request: WorkerRequest) => {
  waiting.push(request);
  if (!draining) void drain();
});

start().catch((err) => post({ type: 'failed', message: message(err) }));
