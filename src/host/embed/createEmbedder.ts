// The one place a host turns embedding settings into an Embedder, or into the reason there is
// none (then recall is lexical-only and status says why).

import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';
import { readFileSync } from 'node:fs';
import { createEndpointEmbedder, type EndpointSettings } from './endpointEmbedder';
import { createInProcessEmbedder } from './inProcessEmbedder';
import { createTransformersEmbedder, type TransformersEmbedderOptions } from './transformersEmbedder';

export interface EmbedderSettings extends TransformersEmbedderOptions {
  /** 'transformers' (default): a local ONNX model in a worker.
   *  'endpoint': an OpenAI-compatible /v1/embeddings endpoint (`endpoint`). */
  provider?: 'transformers' | 'endpoint';
  /** For the endpoint provider; the token comes from `tokenFile` (read here) or `token`. */
  endpoint?: Omit<EndpointSettings, 'token'> & { tokenFile?: string; token?: string; tokenFileSetting?: string };
}

export async function createEmbedder(settings: EmbedderSettings = {}): Promise<Embedder | EmbedderUnavailable> {
  if (settings.provider === 'endpoint' && settings.endpoint) {
    const { tokenFile, tokenFileSetting, ...endpoint } = settings.endpoint;
    let token = endpoint.token;
    if (tokenFile) {
      try {
        token = readFileSync(tokenFile, 'utf8').trim();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
        const fix = tokenFileSetting ?? 'the token file setting';
        return {
          reason:
            `The embedding endpoint's token file ${tokenFile} cannot be read ` +
            `(${code}): fix ${fix}. Recall is lexical-only meanwhile.`,
        };
      }
    }
    return createEndpointEmbedder({ ...endpoint, token: token || undefined });
  }
  if (settings.provider !== undefined && settings.provider !== 'transformers') {
    return {
      reason: `Unknown embedding provider "${settings.provider}": use "transformers" (a local model) or "endpoint".`,
    };
  }
  // A one-shot process has nothing else to do while its question is embedded: no worker.
  return settings.oneShot ? createInProcessEmbedder(settings) : createTransformersEmbedder(settings);
}

export { DEFAULT_DTYPE, DEFAULT_MODEL, modelsDir } from './modelFiles';
export { isEmbedderUnavailable } from './transformersEmbedder';
