// The embedding worker_thread: loads a local model through the transformers.js
// feature-extraction pipeline (mean pooling, L2 normalisation) and embeds one batch per request,
// so ONNX inference never runs on the caller's thread. Remote models are disabled: the files must
// already be on disk. Built to dist/embedWorker.js; run from source under tsx in tests.
//
// Backends: native onnxruntime-node first; when its binding cannot load (or `backend: 'wasm'`),
// onnxruntime-web's WebAssembly build from node_modules, handed to transformers.js through the
// global it checks for a host-provided runtime.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Backend, WorkerInit, WorkerMessage, WorkerRequest } from './protocol';

type Transformers = typeof import('@huggingface/transformers');

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

const NATIVE_STUB = 'lore:onnxruntime-node-not-loaded';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Loads transformers.js on the WebAssembly runtime, without ever loading the native binding. */
function loadWithWasm(fromTransformers: NodeRequire): Transformers {
  const ortWeb = fromTransformers('onnxruntime-web') as typeof import('onnxruntime-web');
  // Local files, never the CDN transformers.js would otherwise point at.
  ortWeb.env.wasm.wasmPaths = dirname(fromTransformers.resolve('onnxruntime-web')) + '/';
  ortWeb.env.wasm.numThreads = init.threads;
  (globalThis as Record<symbol, unknown>)[Symbol.for('onnxruntime')] = ortWeb;
  // transformers.js requires onnxruntime-node at load even when told to use another runtime;
  // answer that require with an empty module so a broken native binding cannot fail the load.
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string; _cache: Record<string, unknown> };
  const stub = new Module(NATIVE_STUB);
  stub.loaded = true;
  stub.exports = {};
  loader._cache[NATIVE_STUB] = stub;
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'onnxruntime-node' ? NATIVE_STUB : resolve.call(this, request, ...rest);
  };
  try {
    return fromTransformers('@huggingface/transformers') as Transformers;
  } finally {
    loader._resolveFilename = resolve;
  }
}

function loadRuntime(): { transformers: Transformers; backend: Backend; fallbackReason?: string } {
  const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
  if (init.backend === 'wasm') return { transformers: loadWithWasm(fromTransformers), backend: 'wasm' };
  let nativeError: string;
  try {
    fromTransformers(init.nativeModule); // loads the native binding, or throws
    if (init.nativeModule !== 'onnxruntime-node') throw new Error(`${init.nativeModule} is not onnxruntime-node`);
    return { transformers: fromTransformers('@huggingface/transformers') as Transformers, backend: 'native' };
  } catch (err) {
    nativeError = message(err).split('\n')[0];
  }
  if (init.backend === 'native') throw new Error(`native onnxruntime-node failed to load: ${nativeError}`);
  return { transformers: loadWithWasm(fromTransformers), backend: 'wasm', fallbackReason: `native onnxruntime-node failed to load: ${nativeError}` };
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

let extractor: FeatureExtractionPipeline;
/** Requests run one at a time, in arrival order. */
let queue: Promise<void> = Promise.resolve();

async function embed(texts: string[]): Promise<{ dims: number; vectors: Float32Array }> {
  const output = await extractor(texts, { pooling: 'mean', normalize: true });
  const dims = output.dims[output.dims.length - 1];
  const vectors = new Float32Array(output.data as Float32Array); // a copy we own, to transfer
  output.dispose();
  return { dims, vectors };
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
  const fingerprint = sha256(init.modelFile);
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
  const { dims } = await embed(['lore']);
  post({ type: 'ready', dims, backend, fallbackReason, fingerprint: await fingerprint, sessionOptions, loadMs: Date.now() - started });
}

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    try {
      const { dims, vectors } = await embed(request.texts);
      post({ type: 'embedded', id: request.id, dims, vectors }, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      post({ type: 'error', id: request.id, message: message(err) });
    }
  });
});

start().catch((err) => post({ type: 'failed', message: message(err) }));
