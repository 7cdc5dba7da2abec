// The shared PostgreSQL store in `npm run bench` (issue 28, point 8), at the size bench/pgScale.ts
// is given (--quick: 400 memories, 4 repositories, 4 clients, 40 recalls; the full run 100,000 over
// 50 repositories and 8 clients). Skipped with a note, not failed, where no PostgreSQL ≥ 15 server
// binaries are installed (Debian's package; .ci/run installs it).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { measurePgScale, pgScaleOptions, type PgScaleOptions } from './pgScale';
import { figure, type Section } from './result';

/** Why the section cannot run here, or undefined when it can. */
export function postgresBinariesMissing(): string | undefined {
  const root = '/usr/lib/postgresql';
  const found = existsSync(root)
    ? readdirSync(root).filter((v) => Number(v) >= 15 && existsSync(join(root, v, 'bin', 'initdb')))
    : [];
  return found.length ? undefined : 'skipped: no PostgreSQL ≥ 15 server binaries (apt-get install -y postgresql)';
}

export function pgOptions(quick: boolean): PgScaleOptions {
  return pgScaleOptions(quick);
}

export async function pgSection(options: PgScaleOptions): Promise<Section> {
  const started = Date.now();
  const title = 'Shared store on PostgreSQL';
  const method = {
    'postgres.saves': 'clients (processes, an engine each) save the memories at once; saves per second of wall time',
    'postgres.save_cpu': "the clients' CPU time per save (user and system)",
    'postgres.recall': 'one engine recalls through the server, a repository per question; wall time per recall',
    'postgres.recall_cpu': "the recalling process's CPU time per recall",
  };
  const missing = postgresBinariesMissing();
  if (missing) return { bench: 'postgres', title, method, figures: [], notes: [missing], seconds: 0 };
  const r = await measurePgScale(options);
  const sizes = { memories: r.memories, repositories: r.repos, clients: r.clients };
  return {
    bench: 'postgres',
    title,
    method,
    figures: [
      figure({ name: 'postgres.saves', label: 'saves per second', sizes, unit: '/s', runs: [r.saves_per_second_wall] }),
      figure({
        name: 'postgres.save_cpu',
        label: 'client CPU per save',
        sizes,
        unit: 'ms',
        runs: [r.client_cpu_ms_per_save],
      }),
      figure({
        name: 'postgres.recall',
        label: 'recall through the server (wall)',
        sizes,
        unit: 'ms',
        runs: [r.recall_ms_wall.p50],
        p95Runs: [r.recall_ms_wall.p99],
      }),
      figure({
        name: 'postgres.recall_cpu',
        label: 'recall CPU in the caller',
        sizes,
        unit: 'ms',
        runs: [r.recall_cpu_ms_caller.p50],
        p95Runs: [r.recall_cpu_ms_caller.p99],
      }),
    ],
    notes: [
      'recall figures are p50, with p99 in the p95 column',
      'wall figures on a shared, loaded machine need an idle re-run',
      'the issue’s 1,000,000 memories over 500 repositories is not run here (bench/pgScale.ts --memories N)',
    ],
    seconds: (Date.now() - started) / 1000,
    details: { recall_ms_wall: r.recall_ms_wall, recall_cpu_ms_caller: r.recall_cpu_ms_caller },
  };
}
