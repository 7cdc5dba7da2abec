// An embeddings endpoint that closes a kept-alive connection just as the next request arrives (it
// restarted, or timed the idle connection out): the request is asked again on a new connection, so
// recall keeps its vectors instead of turning lexical for one question. Real HTTP on loopback.

import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createEndpointEmbedder, EndpointEmbedder } from '../../../../src/host/embed/endpointEmbedder';

describe('an embedding endpoint that drops a kept-alive connection', () => {
  let server: Server;
  let url: string;
  const perSocket = new Map<Socket, number>();
  let answered = 0;
  before(async () => {
    server = createServer((req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      req.resume();
      req.on('end', () => {
        // A connection answers once: a later request on it finds it closed, with no answer.
        if (n >= 2) return void req.socket.destroy();
        answered++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ model: 'stub', data: [{ index: 0, embedding: [3, 4, 0] }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks again until a new connection answers, and gets every vector', async () => {
    const made = await createEndpointEmbedder({ url, model: 'stub' });
    assert.ok(made instanceof EndpointEmbedder, JSON.stringify(made));
    const embedder: EndpointEmbedder = made;
    // fetch keeps the answered connections for the next requests: each of these meets closed ones first.
    for (let i = 0; i < 5; i++) {
      const vectors: Float32Array[] = await embedder.embed([`question ${i}`]);
      const [vector] = vectors;
      assert.deepEqual(
        Array.from(vector),
        [Math.fround(0.6), Math.fround(0.8), 0],
        "the endpoint's vector, normalised",
      );
    }
    assert.equal(answered, 6, 'the probe and the five questions were answered');
    assert.ok(
      [...perSocket.values()].some((n) => n >= 2),
      'a closed connection was met (the case under test)',
    );
  });
});
