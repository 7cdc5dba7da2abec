// The bench on a real tree: public repositories side by side at pinned commits (bench/realTrees.json,
// about 14,700 files), laid out once into a cache outside the repository, then indexed as a new user
// would (`lore index --full`, lexical only) and asked a cold `lore recall`:
//   full index     files/s of whole `lore index --full` processes, each into a fresh store, against
//                  walking and reading the same files (the file-system floor) measured just before;
//                  the ratio, and the index process's peak RSS (bench/rssAtExit.cjs);
//   cold recall    a whole `lore recall` process's CPU time over `node -e 0`'s, interleaved rounds.
// `--quick` uses the repository's own fixtures of real public files instead, to show it runs.
//
// npx tsx bench/realTree.ts --prepare [--mirrors DIR]   lay out the tree (each pinned commit's files
//   from the bare repository DIR/<owner>+<name>[/repo] when there, else a bare clone from GitHub).
// The cache: $LORE_BENCH_CACHE, else $XDG_CACHE_HOME/lore-bench, else ~/.cache/lore-bench.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { WorkspaceFileSource } from '../src/host/fileSource';
import { elapsedMs, figure, now, type Figure, type Section } from './result';

const CLI = resolve(__dirname, '..', 'dist', 'cli.js');
const TREES = resolve(__dirname, 'realTrees.json');
/** Real public files the tests already ship with their licences: the quick run's tree. */
const QUICK_TREE = resolve(__dirname, '..', 'test', 'fixtures');

interface Tree {
  name: string;
  repo: string;
  commit: string;
}

export interface RealTreeOptions {
  quick: boolean;
  runs: number;
  recallRuns: number;
  dir?: string;
  log?: (line: string) => void;
}

export function realTreeOptions(quick: boolean, overrides: Partial<RealTreeOptions> = {}): RealTreeOptions {
  return { quick, runs: quick ? 1 : 3, recallRuns: quick ? 2 : 9, ...overrides };
}

export function cacheDir(): string {
  return process.env.LORE_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'lore-bench');
}

function trees(): Tree[] {
  return (JSON.parse(readFileSync(TREES, 'utf8')) as { trees: Tree[] }).trees;
}

/** The laid-out tree's folder; throws, saying how to lay it out, when it is not there. */
export function realTreeRoot(): string {
  const root = join(cacheDir(), 'real-tree');
  const missing = trees().filter((t) => readMark(join(root, t.name)) !== t.commit);
  if (missing.length)
    throw new Error(
      `the real tree is not laid out (${missing.map((t) => t.name).join(', ')} missing): ` +
        'run `npx tsx bench/realTree.ts --prepare [--mirrors DIR]` once',
    );
  return root;
}

const readMark = (dir: string) => {
  try {
    return readFileSync(join(dir, '.lore-bench-commit'), 'utf8').trim();
  } catch {
    return null;
  }
};

export function prepare(mirrors: string | undefined, log: (line: string) => void): string {
  const root = join(cacheDir(), 'real-tree');
  for (const tree of trees()) {
    const dest = join(root, tree.name);
    if (readMark(dest) === tree.commit) continue;
    const gitDir = findMirror(tree, mirrors) ?? clone(tree, log);
    log(`real tree: ${tree.repo} at ${tree.commit.slice(0, 12)}`);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    const missing = extract(gitDir, tree.commit, dest);
    if (missing) log(`real tree: ${tree.name}: ${missing} large file(s) absent from the mirror, left out`);
    writeFileSync(join(dest, '.lore-bench-commit'), tree.commit + '\n');
  }
  // A repository root, so `lore` takes this folder as the workspace.
  mkdirSync(join(root, '.git'), { recursive: true });
  return root;
}

/**
 * Writes every file of `commit` under `dest`, blob by blob: a mirror may hold the tree but not its
 * largest blobs (images, archives), which are left out and counted rather than failing the lay-out.
 */
