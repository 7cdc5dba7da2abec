// A person's acts need a person (issue 30 point 6), shown with the attacks: a `curl`-style request
// with the token from owner.json that says `human: true` is refused by a real `lore serve`, and a
// script that drives `lore promote` in a pseudo-terminal answering "y" is refused, with an owner
// and without one. A person — here a driver that reads the terminal and types the code it shows,
// as someone at the keyboard does — promotes. What stays possible for a process of the same user
// (that same driver) is written down in docs/security.md.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { CLI, SCRIPT, makeSpace, ok, runCliInTerminal, type CliSpace } from '../support/cli';
import { startServe, type ServeProcess } from '../support/processes';

const KEY = 'fact/redis-is-faster-for-queues';

function quarantine(space: CliSpace): void {
  const r = ok(
    space.lore(
      'remember',
      '--json',
      '--type',
      'fact',
      '--title',
      'Redis is faster for queues',
      '--description',
      'Claimed by a blog post about queues',
      '--source',
      'webpage',
    ),
  );
  assert.equal(r.json.status, 'quarantined');
}

const statusOf = (space: CliSpace) => ok(space.lore('get', KEY, '--json')).json.memory.status as string;

function post(port: number, token: string, path: string, body: unknown): Promise<{ status: number; json: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let out = '';
        res.on('data', (d) => (out += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(out) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Runs the CLI in a pty and, like a person, types back the code the terminal shows (or `answer` if given). */
function personAtTerminal(space: CliSpace, args: string[], answer?: string): Promise<{ code: number; out: string }> {
  const cmd = [process.execPath, CLI, '--workspace', space.workspace, ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child = spawn(SCRIPT, ['-qec', cmd, '/dev/null'], {
    cwd: tmpdir(),
    env: { ...process.env, LORE_HOME: space.home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let typed = false;
  child.stdout.on('data', (d) => {
    out += d;
    const shown = /type this code: (\d{3}) (\d{3})/.exec(out);
    if (shown && !typed && /Type the code shown above/.test(out)) {
      typed = true;
      child.stdin.write(`${answer ?? shown[1] + shown[2]}\n`);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, out })));
}

describe("a person's acts need a person, not the token", () => {
  let space: CliSpace;
  beforeEach(() => {
    space = makeSpace();
    quarantine(space);
  });
  afterEach(() => space.cleanup());

  it('a scripted pty that answers "y" is refused and the record stays quarantined (no owner running)', () => {
    const r = runCliInTerminal(['promote', KEY], { home: space.home, workspace: space.workspace, input: 'y\n' });
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /type this code: \d{3} \d{3}/, 'a code was shown on the terminal');
    assert.match(r.stdout + r.stderr, /the code typed is not the one shown/);
    assert.equal(statusOf(space), 'quarantined');
  });

  it('a person who types the code shown promotes (no owner running)', async () => {
    const r = await personAtTerminal(space, ['promote', KEY]);
    assert.equal(r.code, 0, r.out);
    assert.equal(statusOf(space), 'active');
  });

  describe('with a lore serve owning the store', () => {
    let serve: ServeProcess;
    let port: number;
    beforeEach(async () => {
      serve = await startServe({
        home: space.home,
        workspace: space.workspace,
        env: { ...process.env, LORE_HOME: space.home },
      });
      port = Number(new URL(serve.url).port);
    });
    afterEach(async () => {
      await serve.stop();
    });

    it('refuses a curl-style promote or trust with the owner.json token and human: true', async () => {
      const actor = { door: 'cli', name: 'me', human: true };
      const promote = await post(port, serve.token, '/rpc', { op: 'promote', args: [actor, KEY] });
      assert.equal(promote.status, 400);
      assert.equal(promote.json.error.code, 'HUMAN_ONLY');
      assert.match(promote.json.error.message, /one-time code/);
      const trust = await post(port, serve.token, '/rpc', {
        op: 'trustAuthor',
        args: [actor, 'ed25519:0123456789abcdef'],
      });
      assert.equal(trust.json.error.code, 'HUMAN_ONLY');
      // Asking for a code gives only an id, and only to a terminal device: never to a file, never in the answer.
      const toFile = await post(port, serve.token, '/confirm', {
        op: 'promote',
        args: [actor, KEY],
        channel: { tty: '/tmp/x' },
      });
      assert.equal(toFile.json.error.code, 'HUMAN_ONLY');
      const toNobody = await post(port, serve.token, '/confirm', { op: 'promote', args: [actor, KEY] });
      assert.equal(toNobody.json.error.code, 'HUMAN_ONLY');
      // A guessed code is refused, and the id is then used up.
      const guessed = { id: 'nope', code: '000000' };
      const withGuess = await post(port, serve.token, '/rpc', { op: 'promote', args: [actor, KEY], confirm: guessed });
      assert.equal(withGuess.json.error.code, 'HUMAN_ONLY');
      assert.equal(statusOf(space), 'quarantined');
    });

    it('a scripted pty that answers "y" is refused; a person who types the code promotes', async () => {
      const scripted = runCliInTerminal(['promote', KEY], {
        home: space.home,
        workspace: space.workspace,
        input: 'y\n',
      });
      assert.notEqual(scripted.code, 0);
      assert.match(scripted.stdout, /type this code: \d{3} \d{3}/, 'the owner showed a code on the terminal');
      assert.equal(statusOf(space), 'quarantined');
      const wrong = await personAtTerminal(space, ['promote', KEY], '123 456 7');
      assert.notEqual(wrong.code, 0);
      assert.match(wrong.out, /did not match|without the one-time code/);
      assert.equal(statusOf(space), 'quarantined');
      const person = await personAtTerminal(space, ['promote', KEY]);
      assert.equal(person.code, 0, person.out);
      assert.equal(statusOf(space), 'active');
    });
  });
});
