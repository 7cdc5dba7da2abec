// The real Embedder: a local model in transformers.js's layout (tokenizer and ONNX model; mean pooling and L2
// normalisation over token windows) in a worker_thread, so ONNX inference never blocks the
// caller's event loop. The texts of one embed() call are sent longest first in batches of
// similar length (padding costs as much as text), two batches ahead, so a call made while a long
// one runs (a recall's query) waits for at most two of its batches; an aborted signal stops the
// work between batches and rejects with an AbortError. Sequences are capped (default 256
// tokens, MiniLM's training length): longer texts are split into windows, never cut off.
//
// The worker file is dist/embedWorker.js next to the bundle, or the project's build of it when
// this module runs from source (tests and benches under tsx, after `npm run build`): production
// code never loads TypeScript. Either way the tokenizer and onnxruntime are loaded from
// node_modules at run time (the bundles keep them external).

import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';
import { silentLogger, type Logger } from '../../engine/ports';
import { preferBundled } from './bundledModel';
import { modelDigest } from './modelDigest';
import { locateModel, type ModelLocation, type ModelSource } from './modelFiles';
import type { Backend, BackendChoice, WorkerInit, WorkerMessage, WorkerRequest } from './protocol';

export interface TransformersEmbedderOptions extends ModelSource {
  /** ONNX Runtime intra-op threads (or WASM threads), or 'auto' (default): autoThreads(). */
  threads?: number | 'auto';
  /** Texts per inference call. Default DEFAULT_BATCH. */
  batchSize?: number;
  /** Sequence cap in tokens (default DEFAULT_MAX_TOKENS, never past the model's positions). */
  maxTokens?: number;
  /**
   * Where the model file's digest is kept between starts (default `<dataDir>/model-digests.json`; none without
   * dataDir).
   */
  digestCache?: string;
  /** 'auto' (default): native onnxruntime-node, WebAssembly when the native binding cannot load. */
  backend?: BackendChoice;
  logger?: Logger;
  /** Called after each batch with the number of texts embedded so far in that embed() call and its total. */
  onBatch?: (done: number, total: number) => void;
  /** For tests: the module to load as the native backend (a missing one forces the WASM fallback). */
  nativeModule?: string;
  /**
   * The process embeds a question or two and exits (a one-shot `lore recall`): one intra-op thread
   * when threads are auto (a thread pool costs CPU on every thread to start), weights not prepacked.
   */
  oneShot?: boolean;
}

/**
 * Texts per inference call, chosen by measurement: on the docs corpus's chunks with the
 * MiniLM-shaped q8 model, batches of 1 gave 92 chunks per CPU-second, 4 gave 70, 8 gave 65 (sorted
 * by length, 256-token windows; bench/embed.ts reports the sweep). Padding is never free and
 * onnxruntime's int8 kernels gain nothing from batching at this size.
 */
export const DEFAULT_BATCH = 1;
/** MiniLM-class models are trained on 256-token sequences; attention costs grow with its square. */
export const DEFAULT_MAX_TOKENS = 256;
/**
 * Batches one embed() call has sent the worker and not had back: with two, the worker starts the
 * next as soon as one ends instead of waiting for this thread to wake and send it (on a loaded
 * machine that wait cost a third of the wall time at batches of 1).
 */
const IN_FLIGHT = 2;
/** More intra-op threads than this stop paying for a model of MiniLM's size. */
const MAX_AUTO_THREADS = 4;

/**
 * Cores − 1 (one left for the editor, the owner and SQLite), at least 1, at most MAX_AUTO_THREADS; 1 when the machine
 * is already busy.
 */
export function autoThreads(cores = availableParallelism(), load = loadavg()[0]): number {
  if (load >= cores) return 1;
  return Math.max(1, Math.min(MAX_AUTO_THREADS, cores - 1));
}

/** Indexes of `texts`, longest first, so each batch pads to a length near its own texts'. */
export function byLength(texts: string[]): number[] {
  return texts.map((_, i) => i).sort((a, b) => texts[b].length - texts[a].length || a - b);
}