function extract(gitDir: string, commit: string, dest: string): number {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', commit], {
    maxBuffer: 2 ** 28,
  }).toString('utf8');
  const entries = listing
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split('\t');
      const [mode, type, sha] = meta.split(' ');
      return { mode, type, sha, path };
    })
    .filter((e) => e.type === 'blob' && e.mode !== '120000');
  const batch = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: entries.map((e) => e.sha).join('\n') + '\n',
    maxBuffer: 2 ** 31,
  });
  let at = 0;
  let missing = 0;
  for (const entry of entries) {
    const eol = batch.indexOf(10, at);
    const header = batch.subarray(at, eol).toString('utf8');
    at = eol + 1;
    if (header.endsWith(' missing')) {
      missing++;
      continue;
    }
    const size = Number(header.split(' ')[2]);
    const file = join(dest, entry.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, batch.subarray(at, at + size), { mode: entry.mode === '100755' ? 0o755 : 0o644 });
    at += size + 1;
  }
  return missing;
}

function findMirror(tree: Tree, mirrors: string | undefined): string | null {
  if (!mirrors) return null;
  const base = join(mirrors, tree.repo.replace('/', '+'));
  for (const dir of [join(base, 'repo'), base])
    if (
      existsSync(join(dir, 'HEAD')) &&
      spawnSync('git', ['--git-dir', dir, 'cat-file', '-e', tree.commit]).status === 0
    )
      return dir;
  return null;
}

function clone(tree: Tree, log: (line: string) => void): string {
  const dir = join(cacheDir(), 'mirrors', tree.repo.replace('/', '+'));
  if (!existsSync(join(dir, 'HEAD'))) {
    log(`real tree: cloning ${tree.repo} (bare) into ${dir}`);
    execFileSync('git', ['clone', '--bare', '--quiet', `https://github.com/${tree.repo}.git`, dir], {
      stdio: 'inherit',
    });
  }
  return dir;
}

async function walkAndRead(root: string): Promise<{ ms: number; files: number }> {
  const start = now();
  const source = new WorkspaceFileSource(root);
  const files = await source.list();
  for (const file of files) await source.read(file.path);
  return { ms: elapsedMs(start), files: files.length };
}

