// A loaded embedding model: a local model's tokenizer (@huggingface/tokenizers, the library
// transformers.js's own tokenizers wrap) and its ONNX file in an onnxruntime session, and the
// call that turns texts into unit vectors (token windows, mean pooling and normalisation in
// tokenWindows.ts). Texts past the sequence cap are split into windows rather than truncated.
// Only files on disk are read: nothing is ever fetched. The embedding worker runs one
// (embedWorker.ts); a one-shot process may run one on its own thread (inProcessEmbedder.ts).
//
// transformers.js itself is not loaded: compiling its 1.4 MB bundle (and the fetch client it pulls
// in) was about a third of a one-shot `lore recall`'s model start-up, for a pipeline of which only
// the tokenizer and the session were used. Its package still resolves these modules, so the
// versions are the ones it was tested with.
//
// Backends: native onnxruntime-node first; when its binding cannot load (or `backend: 'wasm'`),
// onnxruntime-web's WebAssembly build from node_modules.

import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Backend, WorkerInit } from './protocol';
import { loadTokenizer, readModelConfig } from './modelConfig';
import { MeanPool, padBatch, sequenceCap, tokenWindows, windowCalls } from './tokenWindows';

type Ort = typeof import('onnxruntime-common');

export interface ModelSession {
  dims: number;
  backend: Backend;
  /** Why the native runtime was not used, when the WebAssembly one was picked for want of it. */
  fallbackReason?: string;
  /** The ONNX Runtime session options in use. */
  sessionOptions: Record<string, unknown>;
  /** The sequence cap in use (the one asked for, within the model's positions). */
  maxTokens: number;
  loadMs: number;
  /**
   * The texts' vectors, row after row: each text split into windows of at most maxTokens
   * tokens, as many windows per model call as there are texts, longest first.
   */
  embed(texts: string[]): Promise<{ dims: number; vectors: Float32Array }>;
  /** Frees the session's memory. */
  release(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function loadsOrWhy(from: NodeRequire, name: string): string | undefined {
  try {
    from(name);
    return undefined;
  } catch (err) {
    return message(err).split('\n')[0];
  }
}

function loadRuntime(from: NodeRequire, init: WorkerInit): { ort: Ort; backend: Backend; fallbackReason?: string } {
  let fallbackReason: string | undefined;
  if (init.backend !== 'wasm') {
    const nativeError =
      loadsOrWhy(from, init.nativeModule) ??
      (init.nativeModule === 'onnxruntime-node' ? undefined : `${init.nativeModule} is not onnxruntime-node`);
    if (nativeError === undefined) return { ort: from('onnxruntime-node') as Ort, backend: 'native' };
    fallbackReason = `native onnxruntime-node failed to load: ${nativeError}`;
    if (init.backend === 'native') throw new Error(fallbackReason);
  }
  // WebAssembly: onnxruntime-web's Node build with its local .wasm files.
  const ortWeb = from('onnxruntime-web') as typeof import('onnxruntime-web');
  ortWeb.env.wasm.wasmPaths = dirname(from.resolve('onnxruntime-web')) + '/';
  ortWeb.env.wasm.numThreads = init.threads;
  return { ort: ortWeb as unknown as Ort, backend: 'wasm', fallbackReason };
}

/** The output transformers.js's feature-extraction pipeline reads, in its order of preference. */
const HIDDEN_OUTPUTS = ['last_hidden_state', 'logits', 'token_embeddings'];

/** Loads the model `init` names; rejects with what went wrong (a missing file, a broken ONNX file...). */
export async function loadModelSession(init: WorkerInit): Promise<ModelSession> {
  const started = Date.now();
  // The modules transformers.js depends on, as its package resolves them.
  const from = createRequire(require.resolve('@huggingface/transformers'));
  const { ort, backend, fallbackReason } = loadRuntime(from, init);
  const folder = `${init.modelRoot}/${init.modelName}`;
  const config = readModelConfig(folder);
  const tokenizer = loadTokenizer(from, folder);
  const sessionOptions: Record<string, unknown> =
    backend === 'native'
      ? { intraOpNumThreads: init.threads, interOpNumThreads: 1, executionMode: 'sequential' as const }
      : { executionProviders: ['wasm'] };
  // Prepacking lays the weights out again for faster inference: it pays over an index's thousands
  // of chunks, not for a one-shot process's single question (about a tenth of the session's start).
  if (init.oneShot) sessionOptions.extra = { session: { disable_prepacking: '1' } };
  // Severity 3: errors only, as transformers.js set it (ORT's warnings go to the process's stderr).
  const session = await ort.InferenceSession.create(init.modelFile, { logSeverityLevel: 3, ...sessionOptions });
  const output = HIDDEN_OUTPUTS.find((name) => session.outputNames.includes(name));
  if (!output) {
    await session.release().catch(() => undefined);
    throw new Error(
      `the ONNX model has none of the outputs ${HIDDEN_OUTPUTS.join(', ')} ` +
        `(it has ${session.outputNames.join(', ')}): it is not a feature-extraction model`,
    );
  }
  const { encoder, padId } = tokenizer;
  const cap = sequenceCap(init.maxTokens, Math.min(config.maxPositions, tokenizer.maxLength));
  const withTokenTypes = session.inputNames.includes('token_type_ids');

  const embed = async (texts: string[]): Promise<{ dims: number; vectors: Float32Array }> => {
    const pieces = texts.map((text) => tokenWindows(encoder, text, cap));
    const pool = new MeanPool(texts.length);
    for (const call of windowCalls(pieces, texts.length)) {
      const batch = padBatch(call.windows, padId);
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
  };
  // A model that loads but cannot embed (wrong inputs, a broken graph) frees its session before saying so.
  const { dims } = await embed(['lore']).catch(async (error: unknown) => {
    await session.release().catch(() => undefined);
    throw error;
  });
  const release = () => session.release();
  return {
    dims,
    backend,
    fallbackReason,
    sessionOptions,
    maxTokens: cap,
    loadMs: Date.now() - started,
    embed,
    release,
  };
}
