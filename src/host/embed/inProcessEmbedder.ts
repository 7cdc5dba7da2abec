// An Embedder that runs the model on the caller's own thread: for a one-shot process (`lore
// recall`) that embeds its question and exits, and has nothing else to do meanwhile. Starting a
// worker_thread (a second V8 and Node bootstrap, its own copies of the modules) cost about a
// quarter of the model's start-up there. Everything long-lived (the owner, `lore mcp`, the
// editor, an index) keeps the worker, so inference never blocks its event loop.

import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';
import { loadModelSession, type ModelSession } from './modelSession';
import {
  abortError,
  byLength,
  fingerprintOf,
  loadFailure,
  logLoaded,
  modelIdOf,
  planModel,
  type TransformersEmbedderOptions,
} from './transformersEmbedder';

export class InProcessEmbedder implements Embedder {
  readonly dims: number;
  private closed = false;

  constructor(
    readonly modelId: string,
    private readonly session: ModelSession,
    private readonly batchSize: number,
  ) {
    this.dims = session.dims;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = new Array(texts.length);
    const order = byLength(texts);
    for (let at = 0; at < order.length; at += this.batchSize) {
      if (signal?.aborted) throw abortError(signal);
      if (this.closed) throw new Error('the embedder is closed');
      const slot = order.slice(at, at + this.batchSize);
      const { dims, vectors } = await this.session.embed(slot.map((i) => texts[i]));
      slot.forEach((i, j) => (out[i] = vectors.slice(j * dims, (j + 1) * dims)));
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.release();
  }
}

/**
 * Loads a local model on this thread, or says why there is none (the reasons are the worker's:
 * a missing or broken model never throws).
 */
export async function createInProcessEmbedder(
  options: TransformersEmbedderOptions = {},
): Promise<InProcessEmbedder | EmbedderUnavailable> {
  const plan = planModel(options);
  if ('reason' in plan) return plan;
  const fingerprint = await fingerprintOf(plan.model, options);
  if (typeof fingerprint !== 'string') return fingerprint;
  let session: ModelSession;
  try {
    session = await loadModelSession(plan.init);
  } catch (err) {
    return loadFailure(plan.model, err instanceof Error ? err.message : String(err));
  }
  logLoaded(plan, session);
  return new InProcessEmbedder(modelIdOf(plan.model, fingerprint), session, plan.batchSize);
}
