// The owner's /rpc against hostile or broken requests from a token holder, on a real `lore serve`:
// bodies that are not a request, too large (refused before they are read, or cut off unbuffered),
// nested past any request, of the wrong shapes, and a client that hangs up in the middle of a
// streamed indexWorkspace. Each gets a plain error that names what was wrong, the owner logs no
// internal error, and the store answers the next valid call. (Token, Host and Origin refusals are
// in mcp.test.ts and httpGuard.test.ts.)

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../support/processes';

const ACTOR = { door: 'cli', name: 'tester', human: true };
const LIMIT_MIB = 160;

interface Reply {
  status: number;
  body: string;
}

describe('lore serve /rpc refuses hostile requests and keeps serving', () => {
  let box: Sandbox;
  let serve: ServeProcess;
  let port: number;
  let log = '';
  const DOCS = 300;

  before(async () => {
    box = sandbox();
    mkdirSync(join(box.workspace, 'docs'));
    for (let i = 0; i < DOCS; i++)
      writeFileSync(join(box.workspace, 'docs', `d${i}.md`), `# Note ${i}\n\nThe retry policy for queue ${i}.\n`);
    serve = await startServe(box);
    serve.child.stderr!.on('data', (d) => (log += d));
    port = Number(new URL(serve.url).port);
  });
  after(async () => {
    await serve.stop();
  });

  const post = (body: string, headers: Record<string, string> = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/rpc',
          method: 'POST',
          headers: { authorization: `Bearer ${serve.token}`, 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const rpc = (op: string, args: unknown[]) => post(JSON.stringify({ op, args }));
  const errorOf = (reply: Reply) => (JSON.parse(reply.body) as { error: { code: string; message: string } }).error;

  let checks = 0;
  async function storeWorks(): Promise<void> {
    const saved = await rpc('remember', [
      ACTOR,
      {
        type: 'fact',
        title: `Still serving, check ${++checks}`,
        description: 'after a hostile request',
        provenance: { source: 'user' },
      },
    ]);
    assert.equal(saved.status, 200, saved.body);
    const stats = await rpc('stats', []);
    assert.equal(stats.status, 200, stats.body);
    assert.ok(serve.child.exitCode === null, 'the owner is still running');
  }

  it('answers each malformed request with 400 and the reason, before running anything', async () => {
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const cases: Array<[string, string, RegExp]> = [
      ['not JSON', '{"op": "stats", args: []', /^the request body is not JSON \(/],
      ['empty', '', /^the request body must be a JSON object \{ "op"/],
      ['a list', '[{"op":"stats","args":[]}]', /^the request body must be a JSON object/],
      ['no op', '{"args":[]}', /^the request has no "op"$/],
      ['unknown op', '{"op":"dropEverything","args":[]}', /^unknown operation "dropEverything"$/],
      ['a prototype name', '{"op":"constructor","args":[]}', /^unknown operation "constructor"$/],
      ['op not text', '{"op":{"x":1},"args":[]}', /^unknown operation an object$/],
      ['args not a list', '{"op":"stats","args":{}}', /^stats: args must be a list$/],
      ['no actor', '{"op":"forget","args":[null,"fact/x"]}', /^forget: args\[0\] must be the actor \{ door, name/],
      ['actor of the wrong shape', '{"op":"remember","args":["me",{}]}', /^remember: args\[0\] must be the actor/],
      ['a wrong argument type', '{"op":"recall","args":[null]}', /^recall: an argument has the wrong type \(/],
      ['checkpoints not a list', '{"op":"verifyAudit","args":[7]}', /^verifyAudit: an argument has the wrong type/],
      ['deep nesting', `{"op":"remember","args":[${deep(100_000)}]}`, /nests JSON deeper than 64 levels/],
      [
        'deep nesting where an id goes',
        `{"op":"resolveInbox","args":[${JSON.stringify(ACTOR)},${deep(5000)},"accept"]}`,
        /nests JSON deeper than 64 levels/,
      ],
      [
        'indexing with bad globs',
        '{"op":"indexWorkspace","args":[null,{"discovery":{"include":"**/*.md"}}]}',
        /^indexWorkspace: discovery\.include must be a list of glob strings$/,
      ],
      [
        'indexing with options that are not an object',
        '{"op":"indexWorkspace","args":[null,7]}',
        /^indexWorkspace: args\[1\] must be an object/,
      ],
      ['indexing with full not a flag', '{"op":"indexWorkspace","args":[null,{"full":"yes"}]}', /full must be true/],
    ];
    for (const [what, body, why] of cases) {
      const reply = await post(body);
      // A plain JSON error, indexWorkspace's too: its stream of lines starts only for a request that can run.
      assert.equal(reply.status, 400, `${what}: ${reply.body}`);
      assert.equal(errorOf(reply).code, 'INVALID_INPUT', what);
      assert.match(errorOf(reply).message, why, what);
    }
    assert.doesNotMatch(log, /\[lore error\]/, 'no internal error was logged');
    await storeWorks();
  });

  it('reads a JSON null argument as omitted, as in a local call (the engine default applies)', async () => {
    const listed = await rpc('list', [null]);
    assert.equal(listed.status, 200, listed.body);
    assert.equal(typeof JSON.parse(listed.body).result.total, 'number');
  });

  it('refuses a body whose declared length is over the limit before reading any of it', async () => {
    // The 10 GiB are never sent: were the owner waiting for them, this would hang until the test timeout.
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${serve.token}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n{"op":"importBundle"`,
        ),
      );
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(reply, /^HTTP\/1\.1 413 /);
    assert.match(reply, /"code":"LIMIT_EXCEEDED"/);
    assert.match(reply, /the request body is 10737418240 bytes; \/rpc takes at most 160 MiB/);
    await storeWorks();
  });

  it('cuts off a chunked body at the limit instead of buffering all of it', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    // Twice the limit, and never the last chunk: an answer can only come from the limit, not from the body's end.
    // (How much of the rest arrives before the client reads the answer depends on the machine's load.)
    const most = 2 * LIMIT_MIB;
    const { reply, sent } = await new Promise<{ reply: string; sent: number }>((resolve, reject) => {
      let text = '';
      let sent = 0;
      const socket = connect(port, '127.0.0.1');
      const pump = () => {
        while (!text && sent < most) {
          sent++;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', pump);
        }
      };
      socket.on('connect', () => {
        socket.write(
          `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${serve.token}\r\n` +
            'Transfer-Encoding: chunked\r\n\r\n',
        );
        pump();
      });
      socket.on('data', (d) => (text += d));
      socket.on('close', () => (text ? resolve({ reply: text, sent }) : reject(new Error('closed without an answer'))));
      // Writes racing the owner's close fail; the answer read before them is what counts.
      socket.on('error', () => undefined);
    });
    assert.match(reply, /^HTTP\/1\.1 413 /);
    assert.match(reply, /the request body is over 160 MiB, \/rpc's limit/);
    assert.ok(sent > LIMIT_MIB, `the body went past the limit before the answer (${sent} MiB sent)`);
    await storeWorks();
  });

  it('serves others while a client trickles its body, and reads it whole once it ends', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const body = JSON.stringify({ op: 'stats', args: [] });
    socket.write(
      `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${serve.token}\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    let text = '';
    socket.on('data', (d) => (text += d));
    await storeWorks();
    assert.equal(text, '', 'the slow request is not answered before its body is in');
    const answered = new Promise((resolve) => socket.once('data', resolve));
    socket.end(body.slice(5));
    await answered;
    assert.match(text, /^HTTP\/1\.1 200 [\s\S]*"schema_version"/);
    socket.destroy();
  });

  it('keeps serving when a client hangs up in the middle of a streamed indexWorkspace', async () => {
    const lines = await new Promise<string[]>((resolve, reject) => {
      const body = JSON.stringify({ op: 'indexWorkspace', args: [null, { full: true }] });
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/rpc',
          method: 'POST',
          headers: { authorization: `Bearer ${serve.token}`, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let seen = '';
          res.on('data', (d) => {
            seen += d;
            // The first batch is in: hang up with the rest of the run still to come.
            if (/"phase":"index","done":[1-9]/.test(seen)) {
              req.destroy();
              resolve(seen.split('\n').filter(Boolean));
            }
          });
          res.on('end', () => reject(new Error(`the run ended before the client hung up: ${seen}`)));
        },
      );
      req.on('error', () => undefined);
      req.end(body);
    });
    assert.ok(lines.every((l) => 'progress' in JSON.parse(l)));
    await storeWorks();
    const again = await rpc('indexWorkspace', [null, {}]);
    assert.equal(again.status, 200, again.body);
    const last = JSON.parse(again.body.trim().split('\n').pop()!);
    assert.equal(last.result.status.files, DOCS, again.body.slice(-500));
    assert.equal(last.result.summary.cancelled, false);
    assert.doesNotMatch(log, /\[lore error\]/, 'no internal error was logged');
  });
});
