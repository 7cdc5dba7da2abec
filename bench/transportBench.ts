// MCP tool-call round trips through the built server (dist/cli.js) with the real SDK client:
// `recall` over stdio (`lore mcp`, the process owning the store, as an agent host starts it) and
// over Streamable HTTP (`lore serve`, bearer token), against the in-process baseline: the same
// engine.recall on the same store and queries, no MCP. The store holds a few hundred memories so
// the engine's share is small and the figures show what the doors add.
//
// Each run starts the process fresh (untimed, with a few warm-up calls), times one call per
// query, and stops it; the three are measured in turn within each run, so load from other
// processes falls on all of them.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/host/openStore';
import { CLI, httpAgent, startServe, stdioAgent, type Agent } from '../test/support/processes';
import { distribution, makeQueries } from './memory';
import { elapsedMs, figure, now, type Section } from './result';
import { seedMemories } from './seedStore';

export interface TransportBenchOptions {
  quick: boolean;
  memories: number;
  calls: number;
  reps: number;
  seed: number;
  dir?: string;
  log?: (line: string) => void;
}

export function transportOptions(
  quick: boolean,
  overrides: Partial<TransportBenchOptions> = {},
): TransportBenchOptions {
  return {
    quick,
    memories: quick ? 50 : 300,
    calls: quick ? 10 : 50,
    reps: quick ? 1 : 5,
    seed: 20260105,
    ...overrides,
  };
}

const WARM_UP = 3;

async function timeAgent(agent: Agent, queries: string[]): Promise<number[]> {
  for (const query of queries.slice(0, WARM_UP)) await agent.call('recall', { query });
  const latencies: number[] = [];
  for (const query of queries) {
    const start = now();
    const result = await agent.call('recall', { query });
    latencies.push(elapsedMs(start));
    if (result.isError) throw new Error(`recall over MCP failed: ${JSON.stringify(result.content)}`);
  }
  return latencies;
}

export async function transportSection(options: TransportBenchOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-'));
  const workspace = join(parent, 'repo');
  const home = join(parent, 'home');
  mkdirSync(join(workspace, '.git'), { recursive: true });
  const box = { home, workspace, env: { ...process.env, LORE_HOME: home, LORE_EMBED: 'off' } };
  const queries = makeQueries(options.seed, options.calls);
  const runs = {
    inProcess: [] as Array<{ p50: number; p95: number }>,
    http: [] as Array<{ p50: number; p95: number }>,
    stdio: [] as Array<{ p50: number; p95: number }>,
  };
  try {
    seedMemories(workspace, home, options.memories, options.seed);
    for (let rep = 0; rep < options.reps; rep++) {
      const store = openStore({ workspace, home, door: 'bench' });
      try {
        for (const query of queries.slice(0, WARM_UP)) await store.engine.recall({ query });
        const latencies: number[] = [];
        for (const query of queries) {
          const start = now();
          await store.engine.recall({ query });
          latencies.push(elapsedMs(start));
        }
        runs.inProcess.push(distribution(latencies));
      } finally {
        store.close();
      }

      const serve = await startServe(box);
      try {
        const agent = await httpAgent(serve.url, serve.mcpToken, 'bench-http');
        try {
          runs.http.push(distribution(await timeAgent(agent, queries)));
        } finally {
          await agent.close();
        }
      } finally {
        await serve.stop();
      }

      const agent = await stdioAgent(box, 'bench-stdio');
      try {
        runs.stdio.push(distribution(await timeAgent(agent, queries)));
      } finally {
        await agent.close();
      }
      log(
        `transport: run ${rep + 1}: in-process ` +
          `${runs.inProcess[rep].p50.toFixed(2)} ms, http ` +
          `${runs.http[rep].p50.toFixed(2)} ms, stdio ` +
          `${runs.stdio[rep].p50.toFixed(2)} ms`,
      );
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  const sizes = { memories: options.memories };
  const baseline = { label: 'in-process engine.recall p50', runs: runs.inProcess.map((r) => r.p50) };
  return {
    bench: 'transport',
    title: 'MCP transport: recall tool round trip',
    method: {
      stdio:
        'SDK Client over StdioClientTransport to `node dist/cli.js mcp` ' +
        '(which owns the store), callTool recall, one at a time; p50/p95 ' +
        'per run, median over runs',
      http: 'SDK Client over StreamableHTTPClientTransport to `lore serve` with the bearer token, same calls',
      baseline: 'engine.recall with the same queries on the same store, in the bench process (openStore)',
    },
    figures: [
      figure({
        name: 'transport.stdio',
        label: 'MCP recall round trip, stdio',
        sizes,
        unit: 'ms',
        runs: runs.stdio.map((r) => r.p50),
        p95Runs: runs.stdio.map((r) => r.p95),
        baseline,
      }),
      figure({
        name: 'transport.http',
        label: 'MCP recall round trip, HTTP',
        sizes,
        unit: 'ms',
        runs: runs.http.map((r) => r.p50),
        p95Runs: runs.http.map((r) => r.p95),
        baseline,
      }),
    ],
    notes: [],
    seconds: (Date.now() - started) / 1000,
  };
}
