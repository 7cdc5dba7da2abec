// The shared store at scale (issue 28, point 8), standalone while it grows into bench/run.ts:
//
//   npx tsx bench/pgScale.ts [--quick] [--memories N] [--repos R] [--clients C] [--recalls Q]
//
// Starts its own PostgreSQL (test/support/postgres.ts), then C client processes, each an engine on
// the shared store (its own key and local file), save N memories spread over R repositories; then
// one engine per sampled repository recalls Q questions. Reports saves per second (wall, and the
// clients' CPU seconds), and recall p50/p99 (wall, and the caller's CPU per recall). Wall figures
// on a shared machine need an idle re-run. --quick: 400 memories, 4 repositories, 4 clients.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../src/engine';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { parsePostgresSettings } from '../src/host/store/postgres/connectionSettings';
import { openPostgresMemoryStore } from '../src/host/store/postgres/postgresMemoryStore';
import { freshDatabase, startCluster } from '../test/support/postgres';
import { tempDir } from '../test/support/store';

const WORDS = [
  'queue',
  'postgres',
  'certificate',
  'rotation',
  'ingress',
  'terraform',
  'cache',
  'deploy',
  'backup',
  'failover',
  'token',
  'kubernetes',
  'logging',
  'alerts',
  'migration',
  'replica',
  'gateway',
  'pool',
  'batch',
  'vault',
];

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const remoteOf = (r: number) => `https://example.invalid/scale/repo-${r}.git`;

/** A client: saves its share of memories to one repository; prints its CPU seconds. */
function client(): void {
  const { url, repos, count, id } = JSON.parse(process.argv[3]) as {
    url: string;
    repos: number;
    count: number;
    id: number;
  };
  // A client writes to one repository (clients share repositories when there are fewer of them).
  const shared = openPostgresMemoryStore(parsePostgresSettings(url), remoteOf(id % repos), 'bench');
  const engine = new Engine({ db: new WasmSqlDatabase(join(tempDir('lore-scale-'), 'lore.db')), memoryStore: shared });
  for (let i = 0; i < count; i++) {
    const w = (k: number) => WORDS[(id * 31 + i * 7 + k * 13) % WORDS.length];
    engine.remember(
      { door: 'cli', name: `client-${id}` },
      {
        type: 'decision',
        title: `${w(0)} ${w(1)} note ${id}-${i}`,
        description: `How the ${w(2)} and the ${w(3)} work together`,
        body: `Client ${id} record ${i}: ${w(4)} ${w(5)} ${w(6)}.`,
        provenance: { source: 'user', client: 'bench' },
      },
    );
  }
  const cpu = process.cpuUsage();
  process.stdout.write(JSON.stringify({ cpu: (cpu.user + cpu.system) / 1e6 }));
  shared.close();
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export interface PgScaleOptions {
  memories: number;
  repos: number;
  clients: number;
  recalls: number;
}

export interface PgScaleResult extends PgScaleOptions {
  saves_per_second_wall: number;
  client_cpu_ms_per_save: number;
  recall_ms_wall: { p50: number; p99: number };
  recall_cpu_ms_caller: { p50: number; p99: number };
  /** Per recall (ms), for the bench's figures. */
  walls: number[];
  cpus: number[];
}

export function pgScaleOptions(quick: boolean): PgScaleOptions {
  return {
    memories: arg('memories', quick ? 400 : 100_000),
    repos: arg('repos', quick ? 4 : 50),
    clients: arg('clients', quick ? 4 : 8),
    recalls: arg('recalls', quick ? 40 : 200),
  };
}

/** Starts its own cluster, runs the clients' saves and the recalls, and removes the cluster. */
export async function measurePgScale(options: PgScaleOptions): Promise<PgScaleResult> {
  const { memories, repos, clients, recalls } = options;
  const cluster = await startCluster();
  try {
    const url = `${await freshDatabase(cluster, 'lore_scale')}?connect_timeout=60`;
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: clients }, (_, id) => {
        const options = JSON.stringify({ url, repos, count: Math.ceil(memories / clients), id });
        const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'client', options], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        return new Promise<number>((resolve, reject) =>
          child.once('exit', (code) =>
            code === 0
              ? resolve((JSON.parse(out) as { cpu: number }).cpu)
              : reject(new Error(`client ${id} exited ${code}`)),
          ),
        );
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const saved = Math.ceil(memories / clients) * clients;
    const shared = openPostgresMemoryStore(parsePostgresSettings(url), remoteOf(0), 'bench');
    const db = new WasmSqlDatabase(join(tempDir(), 'reader.db'));
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let q = 0; q < recalls; q++) {
      const engine = new Engine({ db, memoryStore: shared.repository(remoteOf(q % repos)) });
      const query = `${WORDS[q % WORDS.length]} ${WORDS[(q * 3 + 1) % WORDS.length]}`;
      const cpu = process.cpuUsage();
      const t = performance.now();
      await engine.recall({ query, limit: 10 });
      walls.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
    }
    shared.close();
    db.close();
    const sortedWalls = [...walls].sort((a, b) => a - b);
    const sortedCpus = [...cpus].sort((a, b) => a - b);
    return {
      memories: saved,
      repos,
      clients,
      recalls,
      saves_per_second_wall: Math.round(saved / seconds),
      client_cpu_ms_per_save: Math.round((runs.reduce((a, b) => a + b, 0) * 1000) / saved),
      recall_ms_wall: { p50: Math.round(quantile(sortedWalls, 0.5)), p99: Math.round(quantile(sortedWalls, 0.99)) },
      recall_cpu_ms_caller: { p50: Math.round(quantile(sortedCpus, 0.5)), p99: Math.round(quantile(sortedCpus, 0.99)) },
      walls,
      cpus,
    };
  } finally {
    cluster.destroy();
  }
}

async function main(): Promise<void> {
  const {
    walls: _walls,
    cpus: _cpus,
    ...result
  } = await measurePgScale(pgScaleOptions(process.argv.includes('--quick')));
  console.log(JSON.stringify({ ...result, note: 'wall figures on a shared, loaded machine: re-run idle' }, null, 2));
}

if (process.argv[2] === 'client') client();
else if (require.main === module)
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
