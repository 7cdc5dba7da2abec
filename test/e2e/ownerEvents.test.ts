// The owner streams what happens to its store at GET /events: a client (the editor, a script) learns
// that data changed, or that files changed on disk were indexed, without watching SQLite's files.
// Only the owner's own token opens the stream (not the MCP token), and a bad event name is a 400
// naming the valid ones. Waits on the stream's own events, never on a timer.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, sandbox, startServe, type Sandbox, type ServeProcess } from '../support/processes';

interface Stream {
  status: number;
  /** Resolves with the next event of this name (events already received count, oldest first). */
  next(name: string): Promise<Record<string, unknown>>;
  body(): Promise<string>;
  close(): void;
}

function openEvents(serve: ServeProcess, token: string, query = ''): Promise<Stream> {
  const base = serve.url.replace(/\/mcp$/, '');
  return new Promise((resolve, reject) => {
    const req = request(`${base}/events${query}`, { headers: { authorization: `Bearer ${token}` } });
    req.once('error', reject);
    req.once('response', (res: IncomingMessage) => {
      const received: Array<Record<string, unknown>> = [];
      const waiting: Array<{ name: string; resolve: (e: Record<string, unknown>) => void }> = [];
      let text = '';
      let pending = '';
      const deliver = () => {
        for (const w of [...waiting]) {
          const at = received.findIndex((e) => e.event === w.name);
          if (at < 0) continue;
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(received.splice(at, 1)[0]);
        }
      };
      const ended = new Promise<string>((done) => res.once('end', () => done(text)));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        pending += chunk;
        const frames = pending.split('\n\n');
        pending = frames.pop() ?? '';
        for (const frame of frames)
          for (const line of frame.split('\n'))
            if (line.startsWith('data: ')) received.push(JSON.parse(line.slice(6)) as Record<string, unknown>);
        deliver();
      });
      resolve({
        status: res.statusCode ?? 0,
        next: (name) =>
          new Promise((resolveEvent) => {
            waiting.push({ name, resolve: resolveEvent });
            deliver();
          }),
        body: () => ended,
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

/** POST /changed (a client's "check these paths now") with `token`; the status and the parsed answer. */
async function postChanged(serve: ServeProcess, token: string, body: unknown, method = 'POST') {
  const base = serve.url.replace(/\/mcp$/, '');
  const response = await fetch(`${base}/changed`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, answer: (await response.json()) as { error?: { message: string } } };
}

function lore(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
    env: box.env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('the owner’s event stream (GET /events)', function () {
  this.timeout(120_000);
  let box: Sandbox;
  let serve: ServeProcess;
  beforeEach(async () => {
    box = sandbox();
    mkdirSync(join(box.workspace, 'docs'), { recursive: true });
    writeFileSync(join(box.workspace, 'docs', 'first.md'), '# First\n\nAbout zebra crossings.\n');
    serve = await startServe(box);
  });
  afterEach(async () => {
    await serve.stop();
  });

  it('tells a client that data changed and that changed files were indexed', async () => {
    const stream = await openEvents(serve, serve.token);
    try {
      assert.equal(stream.status, 200);
      lore(box, ['remember', '--type', 'decision', '--title', 'Queue on Postgres', '--description', 'No broker']);
      await stream.next('data');
      lore(box, ['index']);
      const written = stream.next('indexed');
      writeFileSync(join(box.workspace, 'docs', 'second.md'), '# Second\n\nHow we rotate the flamingo certificates.\n');
      const indexed = await written;
      assert.equal((indexed.summary as { indexed: number }).indexed, 1);
      assert.equal((indexed.status as { files: number }).files, 2);
    } finally {
      stream.close();
    }
  });

  it('opens only with the owner’s token, and names the valid events when asked for another', async () => {
    const withMcpToken = await openEvents(serve, serve.mcpToken);
    assert.equal(withMcpToken.status, 401, 'the MCP token opens /mcp only');
    await withMcpToken.body();
    const bad = await openEvents(serve, serve.token, '?events=data,everything');
    assert.equal(bad.status, 400);
    const said = JSON.parse(await bad.body()) as { error: { message: string; hint: string } };
    assert.match(said.error.message, /unknown event everything/);
    assert.match(said.error.hint, /data, indexed, drift/);
  });

  it('checks drift for the paths a client hints at (POST /changed) and streams what it found', async () => {
    mkdirSync(join(box.workspace, 'scripts'), { recursive: true });
    writeFileSync(join(box.workspace, 'docs', 'rotate.md'), '# Rotate keys\n\nRun `scripts/rotate.sh` and restart.\n');
    writeFileSync(join(box.workspace, 'scripts', 'rotate.sh'), '#!/bin/sh\nvault write -f transit/keys/app/rotate\n');
    lore(box, ['index']);
    const stream = await openEvents(serve, serve.token, '?events=drift');
    try {
      // The script did not change: only the hint makes the owner look, and it says the reference holds.
      const checked = stream.next('drift');
      assert.equal((await postChanged(serve, serve.token, { paths: ['scripts/rotate.sh'] })).status, 202);
      const event = (await checked) as { paths: string[]; findings: unknown[]; current: DriftSeen[] };
      assert.deepEqual(event.paths, ['scripts/rotate.sh']);
      assert.deepEqual(event.findings, []);
      assert.deepEqual(event.current.map(seen), [['current', 'docs/rotate.md', 'scripts/rotate.sh']]);
    } finally {
      stream.close();
    }
  });

  it('takes a hint only with the owner’s token and only for paths inside the workspace', async () => {
    assert.equal((await postChanged(serve, serve.mcpToken, { paths: ['docs/first.md'] })).status, 401);
    const outside = await postChanged(serve, serve.token, { paths: ['docs/first.md', '../elsewhere/secret.txt'] });
    assert.equal(outside.status, 400);
    assert.match(outside.answer.error!.message, /^paths\[1\]: not inside the workspace/);
    const empty = await postChanged(serve, serve.token, { paths: [] });
    assert.equal(empty.status, 400);
    assert.match(empty.answer.error!.message, /^paths: expected a non-empty list/);
    assert.equal((await postChanged(serve, serve.token, undefined, 'GET')).status, 405);
  });
});

type DriftSeen = { state: string; source: { path: string }; reference: { raw: string } };
const seen = (f: DriftSeen) => [f.state, f.source.path, f.reference.raw];
