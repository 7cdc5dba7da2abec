// The embedding worker_thread: loads a local model — its tokenizer (@huggingface/tokenizers, the
// library transformers.js's own tokenizers wrap) and its ONNX file in an onnxruntime session —
// and embeds one batch per request, so ONNX inference never runs on the caller's thread. Pooling
// and normalisation are in tokenWindows.ts; texts past the sequence cap are split into windows
// rather than truncated. Only files on disk are read: nothing is ever fetched. Built to
// dist/embedWorker.js, which every caller starts (tests and benches too).
//
// transformers.js itself is not loaded: compiling its 1.4 MB bundle (and the fetch client it pulls
// in) was about a third of a one-shot `lore recall`'s model start-up, for a pipeline of which only
// the tokenizer and the session were used. Its packages still resolve these modules, so the
// versions are the ones it was tested with.
//
// Backends: native onnxruntime-node first; when its binding cannot load (or `backend: 'wasm'`),
// onnxruntime-web's WebAssembly build from node_modules.

import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { Backend, WorkerInit, WorkerMessage, WorkerRequest } from './protocol';
import { loadTokenizer, readModelConfig } from './modelConfig';
import { MeanPool, padBatch, sequenceCap, tokenWindows, windowCalls, type Encoder } from './tokenWindows';

type Ort = typeof import('onnxruntime-common');
type Session = import('onnxruntime-common').InferenceSession;

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function loadsOrWhy(fromTransformers: NodeRequire, name: string): string | undefined {
  try {
    fromTransformers(name);
    return undefined;
  } catch (err) {
    return message(err).split('\n')[0];
  }
}

function loadRuntime(fromTransformers: NodeRequire): { ort: Ort; backend: Backend; fallbackReason?: string } {
  let fallbackReason: string | undefined;
  if (init.backend !== 'wasm') {
    const nativeError =
      loadsOrWhy(fromTransformers, init.nativeModule) ??
      (init.nativeModule === 'onnxruntime-node' ? undefined : `${init.nativeModule} is not onnxruntime-node`);
    if (nativeError === undefined) return { ort: fromTransformers('onnxruntime-node') as Ort, backend: 'native' };
    fallbackReason = `native onnxruntime-node failed to load: ${nativeError}`;
    if (init.backend === 'native') throw new Error(fallbackReason);
  }
  // WebAssembly: onnxruntime-web's Node build with its local .wasm files.
  const ortWeb = fromTransformers('onnxruntime-web') as typeof import('onnxruntime-web');
  ortWeb.env.wasm.wasmPaths = dirname(fromTransformers.resolve('onnxruntime-web')) + '/';
  ortWeb.env.wasm.numThreads = init.threads;
  return { ort: ortWeb as unknown as Ort, backend: 'wasm', fallbackReason };
}

let session: Session;
let ort: Ort;
/** Requests waiting, run one at a time in arrival order. */
const waiting: WorkerRequest[] = [];
let draining = false;
let encoder: Encoder;
let cap = 0;
let withTokenTypes = false;
let pad = 0;
let output = '';

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
    const feeds: Record<string, InstanceType<Ort['Tensor']>> = {
      input_ids: new ort.Tensor('int64', batch.ids, shape),
      attention_mask: new ort.Tensor('int64', batch.mask, shape),
    };
    if (withTokenTypes) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch.ids.length), shape);
    const outputs = await session.run(feeds);
    const hidden = outputs[output];
    pool.add(hidden.data as Float32Array, batch, hidden.dims[hidden.dims.length - 1], call.textOfRow);
    for (const out of Object.values(outputs)) out.dispose();
  }
  return { dims: pool.dims, vectors: pool.finish() };
}

/** The output transformers.js's feature-extraction pipeline reads, in its order of preference. */
const HIDDEN_OUTPUTS = ['last_hidden_state', 'logits', 'token_embeddings'];

async function start(): Promise<void> {
  const started = Date.now();
  const fromTransformers = createRequire(require.resolve('@huggingface/transformers'));
  const runtime = loadRuntime(fromTransformers);
  ort = runtime.ort;
  const folder = `${init.modelRoot}/${init.modelName}`;
  const config = readModelConfig(folder);
  const tokenizer = loadTokenizer(fromTransformers, folder);
  const sessionOptions: Record<string, unknown> =
    runtime.backend === 'native'
      ? { intraOpNumThreads: init.threads, interOpNumThreads: 1, executionMode: 'sequential' as const }
      : { executionProviders: ['wasm'] };
  // Severity 3: errors only, as transformers.js set it (ORT's warnings go to the process's stderr).
  session = await ort.InferenceSession.create(init.modelFile, { logSeverityLevel: 3, ...sessionOptions });
  const found = HIDDEN_OUTPUTS.find((name) => session.outputNames.includes(name));
  if (!found) {
    throw new Error(
      `the ONNX model has none of the outputs ${HIDDEN_OUTPUTS.join(', ')} ` +
        `(it has ${session.outputNames.join(', ')}): it is not a feature-extraction model`,
    );
  }
  output = found;
  encoder = tokenizer.encoder;
  pad = tokenizer.padId;
  cap = sequenceCap(init.maxTokens, Math.min(config.maxPositions, tokenizer.maxLength));
  withTokenTypes = session.inputNames.includes('token_type_ids');
  const { dims } = await embed(['lore']);
  post({
    type: 'ready',
    dims,
    backend: runtime.backend,
    fallbackReason: runtime.fallbackReason,
    sessionOptions,
    maxTokens: cap,
    loadMs: Date.now() - started,
  });
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
