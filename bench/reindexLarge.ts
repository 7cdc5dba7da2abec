// Indexing at monorepo size: `npx tsx bench/reindexLarge.ts [--files 60000] [--runs 5] [--dir DIR]`.
// Lays out the synthetic docs corpus (bench/docsCorpus.ts) with that many indexable files, then:
//   cold index       one full index into a fresh store, against walking and reading the same files
//                    (the file-system floor) just before it: files/s and the ratio;
//   no-change walk   incremental runs with nothing changed (every file listed and stat'ed, none
//                    read), against listing the workspace alone (walk + stat), interleaved;
//   no-change watch  the same runs through the owner's watched listing (src/host/workspaceWatch.ts,
//                    what `lore serve` uses after its first index): no walk.
// Prints one JSON line of medians (wall and CPU ms), peak RSS and the load average. Not part of
// `npm run bench` (the layout and first index take minutes at 60k files).

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine, silentLogger } from '../src/engine';
import { runIndex } from '../src/host/engineApi';
import { WorkspaceFileSource } from '../src/host/fileSource';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { WorkspaceWatch } from '../src/host/workspaceWatch';
import { docsCorpus, writeCorpus } from './docsCorpus';

const options = {
  files: { type: 'string' },
  runs: { type: 'string' },
  dir: { type: 'string' },
  layout: { type: 'string' },
} as const;
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

const series = () => ({ ms: [] as number[], cpu: [] as number[] });
const medians = (s: { ms: number[]; cpu: number[] }) => ({
  wall_ms: Math.round(median(s.ms)),
  cpu_ms: Math.round(median(s.cpu)),
});

async function main(): Promise<void> {
  const load = loadavg()[0];
  const parent = mkdtempSync(join(values.dir ?? tmpdir(), 'lore-bench-reindex-'));
  const root = join(parent, 'repo');
  try {
    // Laid out by a child process, so the peak RSS below is indexing's, not the corpus generator's.
    const child = [...process.execArgv, __filename, '--layout', root, '--files', String(files)];
    const laid = spawnSync(process.execPath, child, { stdio: 'inherit' });
    if (laid.status !== 0) throw new Error(`laying out the corpus failed (${laid.status})`);
    const floor = await timed(async () => {
      const source = new WorkspaceFileSource(root);
      for (const file of await source.list()) await source.read(file.path);
    });
    const db = new WasmSqlDatabase(join(parent, 'lore.db'));
    const engine = new Engine({ db });
    try {
      const first = await timed(() => runIndex(engine, root, {}));
      const { summary, status } = first.value;
      const idle = series();
      const listing = series();
      const watchedRuns = series();
      const watch = new WorkspaceWatch(root, silentLogger, () => {});
      const watched = () => runIndex(engine, root, {}, undefined, (rules) => watch.source(rules));
      await watched(); // the watch's first run walks and starts watching
      for (let i = 0; i < runs; i++) {
        const listed = await timed(() => new WorkspaceFileSource(root).list());
        listing.ms.push(listed.ms);
        listing.cpu.push(listed.cpu);
        const run = await timed(() => runIndex(engine, root, {}));
        if (run.value.summary.indexed !== 0)
          throw new Error(`an unchanged tree re-indexed ${run.value.summary.indexed}`);
        idle.ms.push(run.ms);
        idle.cpu.push(run.cpu);
        const fromWatch = await timed(watched);
        if (fromWatch.value.summary.unchanged !== summary.files) throw new Error('the watched run lost files');
        watchedRuns.ms.push(fromWatch.ms);
        watchedRuns.cpu.push(fromWatch.cpu);
      }
      if (watch.walks !== 1 || !watch.watching) throw new Error(`the watched runs walked ${watch.walks} times`);
      watch.close();
      const coldPerSecond = summary.indexed / (first.ms / 1000);
      console.log(
        JSON.stringify({
          files: summary.files,
          chunks: status.chunks,
          cold: {
            wall_ms: Math.round(first.ms),
            cpu_ms: Math.round(first.cpu),
            files_per_second: Math.round(coldPerSecond),
            files_per_cpu_second: Math.round(summary.indexed / (first.cpu / 1000)),
            walk_read_ms: Math.round(floor.ms),
            over_walk_read: Number((first.ms / floor.ms).toFixed(1)),
          },
          no_change_walk: medians(idle),
          listing_alone: medians(listing),
          no_change_watched: medians(watchedRuns),
          runs,
          peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
          load: [Number(load.toFixed(1)), Number(loadavg()[0].toFixed(1))],
        }),
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

if (values.layout) {
  writeCorpus(values.layout, docsCorpus(files, 20260102));
  mkdirSync(join(values.layout, '.git'), { recursive: true });
} else void main();