export function isEmbedderUnavailable(value: unknown): value is EmbedderUnavailable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as EmbedderUnavailable).reason === 'string' &&
    !('embed' in value)
  );
}

export function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The embedding was cancelled', 'AbortError');
}

/**
 * Starts the worker: dist/embedWorker.js beside the bundle, else — running from source — the
 * project's dist/embedWorker.js (a worker does not inherit the parent's TypeScript loader).
 */
export function startEmbedWorker(init: WorkerInit): Worker {
  // stdout/stderr are piped, never the host's: an MCP stdio server's stdout carries the protocol.
  const options = { workerData: init, stdout: true, stderr: true };
  const bundled = join(__dirname, 'embedWorker.js');
  if (existsSync(bundled)) return new Worker(bundled, options);
  const built = join(__dirname, '..', '..', '..', 'dist', 'embedWorker.js');
  if (existsSync(built)) return new Worker(built, options);
  throw new Error(`no embedding worker at ${bundled} (running from source: npm run build makes ${built})`);
}

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

export class TransformersEmbedder implements Embedder {
  /** `<name>@<dtype>#<first 12 hex digits of the ONNX file's sha256>`. */
  readonly modelId: string;
  readonly dims: number;
  /** The runtime in use: native onnxruntime-node or its WebAssembly build. */
  readonly backend: Backend;
  /** Why the native runtime was not used, when the WebAssembly one was picked for want of it. */
  readonly fallbackReason: string | undefined;
  readonly threads: number;
  readonly model: ModelLocation;
  /** Time to load the model in the worker, in ms. */
  readonly loadMs: number;
  /** The ONNX Runtime session options in use (intraOpNumThreads for the native runtime). */
  readonly sessionOptions: Record<string, unknown>;
  /** The sequence cap in tokens: longer texts are embedded as several windows. */
  readonly maxTokens: number;
  onBatch: ((done: number, total: number) => void) | undefined;

  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private batch_: number;
  private closed = false;
  private exited = false;
  private broken: Error | undefined;

  /** Use createTransformersEmbedder(). */
  constructor(
    private readonly worker: Worker,
    ready: Extract<WorkerMessage, { type: 'ready' }>,
    fingerprint: string,
    model: ModelLocation,
    threads: number,
    batchSize: number,
    private readonly logger: Logger,
  ) {
    this.model = model;
    this.modelId = modelIdOf(model, fingerprint);
    this.dims = ready.dims;
    this.backend = ready.backend;
    this.fallbackReason = ready.fallbackReason;
    this.threads = threads;
    this.batch_ = batchSize;
    this.loadMs = ready.loadMs;
    this.sessionOptions = ready.sessionOptions;
    this.maxTokens = ready.maxTokens;
    this.onBatch = undefined;
    worker.on('message', (m: WorkerMessage) => this.onMessage(m));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      this.exited = true;
      this.fail(new Error(`the embedding worker exited (code ${code})`));
    });
    worker.unref();
  }

  /** Texts per inference call; may be changed between calls. */
  get batchSize(): number {
    return this.batch_;
  }

  set batchSize(size: number) {
    this.batch_ = Math.max(1, Math.floor(size));
  }

  /** Whether the worker thread is still alive (false after close() or a crash). */
  get running(): boolean {
    return !this.exited;
  }

  private onMessage(m: WorkerMessage): void {
    if (m.type !== 'embedded' && m.type !== 'error') return;
    const waiter = this.pending.get(m.id);
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.worker.unref();
    if (!waiter) return; // its caller gave up (aborted)
    if (m.type === 'error') return waiter.reject(new Error(`embedding failed: ${m.message}`));
    const vectors: Float32Array[] = [];
    for (let at = 0; at < m.vectors.length; at += m.dims) vectors.push(m.vectors.slice(at, at + m.dims));
    waiter.resolve(vectors);
  }

  private fail(err: Error): void {
    if (this.closed) return;
    this.broken ??= err;
    this.logger.error(`embedder: ${err.message}`);
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  private batch(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const onAbort = (): void => {
        // The worker finishes this batch; its result is dropped when it arrives.
        this.pending.set(id, { resolve: () => {}, reject: () => {} });
        reject(abortError(signal));
      };
      this.pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.worker.ref();
      this.worker.postMessage({ type: 'embed', id, texts } satisfies WorkerRequest);
    });
  }

  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const run = async (): Promise<Float32Array[]> => {
      const out: Float32Array[] = new Array(texts.length);
      const order = byLength(texts);
      const size = this.batchSize;
      let done = 0;
      const inFlight: Promise<void>[] = [];
      for (let at = 0; at < order.length; at += size) {
        if (signal?.aborted) throw abortError(signal);
        if (this.closed) throw new Error('the embedder is closed');
        if (this.broken) throw this.broken;
        const slot = order.slice(at, at + size);
        const result = this.batch(
          slot.map((i) => texts[i]),
          signal,
        ).then((vectors) => {
          slot.forEach((i, j) => (out[i] = vectors[j]));
          done += slot.length;
          this.onBatch?.(done, texts.length);
        });
        result.catch(() => {}); // awaited below, in order
        inFlight.push(result);
        if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
      }
      for (const result of inFlight) await result;
      return out;
    };
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.closed) return Promise.reject(new Error('the embedder is closed'));
    const result = run();
    // A caller that awaits it later (after close(), say) leaves no unhandled rejection meanwhile.
    result.catch(() => {});
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new Error('the embedder was closed');
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
    await this.worker.terminate();
  }
}

