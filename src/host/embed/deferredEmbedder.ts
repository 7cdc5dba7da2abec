// An Embedder for a model that is not loaded yet: its id is known at once (from the model file's
// cached digest), and the model loads when the first embed() asks for it. A one-shot `lore recall`
// hands one to the engine right away, so opening the store, the lexical search and reading the
// vector codes come first, and a store without vectors for the model never loads it at all. A
// model that fails to load rejects embed() as an unreachable embedder does, and the engine
// answers lexically.

import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';
import { isEmbedderUnavailable } from './transformersEmbedder';

/** Named as the engine expects of an embedder it cannot use for this call (it then recalls lexically). */
export class EmbedderNotLoaded extends Error {
  override readonly name = 'EmbedderUnreachable';
}

type Load = () => Promise<Embedder | EmbedderUnavailable>;

export class DeferredEmbedder implements Embedder {
  private loaded: Embedder | undefined;
  private loading: Promise<Embedder | EmbedderUnavailable> | undefined;

  /** `load` must load the model `modelId` names; it is called once, by the first embed(). */
  constructor(
    readonly modelId: string,
    private readonly load: Load,
  ) {}

  /** 0 until the model has loaded. */
  get dims(): number {
    return this.loaded?.dims ?? 0;
  }

  private async model(): Promise<Embedder> {
    if (!this.loading) {
      this.loading = this.load();
      this.loading.then(
        (e) => (this.loaded = isEmbedderUnavailable(e) ? undefined : e),
        () => {},
      );
    }
    const loaded = await this.loading.catch((error: Error) => ({ reason: error.message }));
    if (isEmbedderUnavailable(loaded)) throw new EmbedderNotLoaded(loaded.reason);
    if (loaded.modelId !== this.modelId)
      throw new EmbedderNotLoaded(`the model changed while it loaded (${this.modelId}, now ${loaded.modelId})`);
    return loaded;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    return (await this.model()).embed(texts, signal);
  }

  /** Releases the model, if it was ever loaded. */
  async close(): Promise<void> {
    const loaded = await this.loading?.catch(() => undefined);
    if (loaded && !isEmbedderUnavailable(loaded)) await loaded.close();
  }
}
