// The owner's HTTP door against other sites and careless clients: a request whose Host or Origin
// is not this loopback server is refused with 403 before its token is looked at (DNS rebinding,
// cross-site posts); sessions clients never end are freed; and `lore serve --host` takes only an
// address the other Lore processes reach, checked by parsing it.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import {
  CLI,
  ownerFile,
  sandbox,
  startServe,
  stdioAgent,
  text,
  type Sandbox,
  type ServeProcess,
} from '../support/processes';

interface Reply {
  status: number;
  body: string;
  session?: string;
}

function post(port: number, path: string, headers: Record<string, string>, body: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(data),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            session: res.headers['mcp-session-id'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `client-${id}`, version: '1' } },
});
const remember = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'remember',
    arguments: { type: 'fact', title: 'Planted by another site', description: 'should never land' },
  },
};

function cli(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, ...args], {
    env: box.env,
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('lore serve refuses other sites (Host and Origin)', () => {
  let box: Sandbox;
  let serve: ServeProcess;
  let port: number;
  before(async () => {
    box = sandbox();
    serve = await startServe(box);
    port = Number(new URL(serve.url).port);
  });
  after(async () => {
    await serve.stop();
  });

  it('answers 403 to a rebound Host or a foreign Origin, with the right token, and writes nothing', async () => {
    const auth = { authorization: `Bearer ${serve.token}` };
    const hostile: Array<Record<string, string>> = [
      { host: `evil.example:${port}` },
      { host: `127.0.0.1.evil.example:${port}` },
      { host: `127.0.0.1:${port + 1}` },
      { origin: 'http://evil.example' },
      { origin: `http://evil.example:${port}` },
      { origin: 'null' },
      { origin: `http://localhost:${port + 1}` },
      { origin: `https://127.0.0.1:${port}` },
    ];
    for (const headers of hostile) {
      for (const path of ['/mcp', '/rpc', '/health']) {
        const reply = await post(
          port,
          path,
          { ...auth, ...headers },
          path === '/rpc' ? { op: 'stats', args: [] } : initialize(1),
        );
        assert.equal(reply.status, 403, `${path} with ${JSON.stringify(headers)}: ${reply.body}`);
        assert.match(reply.body, /refused: (Host|Origin)/);
      }
    }
    assert.equal(JSON.parse(cli(box, ['--json', 'list']).stdout).total, 0);
  });

  it('serves its own origin and clients that send none', async () => {
    const own: Array<Record<string, string>> = [
      {},
      { origin: `http://127.0.0.1:${port}` },
      { origin: `http://localhost:${port}`, host: `localhost:${port}` },
    ];
    for (const headers of own) {
      const init = await post(port, '/mcp', { authorization: `Bearer ${serve.mcpToken}`, ...headers }, initialize(1));
      assert.equal(init.status, 200, `${JSON.stringify(headers)}: ${init.body}`);
      assert.ok(init.session);
    }
    const cross = await post(
      port,
      '/mcp',
      { authorization: `Bearer ${serve.mcpToken}`, origin: 'http://evil.example' },
      remember,
    );
    assert.equal(cross.status, 403);
  });

  it(
    'frees sessions nobody ends: after 1,000 initialize calls the ' +
      'oldest is gone, the newest and a relayed agent work',
    async () => {
      const agent = await stdioAgent(box, 'long-lived-agent');
      try {
        assert.ok(!(await agent.call('context')).isError);
        const auth = { authorization: `Bearer ${serve.mcpToken}` };
        const sessions: string[] = [];
        for (let i = 0; i < 1000; i++) {
          const reply = await post(port, '/mcp', auth, initialize(i));
          assert.equal(reply.status, 200, reply.body);
          sessions.push(reply.session!);
        }
        const call = (session: string) =>
          post(
            port,
            '/mcp',
            { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
            { jsonrpc: '2.0', id: 9, method: 'tools/list' },
          );
        const oldest = await call(sessions[0]);
        assert.equal(oldest.status, 404, 'the oldest idle session was freed');
        assert.match(oldest.body, /unknown session; initialize again/);
        assert.equal((await call(sessions[999])).status, 200);
        // The agent's relay lost its session too; it initializes again by itself and the call works.
        const after = await agent.call('remember', {
          type: 'fact',
          title: 'Still connected',
          description: 'after the session was freed',
        });
        assert.equal(after.isError, undefined, text(after));
      } finally {
        await agent.close();
      }
    },
  );
});

describe('lore serve --host takes only an address every Lore process reaches', () => {
  for (const [args, why] of [
    [
      ['--host', '127.0.0.2'],
      /--host 127\.0\.0\.2 would make the store unreachable: every other Lore process .* connects to the owner at 127\.0\.0\.1/,
    ],
    [['--host', '::1'], /--host ::1 would make the store unreachable/],
    [['--host', '127.evil.example'], /refusing to listen on 127\.evil\.example: Lore serves loopback only/],
    [
      ['--host', '192.0.2.7', '--allow-remote'],
      /--host 192\.0\.2\.7 would make the store unreachable[\s\S]*--host 0\.0\.0\.0 or --host ::/,
    ],
    [['--host', 'example.invalid', '--allow-remote'], /--host example\.invalid is not an IP address/],
  ] as const) {
    it(`refuses ${args.join(' ')} and takes no lock`, () => {
      const box = sandbox();
      const r = cli(box, ['serve', ...args]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, why);
      assert.ok(!existsSync(ownerFile(box)));
    });
  }

  it('serves on localhost at the address the others connect to', async () => {
    const box = sandbox();
    const serve = await startServe(box, ['--host', 'localhost']);
    try {
      assert.match(serve.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const listed = cli(box, ['--json', 'list']);
      assert.equal(listed.code, 0, listed.stderr);
    } finally {
      await serve.stop();
    }
  });
});