export async function realTreeSection(options: RealTreeOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const root = options.quick ? QUICK_TREE : realTreeRoot();
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-real-'));
  const rssFile = join(parent, 'rss.txt');
  const cpuFile = join(parent, 'cpu.txt');
  const reads: number[] = [];
  const rates: number[] = [];
  const ratios: number[] = [];
  const rss: number[] = [];
  const cpuPerFile: number[] = [];
  let listed = 0;
  let indexed = 0;
  let home = '';
  try {
    for (let run = 0; run < options.runs; run++) {
      const floor = await walkAndRead(root);
      listed = floor.files;
      home = join(parent, `home-${run}`);
      rmSync(rssFile, { force: true });
      const start = now();
      const r = spawnSync(
        process.execPath,
        ['--require', resolve(__dirname, 'rssAtExit.cjs'), CLI, '--workspace', root, '--json', 'index', '--full'],
        {
          env: { ...process.env, LORE_HOME: home, LORE_EMBED: 'off', LORE_BENCH_RSS: rssFile },
          encoding: 'utf8',
          maxBuffer: 64 * 2 ** 20,
        },
      );
      const ms = elapsedMs(start);
      if (r.status !== 0) throw new Error(`lore index --full exited ${r.status}: ${r.stderr.slice(-2000)}`);
      indexed = (JSON.parse(r.stdout) as { summary: { indexed: number } }).summary.indexed;
      reads.push(floor.ms);
      rates.push(indexed / (ms / 1000));
      ratios.push(ms / floor.ms);
      const [cpuMs, peak] = readFileSync(rssFile, 'utf8').trim().split(/\s+/).map(Number);
      rss.push(peak);
      cpuPerFile.push(cpuMs / indexed);
      const took = `${(ms / 1000).toFixed(1)} s (read: ${floor.ms.toFixed(0)} ms)`;
      log(`real tree: ${indexed} of ${listed} files indexed in ${took}`);
    }
    // Cold recall on the last run's store: CPU time over node -e 0, in interleaved rounds.
    const env = { ...process.env, LORE_HOME: home, LORE_EMBED: 'off', LORE_BENCH_CPU: cpuFile };
    const preload = ['--require', resolve(__dirname, 'cpuAtExit.cjs')];
    const commands = {
      node: ['-e', '0'],
      recall: [CLI, '--workspace', root, 'recall', 'how do I roll back a failed upgrade'],
    };
    const cpu = { node: [] as number[], recall: [] as number[] };
    for (let round = 0; round <= options.recallRuns; round++)
      for (const [name, args] of Object.entries(commands) as Array<[keyof typeof commands, string[]]>) {
        rmSync(cpuFile, { force: true });
        const r = spawnSync(process.execPath, [...preload, ...args], { env, encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`${args.slice(1).join(' ')} exited ${r.status}: ${r.stderr}`);
        if (round > 0) cpu[name].push(Number(readFileSync(cpuFile, 'utf8').trim()));
      }
    const sizes = { files: indexed, listed };
    const figures: Figure[] = [
      figure({
        name: 'real.index.files_per_s',
        label: 'full lexical index (lore index --full)',
        sizes,
        unit: 'files/s',
        runs: rates,
        baseline: { label: 'walk + read alone, files/s', runs: reads.map((ms) => listed / (ms / 1000)) },
        target: { on: 'median', op: '>=', limit: 1000 },
      }),
      figure({
        name: 'real.index.over_read',
        label: 'full index time over walk + read time',
        sizes,
        unit: '×',
        runs: ratios,
        target: { on: 'median', op: '<=', limit: 10 },
      }),
      figure({
        name: 'real.index.cpu_ms_per_file',
        label: 'CPU time of the index process per file indexed',
        sizes,
        unit: 'ms',
        runs: cpuPerFile,
      }),
      figure({
        name: 'real.index.rss',
        label: 'peak RSS of the index process',
        sizes,
        unit: 'MB',
        runs: rss,
        target: { on: 'median', op: '<=', limit: 300 },
      }),
      figure({
        name: 'real.recall.over_node',
        label: 'cold lore recall CPU time over node -e 0',
        sizes,
        unit: 'ms',
        runs: cpu.recall.map((ms, i) => ms - cpu.node[i]),
        target: { on: 'median', op: '<=', limit: 120 },
      }),
    ];
    return {
      bench: 'real',
      title: options.quick ? 'Real tree (quick: the test fixtures)' : 'Real tree (10 public repositories)',
      method: {
        'real.index.files_per_s':
          'whole `lore index --full` processes (LORE_EMBED=off), each into a fresh store; files indexed over wall ' +
          'time; baseline: listing and reading the same files in the bench process just before',
        'real.index.over_read': 'the index wall time over that walk + read time, per run',
        'real.index.cpu_ms_per_file':
          "the index process's user + system CPU time at exit (bench/rssAtExit.cjs) over the files it indexed: " +
          'the figure that compares on a loaded machine',
        'real.index.rss': "the index process's VmHWM at exit (bench/rssAtExit.cjs)",
        'real.recall.over_node':
          'CPU time of a whole `lore recall` process minus that of `node -e 0` in the same round (bench/cpuAtExit.cjs)',
      },
      figures,
      notes: options.quick
        ? ['quick: the tree is test/fixtures, not the pinned repositories']
        : [`tree: bench/realTrees.json (${trees().length} repositories, ${listed} files Lore lists)`],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { prepare: { type: 'boolean' }, mirrors: { type: 'string' } } });
  if (!values.prepare) {
    console.error('usage: npx tsx bench/realTree.ts --prepare [--mirrors DIR]');
    process.exit(2);
  }
  console.log(prepare(values.mirrors, (line) => console.error(line)));
}
