// A real OpenAI-compatible embeddings server for tests: POST /v1/embeddings computes vectors with
// the generated ONNX model through transformers.js (the same pipeline Lore runs locally), on
// loopback. It can require a bearer token and records the Authorization headers it was sent.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createTransformersEmbedder,
  isEmbedderUnavailable,
  type TransformersEmbedder,
} from '../../src/host/embed/transformersEmbedder';

export interface EmbedServer {
  url: string;
  authorizations: Array<string | undefined>;
  requests: number;
  stop(): Promise<void>;
}

export async function startEmbedServer(modelFolder: string, options: { token?: string } = {}): Promise<EmbedServer> {
  const made = await createTransformersEmbedder({ modelDir: modelFolder });
  if (isEmbedderUnavailable(made)) throw new Error(made.reason);
  const embedder: TransformersEmbedder = made;
  const state = { authorizations: [] as Array<string | undefined>, requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      state.requests++;
      state.authorizations.push(req.headers.authorization);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return reply(404, { error: { message: 'not found' } });
      if (options.token && req.headers.authorization !== `Bearer ${options.token}`)
        return reply(401, { error: { message: 'bad token' } });
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string | string[] };
        const input = Array.isArray(body.input) ? body.input : [body.input];
        const vectors = await embedder.embed(input);
        reply(200, {
          object: 'list',
          model: body.model,
          data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: Array.from(v) })),
        });
      } catch (error) {
        reply(400, { error: { message: (error as Error).message } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get authorizations() {
      return state.authorizations;
    },
    get requests() {
      return state.requests;
    },
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await embedder.close();
    },
  };
}
