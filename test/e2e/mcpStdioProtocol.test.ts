// `lore mcp` as a JSON-RPC peer fed bad input on stdin, line by line: garbage, wrong versions,
// bad ids, params that are not objects, messages over the size limit. Each gets its JSON-RPC
// error (with the request's id when it has a readable one), nothing goes unanswered, and the
// server keeps serving (before, an oversized line made it exit 0 and malformed ones got silence).

import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { CLI, sandbox } from '../support/processes';

interface Peer {
  child: ChildProcess;
  /** Writes one line and resolves with the next message the server prints. */
  exchange(line: string): Promise<any>;
}

function startPeer(): Peer {
  const box = sandbox();
  const child = spawn(process.execPath, [CLI, '--workspace', box.workspace, 'mcp'], {
    env: box.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr!.resume();
  const lines: string[] = [];
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(line);
    else lines.push(line);
  });
  child.once('exit', (code) =>
    waiting.splice(0).forEach((w) => w.reject(new Error(`lore mcp exited ${code} before answering`))),
  );
  const next = () =>
    new Promise<string>((resolve, reject) => {
      if (lines.length) return resolve(lines.shift()!);
      if (child.exitCode !== null) return reject(new Error(`lore mcp exited ${child.exitCode}`));
      waiting.push({ resolve, reject });
    });
  return {
    child,
    exchange: async (line) => {
      child.stdin!.write(line + '\n');
      return JSON.parse(await next());
    },
  };
}

const ping = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const BIG = 5 * 1024 * 1024;

describe('lore mcp answers malformed and oversized JSON-RPC on stdio', function () {
  this.timeout(120_000);
  let peer: Peer;
  before(async () => {
    peer = startPeer();
    const init = await peer.exchange(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    assert.equal(init.result.serverInfo.name, 'lore');
    peer.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  });
  after(async () => {
    const exited = once(peer.child, 'exit');
    peer.child.stdin!.end();
    const [code] = await exited;
    assert.equal(code, 0, 'lore mcp ends cleanly when its client closes stdin');
  });

  const cases: Array<[string, string, number, unknown]> = [
    ['not JSON', 'this is not json', -32700, null],
    ['cut-off JSON', '{"jsonrpc":"2.0","id":3,"method":"pi', -32700, null],
    ['an empty batch', '[]', -32600, null],
    ['a batch', `[${ping(4)}]`, -32600, null],
    ['a number', '42', -32600, null],
    ['a string', '"ping"', -32600, null],
    ['jsonrpc 1.0', JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'ping' }), -32600, 7],
    ['no jsonrpc', JSON.stringify({ id: 8, method: 'ping' }), -32600, 8],
    ['a boolean id', ping(true), -32600, null],
    ['a null id', ping(null), -32600, null],
    ['an object id', ping({ a: 1 }), -32600, null],
    ['a numeric method', JSON.stringify({ jsonrpc: '2.0', id: 12, method: 5 }), -32600, 12],
    ['no method and no result', JSON.stringify({ jsonrpc: '2.0', id: 13 }), -32600, 13],
    ['array params', JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: [1, 2] }), -32602, 10],
    [
      'string params',
      JSON.stringify({ jsonrpc: '2.0', id: 'p-11', method: 'tools/list', params: 'x' }),
      -32602,
      'p-11',
    ],
    ['an unknown method', JSON.stringify({ jsonrpc: '2.0', id: 15, method: 'no/such' }), -32601, 15],
    [
      'tools/call without a name',
      JSON.stringify({ jsonrpc: '2.0', id: 14, method: 'tools/call', params: {} }),
      -32602,
      14,
    ],
    [
      'a message over 4 MiB, id last',
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'remember', arguments: { body: 'x'.repeat(BIG), nested: { id: 'not-this' } } },
        id: 17,
      }),
      -32600,
      17,
    ],
    [
      'a message over 4 MiB, id first',
      JSON.stringify({
        id: 'big-18',
        jsonrpc: '2.0',
        method: 'tools/call',
        params: { name: 'remember', arguments: { body: '\u00e9"\\'.repeat(BIG / 4) } },
      }),
      -32600,
      'big-18',
    ],
    ['a line over 4 MiB of garbage', '{'.repeat(BIG), -32600, null],
    [
      // Relayed to an owner, it was re-serialised and overflowed the stack ("restart the MCP server").
      'JSON nested 100,000 levels deep',
      '{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"recall","arguments":{"query":' +
        `${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
      -32600,
      19,
    ],
  ];
  for (const [name, line, code, id] of cases) {
    it(`answers ${name} with ${code}`, async () => {
      const reply = await peer.exchange(line);
      assert.equal(reply.jsonrpc, '2.0');
      assert.equal(reply.error?.code, code, JSON.stringify(reply).slice(0, 500));
      assert.deepEqual(reply.id, id);
      assert.equal(typeof reply.error.message, 'string');
    });
  }

  it('answers nothing to a broken notification, as JSON-RPC says, and serves the next request', async () => {
    peer.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: [1] }) + '\n');
    const pong = await peer.exchange(ping(99));
    assert.deepEqual(pong, { jsonrpc: '2.0', id: 99, result: {} });
  });

  it('still serves tools after all of it', async () => {
    const listed = await peer.exchange(JSON.stringify({ jsonrpc: '2.0', id: 100, method: 'tools/list' }));
    assert.ok(listed.result.tools.some((t: { name: string }) => t.name === 'recall'));
  });
});