/** The id stored with every vector the model makes: its name, dtype and the ONNX file's digest. */
export function modelIdOf(model: ModelLocation, sha256: string): string {
  return `${model.name}@${model.dtype}#${sha256.slice(0, 12)}`;
}

function digestOf(model: ModelLocation, options: TransformersEmbedderOptions): ReturnType<typeof modelDigest> {
  const cacheFile = options.digestCache ?? (options.dataDir ? join(options.dataDir, 'model-digests.json') : undefined);
  return modelDigest(model.file, cacheFile);
}

/**
 * The id the local model in `options` has, without loading it (from the cached digest, so no
 * hashing on most starts); undefined when there is no such model.
 */
export async function transformersModelId(options: TransformersEmbedderOptions = {}): Promise<string | undefined> {
  const model = locateModel(preferBundled(options));
  if ('reason' in model) return undefined;
  return modelIdOf(model, (await digestOf(model, options)).sha256);
}

/** What loading a local model needs, from the options: where it is and how to run it. */
export interface ModelPlan {
  model: ModelLocation;
  init: WorkerInit;
  threads: number;
  batchSize: number;
  logger: Logger;
}

/** The options turned into a plan for loading the model, or the reason there is no model to load. */
export function planModel(options: TransformersEmbedderOptions): ModelPlan | EmbedderUnavailable {
  const model = locateModel(preferBundled(options));
  if ('reason' in model) return model;
  const auto = options.threads === undefined || options.threads === 'auto';
  const threads = auto ? (options.oneShot ? 1 : autoThreads()) : Math.max(1, Math.floor(options.threads as number));
  const init: WorkerInit = {
    modelRoot: model.root,
    modelName: model.name,
    dtype: model.dtype,
    modelFile: model.file,
    threads,
    backend: options.backend ?? 'auto',
    nativeModule: options.nativeModule ?? 'onnxruntime-node',
    maxTokens: Math.max(8, Math.floor(options.maxTokens ?? DEFAULT_MAX_TOKENS)),
    oneShot: options.oneShot === true,
  };
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH));
  return { model, init, threads, batchSize, logger: options.logger ?? silentLogger };
}

