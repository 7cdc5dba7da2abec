// No command reports success it did not have. A stand-in owner that accepts loopback connections
// and drops them (what an owner out of file descriptors does) or accepts and never answers (a
// stopped owner) must make every command that needs the store exit non-zero with a clear line,
// never exit 0 having printed and done nothing. Before the fix, the health check's only pending
// work was an unref'd timer, so Node exited 0 with nothing left to run.

import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { runCliAsync, makeSpace, ok, type CliSpace } from '../support/cli';

type Behaviour = 'drop' | 'silent';

function standInOwner(behaviour: Behaviour): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (behaviour === 'drop') socket.destroy();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port, sockets }),
    ),
  );
}

describe('no silent success against an owner that does not answer', function () {
  this.timeout(120_000);
  let live: ChildProcess;
  let space: CliSpace;
  before(async () => {
    // A live process stands for the owner's pid, so the lock is not taken over as a dead one's.
    live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.stdout.write("ready\\n")'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise((resolve) => live.stdout!.once('data', resolve));
    space = makeSpace('lore-silent-');
    ok(space.lore('remember', '--type', 'decision', '--title', 'Use spaces', '--description', 'Spaces.'));
  });
  after(() => {
    live.kill('SIGKILL');
    space.cleanup();
  });

  for (const behaviour of ['drop', 'silent'] as Behaviour[]) {
    it(`remember, list, doctor and audit verify exit non-zero with a clear line (owner: ${behaviour})`, async () => {
      const { server, port, sockets } = await standInOwner(behaviour);
      try {
        const paths = space.paths();
        mkdirSync(paths.dir, { recursive: true });
        writeFileSync(
          paths.owner,
          JSON.stringify({
            pid: live.pid,
            host: hostname(),
            port,
            token: 'e'.repeat(64),
            door: 'stand-in',
            started_at: new Date().toISOString(),
          }),
          { mode: 0o600 },
        );
        const commands = [
          ['remember', '--type', 'decision', '--title', 'Use tabs', '--description', 'Tabs everywhere.'],
          ['list'],
          ['doctor'],
          ['audit', 'verify'],
        ];
        const results = await Promise.all(
          commands.map((args) => runCliAsync(args, { home: space.home, workspace: space.workspace })),
        );
        results.forEach((result, i) => {
          const what = `lore ${commands[i].join(' ')}`;
          assert.notEqual(result.code, 0, `${what} exited 0\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
          // doctor reports on stdout, line by line; the others say it on stderr.
          const said = `${result.stderr}\n${result.stdout}`;
          assert.match(
            said,
            /^(lore: |FAIL open: ).*(in use|did not answer|cannot reach)/m,
            `${what} says why: ${said}`,
          );
        });
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }
});
