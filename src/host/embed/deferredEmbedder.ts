// An Embedder for a model that is still loading: its id is known at once (from the model file's
// cached digest), its first embed() waits for the load. A one-shot `lore recall` hands one to the
// engine right away, so opening the store, the lexical search and reading the vector codes run on
// the main thread while the worker loads the model, instead of one after the other. A model that
// fails to load rejects embed() as an unreachable embedder does, and the engine answers lexically.

import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';
import { isEmbedderUnavailable } from './transformersEmbedder';

/** Named as the engine expects of an embedder it cannot use for this call (it then recalls lexically). */
export class EmbedderNotLoaded extends Error {
  override readonly name = 'EmbedderUnreachable';
}

export class DeferredEmbedder implements Embedder {
  private loaded: Embedder | undefined;

  /** `loading` must be the load of the model `modelId` names. */
  constructor(
    readonly modelId: string,
    private readonly loading: Promise<Embedder | EmbedderUnavailable>,
  ) {
    loading.then(
      (e) => (this.loaded = isEmbedderUnavailable(e) ? undefined : e),
      () => {},
    );
  }

  /** 0 until the model has loaded. */
  get dims(): number {
    return this.loaded?.dims ?? 0;
  }

  private async model(): Promise<Embedder> {
    const loaded = await this.loading.catch((error: Error) => ({ reason: error.message }));
    if (isEmbedderUnavailable(loaded)) throw new EmbedderNotLoaded(loaded.reason);
    if (loaded.modelId !== this.modelId)
      throw new EmbedderNotLoaded(`the model changed while it loaded (${this.modelId}, now ${loaded.modelId})`);
    return loaded;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return (await this.model()).embed(texts, signal);
  }

  async close(): Promise<void> {
    const loaded = await this.loading.catch(() => undefined);
    if (loaded && !isEmbedderUnavailable(loaded)) await loaded.close();
  }
}