/** Why a model's files did not load (the worker's or the session's own words in `why`). */
export function loadFailure(model: ModelLocation, why: string): EmbedderUnavailable {
  return {
    reason:
      `The embedding model in ${model.folder} (${model.dtype}) could ` +
      `not be loaded: ${why}. Check that the folder holds a complete ` +
      `transformers.js model, or change the model settings; recall ` +
      `stays lexical-only meanwhile.`,
  };
}

/** The model file's digest (the model id's), or why it cannot be read. */
export async function fingerprintOf(
  model: ModelLocation,
  options: TransformersEmbedderOptions,
): Promise<string | EmbedderUnavailable> {
  try {
    return (await digestOf(model, options)).sha256;
  } catch (err) {
    return {
      reason:
        `The model file ${model.file} could not be read: ` +
        `${(err as Error).message}. Check its permissions; recall stays ` +
        `lexical-only meanwhile.`,
    };
  }
}

/** Logs the model that loaded and how it runs. */
export function logLoaded(plan: ModelPlan, loaded: Omit<Extract<WorkerMessage, { type: 'ready' }>, 'type'>): void {
  const { model, logger, threads } = plan;
  if (loaded.fallbackReason) logger.warn(`embedder: using WebAssembly: ${loaded.fallbackReason}`);
  logger.info(
    `embedder: ${model.name} (${model.dtype}, ${loaded.dims} dims) on ` +
      `${loaded.backend}, ${threads} thread(s), ${loaded.maxTokens}-token ` +
      `windows, loaded in ${loaded.loadMs} ms`,
  );
}

/**
 * Starts an embedder for a local model, or says why there is none. Never throws for a missing or
 * broken model: the reason tells the user what to do, and recall stays lexical-only meanwhile.
 */
export async function createTransformersEmbedder(
  options: TransformersEmbedderOptions = {},
): Promise<TransformersEmbedder | EmbedderUnavailable> {
  const plan = planModel(options);
  if ('reason' in plan) return plan;
  const { model, init, threads, batchSize, logger } = plan;
  // Hashed (or read from the cache) on this thread while the worker loads the model.
  const digest = fingerprintOf(model, options);
  let worker: Worker;
  try {
    worker = startEmbedWorker(init);
  } catch (err) {
    return {
      reason:
        `The embedding worker could not start: ${(err as Error).message}. ` +
        `Reinstall Lore (its dist/embedWorker.js or node_modules may be ` +
        `incomplete); recall stays lexical-only meanwhile.`,
    };
  }
  worker.stdout.on('data', (chunk: Buffer) => logger.debug(`embed worker: ${chunk.toString().trimEnd()}`));
  worker.stderr.on('data', (chunk: Buffer) => logger.warn(`embed worker: ${chunk.toString().trimEnd()}`));
  const ready = await new Promise<Extract<WorkerMessage, { type: 'ready' }> | EmbedderUnavailable>((resolve) => {
    const failed = (why: string): void => resolve(loadFailure(model, why));
    const crashed = (why: string): void =>
      resolve({
        reason:
          `The embedding worker stopped while loading ${model.folder}: ` +
          `${why}. Reinstall Lore if this persists ` +
          `(node_modules/@huggingface/transformers and onnxruntime may be ` +
          `incomplete); recall stays lexical-only meanwhile.`,
      });
    worker.once('message', (m: WorkerMessage) =>
      m.type === 'ready' ? resolve(m) : failed(m.type === 'failed' ? m.message : `unexpected ${m.type}`),
    );
    worker.once('error', (err) => crashed(err.message));
    worker.once('exit', (code) => crashed(`it exited with code ${code}`));
  });
  worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
  if ('reason' in ready) {
    await worker.terminate();
    return ready;
  }
  const fingerprint = await digest;
  if (typeof fingerprint !== 'string') {
    await worker.terminate();
    return fingerprint;
  }
  logLoaded(plan, ready);
  const embedder = new TransformersEmbedder(worker, ready, fingerprint, model, threads, batchSize, logger);
  embedder.onBatch = options.onBatch;
  return embedder;
}
