// The workspace index's benchmarks, in process on a real store (WasmSqlDatabase + Engine in a temp
// folder) through the product's own path (runIndex over WorkspaceFileSource, no model):
//
//   index files/s    a full index of the synthetic docs + infra corpus (bench/docsCorpus.ts):
//                    discovery (walk, .gitignore, allowlist), read, classify, redact, chunk,
//                    FTS5 — a fresh store each run. Baseline: the walk and reads alone (the
//                    file-system floor), interleaved run by run.
//   re-index         one edited ~20 KB markdown file, incrementally (the whole tree is still
//                    listed and stat'ed). Baseline: the same incremental run with nothing changed.
//                    And a run with nothing changed, walking or from the owner's watched listing.
//   --corpus DIR     also a full index of a real folder, when given (not written to).

import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, silentLogger } from '../src/engine';
import { runIndex } from '../src/host/engineApi';
import { WorkspaceFileSource } from '../src/host/fileSource';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { WorkspaceWatch } from '../src/host/workspaceWatch';
import { EDITED_FILE, docsCorpus, writeCorpus } from './docsCorpus';
import { elapsedMs, figure, now, type Figure, type Section } from './result';

export interface IndexBenchOptions {
  quick: boolean;
  /** Indexable files in the synthetic corpus. */
  files: number;
  reps: number;
  /** Re-index runs of the edited file. */
  edits: number;
  seed: number;
  /** A real folder to index as well (read only). */
  corpus?: string;
  dir?: string;
  log?: (line: string) => void;
}

export function indexOptions(quick: boolean, overrides: Partial<IndexBenchOptions> = {}): IndexBenchOptions {
  return { quick, files: quick ? 150 : 2000, reps: quick ? 1 : 5, edits: quick ? 3 : 15, seed: 20260102, ...overrides };
}

interface FreshStore {
  engine: Engine;
  close(): void;
}

