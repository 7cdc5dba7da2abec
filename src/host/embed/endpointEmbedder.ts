// An Embedder backed by an OpenAI-compatible `/v1/embeddings` endpoint the team already runs
// (Ollama, llama.cpp's server, vLLM, TEI): POST {model, input: [texts]}, vectors from data[].embedding
// in index order, L2-normalised here. The bearer token is read once from a file or the environment
// by the caller and kept only in memory; it is never logged, stored or put in a reason. Vectors
// carry `endpoint:<model>/<dims>` as their model id, so they are never compared with a local
// model's. An endpoint that does not answer at start is a reason (recall stays lexical); one that
// stops answering later rejects with an EndpointUnreachable error, which recall treats as lexical.

import type { Embedder, EmbedderUnavailable } from '../../engine/embed/embedder';

export interface EndpointSettings {
  /** Base URL (…/v1) or the full …/v1/embeddings URL. */
  url: string;
  /** The model id the endpoint serves (sent as `model`). */
  model: string;
  /** Bearer token, already read from its file or variable. */
  token?: string;
  /** What the person calls the URL setting, for the reasons. */
  urlSetting?: string;
  timeoutMs?: number;
  batchSize?: number;
}

/** The endpoint did not answer (or answered with an error): recall falls back to lexical. */
export class EndpointUnreachable extends Error {
  override readonly name = 'EmbedderUnreachable';
}

export function embeddingsUrl(url: string): URL {
  const parsed = new URL(url);
  if (!/\/embeddings\/?$/.test(parsed.pathname)) parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/embeddings`;
  return parsed;
}

/** The URL as a person may see it: no credentials, no query. */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function normalise(values: number[]): Float32Array {
  const vector = Float32Array.from(values);
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

export class EndpointEmbedder implements Embedder {
  readonly modelId: string;
  readonly dims: number;
  readonly endpoint: string;

  /** Use createEndpointEmbedder(). */
  constructor(
    private readonly url: URL,
    private readonly settings: EndpointSettings,
    served: string,
    dims: number,
  ) {
    this.dims = dims;
    this.modelId = `endpoint:${served}/${dims}`;
    this.endpoint = shown(url);
  }

  /** One POST; rejects with EndpointUnreachable for anything the endpoint did wrong. */
  async post(texts: string[], signal?: AbortSignal): Promise<Embedded> {
    return requestEmbeddings(this.url, this.settings, texts, signal);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const size = Math.max(1, this.settings.batchSize ?? 32);
    const out: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += size) {
      const { vectors } = await this.post(texts.slice(at, at + size), signal);
      for (const v of vectors) {
        if (v.length !== this.dims) {
          throw new EndpointUnreachable(`${this.endpoint} changed its vector length (${v.length}, was ${this.dims})`);
        }
      }
      out.push(...vectors);
    }
    return out;
  }

  async close(): Promise<void> {}
}

interface Embedded {
  model: string;
  vectors: Float32Array[];
}

const LEXICAL = 'Recall is lexical-only meanwhile.';
/** fetch's causes for a pooled connection the other side had closed (undici's, then the system's). */
const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
/** Attempts of one request while the pool hands out closed connections (then the endpoint is down). */
const STALE_ATTEMPTS = 4;

async function requestEmbeddings(
  url: URL,
  s: EndpointSettings,
  texts: string[],
  signal?: AbortSignal,
): Promise<Embedded> {
  const where = shown(url);
  const timeout = AbortSignal.timeout(s.timeoutMs ?? 30_000);
  let response: Response | undefined;
  for (let attempt = 1; !response; attempt++) {
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(s.token ? { authorization: `Bearer ${s.token}` } : {}) },
        body: JSON.stringify({ model: s.model, input: texts }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) {
        throw signal.reason instanceof Error
          ? signal.reason
          : new DOMException('The embedding was cancelled', 'AbortError');
      }
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      // A kept-alive connection the endpoint closed (it restarted, or timed the connection out) fails
      // with no answer; embedding is a pure function of the texts, so asking again is safe. Each failed
      // attempt uses up one such connection of fetch's pool, and the pool opens a new one when none is left.
      if (attempt < STALE_ATTEMPTS && STALE_CONNECTION.has(cause) && !timeout.aborted) continue;
      throw new EndpointUnreachable(`the embedding endpoint ${where} did not answer (${cause})`);
    }
  }
  if (response.status === 401 || response.status === 403) {
    const check = 'check LORE_EMBED_TOKEN_FILE or LORE_EMBED_TOKEN';
    throw new EndpointUnreachable(
      `the embedding endpoint ${where} refused the token (HTTP ${response.status}): ${check}`,
    );
  }
  if (!response.ok) {
    throw new EndpointUnreachable(
      `the embedding endpoint ${where} answered HTTP ${response.status} for model "${s.model}"`,
    );
  }
  let body: { model?: unknown; data?: Array<{ index?: number; embedding?: unknown }> };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new EndpointUnreachable(`the embedding endpoint ${where} did not answer with JSON`);
  }
  const data = Array.isArray(body.data) ? [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : [];
  if (data.length !== texts.length || !data.every((d) => Array.isArray(d.embedding) && d.embedding.length > 0)) {
    const expected = 'OpenAI /v1/embeddings format expected';
    throw new EndpointUnreachable(
      `the embedding endpoint ${where} answered without one embedding per input (${expected})`,
    );
  }
  const model = typeof body.model === 'string' && body.model ? body.model : s.model;
  return { model, vectors: data.map((d) => normalise(d.embedding as number[])) };
}

/** Asks the endpoint once (which also gives the vector length), or says why it cannot be used. */
export async function createEndpointEmbedder(
  settings: EndpointSettings,
): Promise<EndpointEmbedder | EmbedderUnavailable> {
  const name = settings.urlSetting ?? 'the endpoint URL';
  let url: URL;
  try {
    url = embeddingsUrl(settings.url);
  } catch {
    return {
      reason: `The embedding endpoint "${settings.url}" is not a URL: fix ${name} (e.g. http://127.0.0.1:11434/v1). ${LEXICAL}`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { reason: `The embedding endpoint must be http or https: fix ${name}. ${LEXICAL}` };
  }
  if (url.username || url.password) {
    return {
      reason: `Put no credentials in ${name}: give the token in LORE_EMBED_TOKEN_FILE or LORE_EMBED_TOKEN. ${LEXICAL}`,
    };
  }
  if (!settings.model)
    return { reason: `The embedding endpoint needs the model it serves: set LORE_EMBED_MODEL. ${LEXICAL}` };
  try {
    const probe = await requestEmbeddings(url, settings, ['lore endpoint check']);
    return new EndpointEmbedder(url, settings, probe.model, probe.vectors[0].length);
  } catch (error) {
    const why = (error as Error).message.replace(/^the/, 'The');
    return { reason: `${why}: recall is lexical-only until it answers (${name}).` };
  }
}
