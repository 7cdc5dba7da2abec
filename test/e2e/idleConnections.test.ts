// Unauthenticated loopback connections cannot starve the owner of file descriptors: each must
// show the token within UNAUTHENTICATED_GRACE_MS or it is closed, and at most MAX_UNAUTHENTICATED
// wait at once (more are closed on arrival). Before, the owner kept each idle connection for
// 85 s, and a local user who opened enough of them made every Lore command fail or, worse, exit 0.

import { strict as assert } from 'node:assert';
import { connect, type Socket } from 'node:net';
import { MAX_UNAUTHENTICATED, startHttpServer, type RunningHttpServer } from '../../src/host/httpServer';
import type { StoreAccess } from '../../src/mcp/access';

const TOKEN = 'a'.repeat(64);
const IDLE = 300;

function idleSocket(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('idle unauthenticated connections to the owner', function () {
  this.timeout(30_000);
  let server: RunningHttpServer;
  before(async () => {
    const access: StoreAccess = {
      use: () => Promise.reject(new Error('no store in this test')),
      describe: () => ({ state: 'closed' }) as unknown as ReturnType<StoreAccess['describe']>,
    };
    server = await startHttpServer({
      access,
      workspaceRoot: () => null,
      token: TOKEN,
      logger: { debug() {}, info() {}, warn() {}, error() {} } as never,
    });
  });
  after(() => server.close());

  it(`closes ${IDLE} idle connections, holds at most ${MAX_UNAUTHENTICATED}, serves the token`, async () => {
    const idle = await Promise.all(Array.from({ length: IDLE }, () => idleSocket(server.port)));
    assert.ok(
      server.unauthenticatedCount() <= MAX_UNAUTHENTICATED,
      `${server.unauthenticatedCount()} connections wait for a token at once`,
    );
    // Every one is closed by the owner (the test's timeout is the only clock; before, they stayed 85 s).
    await Promise.all(idle.map((s) => s.closed));
    const health = await fetch(`${server.url}/health`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(health.status, 200, 'a client with the token is served after the flood');
  });

  it('closes the connection of a request with a wrong token after its 401', async () => {
    const { socket, closed } = await idleSocket(server.port);
    let reply = '';
    socket.on('data', (d) => (reply += d));
    socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer wrong\r\n\r\n`);
    await closed;
    assert.match(reply, /^HTTP\/1.1 401/);
    assert.match(reply, /connection: close/i);
  });
});
