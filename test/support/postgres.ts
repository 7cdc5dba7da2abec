// A throwaway PostgreSQL cluster for tests: Debian's own binaries (initdb, pg_ctl), a temporary
// directory, a free port on 127.0.0.1, password (SCRAM) authentication over TCP. Nothing stands in
// for the database. initdb refuses to run as root, so under root every server command runs as the
// `postgres` user that Debian's package creates, in a directory handed to it.
// `.ci/run` installs the package when it is absent; here a missing binary is a clear error.

import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCluster {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgresql://user:password@127.0.0.1:port/database */
  url: string;
  dir: string;
  /** Stops the server (fast shutdown: sessions are cut, committed work is kept). */
  stop(): void;
  /** Starts it again on the same port and data directory. */
  start(): void;
  /** Stops it and removes its directory. */
  destroy(): void;
}

/** The newest installed PostgreSQL ≥ 15 server binaries. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((v) => v >= 15)
        .sort((a, b) => b - a)
    : [];
  for (const v of versions) if (existsSync(join(root, String(v), 'bin', 'initdb'))) return join(root, String(v), 'bin');
  throw new Error(
    'PostgreSQL ≥ 15 server binaries not found under /usr/lib/postgresql: ' +
      "install Debian's package (apt-get install -y postgresql), as .ci/run does",
  );
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function serverUser(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Runs a server binary, as `postgres` under root. Throws with its output on failure. */
function runServerCommand(bin: string, args: string[]): void {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(`${bin} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const running = new Set<TestCluster>();
// Whatever a test did, no server outlives the test run: not at exit, nor when the run is
// interrupted or killed by a signal (Ctrl-C, a CI timeout), which skips 'exit'.
const destroyAll = () => {
  for (const cluster of running) cluster.destroy();
};
process.once('exit', destroyAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    destroyAll();
    process.kill(process.pid, signal);
  });
}

export async function startCluster(): Promise<TestCluster> {
  const bin = binDir();
  const owner = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'lore-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwfile, owner.uid, owner.gid);
  const user = 'lore_test';
  runServerCommand(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    user,
    `--pwfile=${pwfile}`,
    '--auth-host=scram-sha-256',
    '--auth-local=trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  rmSync(pwfile);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    // A test cluster: durability against power loss is not what is tested; a clean stop keeps all.
    '-c fsync=off',
    '-c max_connections=60',
  ].join(' ');
  const pgCtl = join(bin, 'pg_ctl');
  const cluster: TestCluster = {
    host: '127.0.0.1',
    port,
    user,
    password,
    database: 'postgres',
    url: `postgresql://${user}:${password}@127.0.0.1:${port}/postgres`,
    dir,
    start: () => runServerCommand(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']),
    stop: () => runServerCommand(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']),
    destroy: () => {
      if (!running.delete(cluster)) return;
      try {
        runServerCommand(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(cluster);
  cluster.start();
  return cluster;
}

let shared: Promise<TestCluster> | undefined;

/** One cluster for every PostgreSQL test file of a run (initdb takes seconds); gone at exit. */
export function sharedCluster(): Promise<TestCluster> {
  shared ??= startCluster();
  return shared;
}

/** A fresh, empty database in the cluster, and its URL: each test file its own. */
export async function freshDatabase(cluster: TestCluster, name: string): Promise<string> {
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url.replace(/\/[^/]*$/, `/${name}`);
}
