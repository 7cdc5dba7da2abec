// No-change re-index at monorepo size: `npx tsx bench/reindexLarge.ts [--files 60000] [--runs 5] [--dir DIR]`.
// Lays out the synthetic docs corpus (bench/docsCorpus.ts) with that many indexable files, indexes
// it once, then times incremental runs with nothing changed (every file listed and stat'ed, none
// read) against listing the workspace alone (walk + stat), interleaved; prints medians of wall and
// CPU time and the load average. Not part of `npm run bench` (the layout and first index take
// minutes at 60k files).

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/engine';
import { runIndex } from '../src/host/engineApi';
import { WorkspaceFileSource } from '../src/host/fileSource';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { docsCorpus, writeCorpus } from './docsCorpus';

const options = { files: { type: 'string' }, runs: { type: 'string' }, dir: { type: 'string' } } as const;
const { values } = parseArgs({ options });
const files = Number(values.files ?? 60_000);
const runs = Number(values.runs ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6, cpu: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const load = loadavg()[0];
  const parent = mkdtempSync(join(values.dir ?? tmpdir(), 'lore-bench-reindex-'));
  const root = join(parent, 'repo');
  try {
    writeCorpus(root, docsCorpus(files, 20260102));
    mkdirSync(join(root, '.git'), { recursive: true });
    const db = new WasmSqlDatabase(join(parent, 'lore.db'));
    const engine = new Engine({ db });
    try {
      const first = await timed(() => runIndex(engine, root, {}));
      const { summary, status } = first.value;
      const seconds = (first.ms / 1000).toFixed(1);
      console.log(`first index: ${summary.indexed} files, ${status.chunks} chunks in ${seconds} s`);
      const idle = { ms: [] as number[], cpu: [] as number[] };
      const listing = { ms: [] as number[], cpu: [] as number[] };
      for (let i = 0; i < runs; i++) {
        const listed = await timed(() => new WorkspaceFileSource(root).list());
        listing.ms.push(listed.ms);
        listing.cpu.push(listed.cpu);
        const run = await timed(() => runIndex(engine, root, {}));
        const again = run.value.summary.indexed;
        if (again !== 0) throw new Error(`an unchanged tree re-indexed ${again} files`);
        idle.ms.push(run.ms);
        idle.cpu.push(run.cpu);
      }
      const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
      console.log(
        `re-index with nothing changed, ${summary.files} files: wall ${fmt(idle.ms)}, CPU ${fmt(idle.cpu)}` +
          ` (listing alone: wall ${fmt(listing.ms)}, CPU ${fmt(listing.cpu)}); medians of ${runs};` +
          ` load average ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

void main();
