// The one place a host turns embedding settings into an Embedder, or into the reason there is
// none (then recall is lexical-only and status says why).

import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';
import { HashEmbedder } from './hashEmbedder';
import { createTransformersEmbedder, type TransformersEmbedderOptions } from './transformersEmbedder';

export interface EmbedderSettings extends TransformersEmbedderOptions {
  /** 'transformers' (default): a local ONNX model in a worker. 'hash': feature hashing, only when configured. */
  provider?: 'transformers' | 'hash';
  /** Vector length for the hash provider. Default 256. */
  hashDims?: number;
}

export async function createEmbedder(settings: EmbedderSettings = {}): Promise<Embedder | EmbedderUnavailable> {
  if (settings.provider === 'hash') return new HashEmbedder(settings.hashDims ?? 256);
  if (settings.provider !== undefined && settings.provider !== 'transformers') {
    return { reason: `Unknown embedding provider "${settings.provider}": use "transformers" (a local model) or "hash".` };
  }
  return createTransformersEmbedder(settings);
}

export { DEFAULT_DTYPE, DEFAULT_MODEL, modelsDir } from './modelFiles';
export { isEmbedderUnavailable } from './transformersEmbedder';