function freshStore(parent: string): FreshStore {
  const dir = mkdtempSync(join(parent, 'lore-bench-index-'));
  const db = new WasmSqlDatabase(join(dir, 'lore.db'));
  const engine = new Engine({ db });
  return {
    engine,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The file-system floor under indexing: the same walk and reads, nothing else. */
async function walkAndRead(root: string): Promise<{ files: number; ms: number }> {
  const start = now();
  const source = new WorkspaceFileSource(root);
  const files = await source.list();
  for (const f of files) await source.read(f.path);
  return { files: files.length, ms: elapsedMs(start) };
}

async function fullIndex(
  root: string,
  parent: string,
  keep = false,
): Promise<{ files: number; chunks: number; ms: number; store?: FreshStore }> {
  const store = freshStore(parent);
  try {
    const start = now();
    const { summary, status } = await runIndex(store.engine, root, {});
    const ms = elapsedMs(start);
    if (summary.indexed !== summary.files) throw new Error(`indexed ${summary.indexed} of ${summary.files} files`);
    return { files: summary.files, chunks: status.chunks, ms, ...(keep ? { store } : {}) };
  } finally {
    if (!keep) store.close();
  }
}

/** Full-index throughput on `root`: per-run files/s for Lore and for the walk-and-read floor. */
async function throughput(
  root: string,
  parent: string,
  reps: number,
): Promise<{ lore: number[]; floor: number[]; cpu: number[]; files: number; chunks: number }> {
  await fullIndex(root, parent); // warm-up: JIT, page cache
  const lore: number[] = [];
  // Files per CPU-second of this process (user + system): steadier than wall time on a loaded machine.
  const cpu: number[] = [];
  const floor: number[] = [];
  let files = 0;
  let chunks = 0;
  for (let rep = 0; rep < reps; rep++) {
    const before = process.cpuUsage();
    const run = await fullIndex(root, parent);
    const used = process.cpuUsage(before);
    lore.push(run.files / (run.ms / 1000));
    cpu.push(run.files / ((used.user + used.system) / 1e6));
    files = run.files;
    chunks = run.chunks;
    const fs = await walkAndRead(root);
    floor.push(fs.files / (fs.ms / 1000));
  }
  return { lore, floor, cpu, files, chunks };
}

export async function indexSection(options: IndexBenchOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-'));
  const figures: Figure[] = [];
  const notes: string[] = [];
  const details: Record<string, unknown> = {};
  try {
    const root = join(parent, 'repo');
    const written = writeCorpus(root, docsCorpus(options.files, options.seed));
    log(
      `index: synthetic corpus of ${written.indexed} indexable files ` +
        `(${(written.bytes / 1e6).toFixed(1)} MB) and ` +
        `${written.files - written.indexed} to skip`,
    );
    const synthetic = await throughput(root, parent, options.reps);
    details.synthetic = { ...written, chunks: synthetic.chunks };
    figures.push(
      figure({
        name: 'index.files_per_second',
        label: 'full index (discovery+classify+chunk+FTS)',
        sizes: { files: synthetic.files },
        unit: 'files/s',
        runs: synthetic.lore,
        baseline: { label: 'walk + read alone', runs: synthetic.floor },
        target: { on: 'median', op: '>=', limit: 1000 },
      }),
    );
    figures.push(
      figure({
        name: 'index.cost_over_walk',
        label: 'full index time over walk + read time',
        sizes: { files: synthetic.files },
        unit: '×',
        runs: synthetic.lore.map((fps, i) => synthetic.floor[i] / fps),
        target: { on: 'median', op: '<=', limit: 30 },
      }),
    );
    details.cpu = { index_files_per_cpu_second: synthetic.cpu };
    log(
      `index: ${figures[0].median.toFixed(0)} files/s ` +
        `(${synthetic.chunks} chunks), ${figures[1].median.toFixed(1)}× ` +
        `walk + read`,
    );

    // Re-index one edited 20 KB markdown file, against an incremental run with nothing to do.
    const kept = await fullIndex(root, parent, true);
    const store = kept.store!;
    try {
      const edited: number[] = [];
      const unchanged: number[] = [];
      const listed: number[] = [];
      const watchedRuns: number[] = [];
      // What `lore serve` does after its first index: the watched listing instead of a walk.
      const watch = new WorkspaceWatch(root, silentLogger, () => {});
      const watched = () => runIndex(store.engine, root, {}, undefined, (rules) => watch.source(rules));
      await watched();
      for (let i = 0; i < options.edits; i++) {
        let start = now();
        await new WorkspaceFileSource(root).list();
        listed.push(elapsedMs(start));
        start = now();
        const idle = await runIndex(store.engine, root, {});
        unchanged.push(elapsedMs(start));
        if (idle.summary.indexed !== 0) throw new Error(`an unchanged tree re-indexed ${idle.summary.indexed} files`);
        start = now();
        const fromWatch = await watched();
        watchedRuns.push(elapsedMs(start));
        if (fromWatch.summary.indexed !== 0) throw new Error(`a watched run re-indexed ${fromWatch.summary.indexed}`);
        appendFileSync(join(root, EDITED_FILE), `\nEdit ${i}: ${'rollback the gateway certificates '.repeat(2)}\n`);
        start = now();
        const run = await runIndex(store.engine, root, {});
        edited.push(elapsedMs(start));
        if (run.summary.indexed !== 1) throw new Error(`editing one file re-indexed ${run.summary.indexed}`);
      }
      figures.push(
        figure({
          name: 'index.reindex_one_file',
          label: 're-index one edited 20 KB markdown file',
          sizes: { files: kept.files },
          unit: 'ms',
          runs: edited,
          baseline: { label: 'incremental run, nothing changed', runs: unchanged },
        }),
      );
      figures.push(
        figure({
          name: 'index.reindex_unchanged',
          label: 're-index with nothing changed',
          sizes: { files: kept.files },
          unit: 'ms',
          runs: unchanged,
          baseline: { label: 'listing the workspace (walk + stat) alone', runs: listed },
        }),
      );
      watch.close();
      figures.push(
        figure({
          name: 'index.reindex_unchanged_watched',
          label: 're-index with nothing changed, from file events (lore serve)',
          sizes: { files: kept.files },
          unit: 'ms',
          runs: watchedRuns,
          baseline: { label: 'listing the workspace (walk + stat) alone', runs: listed },
        }),
      );
      log(
        `index: re-index of one edited file ` +
          `${figures[2].median.toFixed(1)} ms, of nothing ` +
          `${figures[3].median.toFixed(1)} ms`,
      );
    } finally {
      store.close();
    }

    if (options.corpus) {
      try {
        const real = await throughput(options.corpus, parent, Math.max(1, Math.min(options.reps, 3)));
        details.corpus = { dir: options.corpus, files: real.files, chunks: real.chunks };
        figures.push(
          figure({
            name: 'index.files_per_second.corpus',
            label: `full index of --corpus folder`,
            sizes: { files: real.files },
            unit: 'files/s',
            runs: real.lore,
            baseline: { label: 'walk + read alone', runs: real.floor },
            target: { on: 'median', op: '>=', limit: 1000 },
          }),
        );
      } catch (error) {
        notes.push(`--corpus ${options.corpus} could not be indexed: ${(error as Error).message}`);
      }
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
  return {
    bench: 'index',
    title: 'Index: workspace documents (no model)',
    method: {
      files_per_second:
        'runIndex (the product path) over WorkspaceFileSource on a fresh ' +
        'store, full index, files indexed / wall time; baseline: the same ' +
        'walk and file reads alone',
      cost_over_walk:
        'per run, the full index time divided by the walk + read time of ' +
        'the run after it; details.cpu has files per CPU-second of the ' +
        'index (steadier on a loaded machine)',
      reindex_unchanged:
        'an incremental runIndex with nothing changed (lists and stats ' +
        'every file, reads none); baseline: WorkspaceFileSource.list() ' +
        'alone',
      reindex_unchanged_watched:
        "the same incremental run through the owner's watched listing " +
        '(src/host/workspaceWatch.ts, after its first run walked): no walk; ' +
        'baseline: WorkspaceFileSource.list() alone',
      reindex_one_file:
        `append a line to ${EDITED_FILE} (~20 KB), then an incremental ` +
        `runIndex (lists and stats every file, reads, chunks and writes ` +
        `the one changed); baseline: an incremental run with nothing ` +
        `changed`,
      corpus:
        'deterministic synthetic repository (bench/docsCorpus.ts): ADRs, ' +
        'runbooks, guides, postmortems, READMEs, Terraform, Kubernetes, ' +
        'Helm, Dockerfiles, CI, plus code, node_modules and .gitignored ' +
        'files to skip',
    },
    figures,
    notes,
    seconds: (Date.now() - started) / 1000,
    details,
  };
}
