// The Embedder port: turns texts into unit-length vectors with one model. The engine never
// compares vectors made by different models, so every vector is stored with `modelId`.

export interface Embedder {
  /** Identifies the model and its settings (e.g. "Xenova/all-MiniLM-L6-v2@q8"); stored with every vector. */
  readonly modelId: string;
  /** Vector length. */
  readonly dims: number;
  /** Embeds texts in order; vectors are L2-normalised. Rejects with an AbortError when `signal` aborts. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Releases the model (and its worker thread, if any). */
  close(): Promise<void>;
}

/** Why no embedder is available: lexical search still works, and status says this. */
export interface EmbedderUnavailable {
  reason: string;
}
