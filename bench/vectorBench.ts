// Recall with vectors at monorepo sizes: the docs corpus (bench/docsCorpus.ts) indexed lexically,
// then one vector per chunk stored under the generated MiniLM-shaped model's id. The vectors are
// synthetic (clustered by subject around a large common direction, as the model's own are):
// embedding 61k chunks with the model would take most of an hour here. The query is embedded by
// the real model, so recall pays its real cost.
//
// Figures, each against a baseline in the same run:
// - long-lived recall (one engine, model loaded) p50 with vectors vs lexical-only, per size, and
//   its growth exponent;
// - the vector search alone (sign codes + exact re-ranking) vs what it replaced: every float
//   vector in memory, every score computed and fully sorted;
// - whole-process `lore recall` with the model vs LORE_EMBED=off: wall, CPU and peak RSS;
// - the same answered by a live owner (`lore serve`, its model loaded) vs LORE_EMBED=off.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prng } from '../scripts/prng';
import { storeVector } from '../src/engine/indexing/docStore';
import { bumpVectorGeneration } from '../src/engine/indexing/indexer';
import { centreFor, VectorCache } from '../src/engine/record/vectors';
import { runIndex } from '../src/host/engineApi';
import { createTransformersEmbedder, isEmbedderUnavailable } from '../src/host/embed/transformersEmbedder';
import { openStore } from '../src/host/openStore';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { setTimeout as delay } from 'node:timers/promises';
import { CLI, startServe } from '../test/support/processes';
import { docsCorpus, writeCorpus } from './docsCorpus';
import { benchModel } from './embed';
import { median } from './memory';
import { elapsedMs, figure, now, type Figure, type Section } from './result';

export interface VectorBenchOptions {
  quick: boolean;
  /** Indexable files of the docs corpus per size (about ten chunks each). */
  files: number[];
  queries: number;
  /** Whole-process runs at the largest size. */
  processRuns: number;
  dir?: string;
  log?: (line: string) => void;
}

export function vectorOptions(quick: boolean, overrides: Partial<VectorBenchOptions> = {}): VectorBenchOptions {
  return {
    quick,
    // 24,000 files are about 250k chunks, the size (laying them out and indexing take minutes).
    files: quick ? [20, 60] : [1500, 6000, 24000],
    queries: quick ? 3 : 30,
    processRuns: quick ? 1 : 7,
    ...overrides,
  };
}

const QUERIES = [
  'rollback the gateway certificates',
  'how do we rotate the database tokens',
  'restart stuck workers after a deploy',
  'why did we choose postgres for the queue',
  'terraform module for the cache cluster',
  'incident latency in the shard gateway',
  'helm chart values for the ingress',
  'purge the topics before compliance review',
  'who owns the release pipeline',
  'kubernetes pod restart loop',
  'retry policy for timeouts',
  'the migration runbook for the ledger',
];

function unitVectors(
  count: number,
  dims: number,
  seed: number,
  subjects: number,
  subjectOf: (i: number) => number,
): Float32Array[] {
  const random = prng(seed);
  const noise = () => Float32Array.from({ length: dims }, () => random() - 0.5);
  const common = noise();
  const topics = Array.from({ length: subjects }, noise);
  return Array.from({ length: count }, (_, i) => {
    const topic = topics[subjectOf(i) % subjects];
    const v = Float32Array.from(common, (c, d) => 4 * c + topic[d] + 0.3 * (random() - 0.5));
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** What VectorCache did before sign codes: every vector as floats, every score, a full sort. */
function bruteForce(vectors: Float32Array[], query: Float32Array, k: number): number[] {
  const n = vectors.length;
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const v = vectors[i];
    let dot = 0;
    for (let d = 0; d < query.length; d++) dot += v[d] * query[d];
    scores[i] = dot;
  }
  return [...scores.keys()].sort((a, b) => scores[b] - scores[a]).slice(0, k);
}

export async function vectorSection(options: VectorBenchOptions): Promise<Section> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const model = benchModel(options.quick, log);
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  const parent = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-vectors-'));
  const home = join(parent, 'home');
  const embedder = await createTransformersEmbedder({
    modelDir: model.root,
    modelName: model.name,
    dtype: 'q8',
    threads: 1,
    dataDir: home,
  });
  if (isEmbedderUnavailable(embedder)) throw new Error(embedder.reason);
  const queries = Array.from({ length: options.queries }, (_, i) => QUERIES[i % QUERIES.length]);
  const longLived: Array<{ chunks: number; p50: number }> = [];
  try {
    for (const files of options.files) {
      const workspace = join(parent, `repo-${files}`);
      writeCorpus(workspace, docsCorpus(files, 20261203));
      mkdirSync(join(workspace, '.git'), { recursive: true });
      let store = openStore({ workspace, home, door: 'bench', symbols: false });
      const database = store.paths.database;
      let chunks = 0;
      try {
        chunks = (await runIndex(store.engine, workspace, {})).status.chunks;
      } finally {
        store.close();
      }
      // The vectors, written straight into the store as the indexer would.
      let db = new WasmSqlDatabase(database);
      const rows = db.all<{ id: number; doc_id: number }>('SELECT id, doc_id FROM doc_chunks ORDER BY id');
      const vectors = unitVectors(rows.length, embedder.dims, files, 200, (i) => rows[i].doc_id);
      try {
        for (let at = 0; at < rows.length; at += 2000) {
          db.transaction(() => {
            const centre = centreFor(db, embedder.modelId, vectors.slice(at, at + 32));
            for (let i = at; i < Math.min(rows.length, at + 2000); i++)
              storeVector(db, { table: 'chunk', id: rows[i].id, text: '' }, embedder.modelId, vectors[i], centre);
          });
        }
        bumpVectorGeneration({ db } as never);
      } finally {
        db.close();
      }
      log(`vectors: ${chunks} chunks from ${files} files, vectors stored`);
      const sizes = { chunks };

      // Long-lived: one engine; with the model and without, interleaved per query.
      store = openStore({ workspace, home, door: 'bench', symbols: false });
      try {
        store.engine.useEmbedder(embedder);
        // The first search after the vectors were written reads them row by row and writes the pages.
        const firstStart = now();
        await store.engine.recall({ query: queries[0] });
        details[`first_recall_ms_${chunks}`] = elapsedMs(firstStart);
        const withVectors: number[] = [];
        const lexical: number[] = [];
        const withVectorsCpu: number[] = [];
        const lexicalCpu: number[] = [];
        const cpuMs = (since: NodeJS.CpuUsage) => {
          const used = process.cpuUsage(since);
          return (used.user + used.system) / 1000;
        };
        for (const query of queries) {
          store.engine.useEmbedder(embedder);
          let start = now();
          let cpu = process.cpuUsage();
          const r = await store.engine.recall({ query });
          withVectors.push(elapsedMs(start));
          withVectorsCpu.push(cpuMs(cpu));
          if (!r.vectors) throw new Error('recall did not use the vectors');
          store.engine.useEmbedder(undefined);
          start = now();
          cpu = process.cpuUsage();
          await store.engine.recall({ query });
          lexical.push(elapsedMs(start));
          lexicalCpu.push(cpuMs(cpu));
        }
        figures.push(
          figure({
            name: 'vectors.recall_cpu_p50',
            label: 'long-lived recall with the model, CPU (all threads), p50',
            sizes,
            unit: 'ms',
            runs: withVectorsCpu,
            baseline: { label: 'lexical-only recall CPU p50', runs: lexicalCpu },
            target: { on: 'median', op: '<=', limit: 20 },
          }),
        );
        figures.push(
          figure({
            name: 'vectors.recall_p50',
            label: 'long-lived recall with the model (query embedded), p50',
            sizes,
            unit: 'ms',
            runs: withVectors,
            baseline: { label: 'lexical-only recall p50', runs: lexical },
            target: { on: 'median', op: '<=', limit: 20 },
          }),
        );
        longLived.push({ chunks, p50: median(withVectors) });
      } finally {
        store.engine.useEmbedder(undefined);
        store.close();
      }

      // The vector search alone, against the brute force it replaced.
      db = new WasmSqlDatabase(database);
      try {
        const cache = new VectorCache();
        cache.size(db, embedder.modelId);
        // Questions near stored chunks (a paraphrase lies near its passage): a stored vector plus noise.
        const random = prng(files + 1);
        const probes = queries.map(() => {
          const near = vectors[Math.floor(random() * vectors.length)];
          const v = near.map((x) => x + (random() - 0.5) * 0.02);
          const norm = Math.hypot(...v);
          return v.map((x) => x / norm);
        });
        const coded: number[] = [];
        const brute: number[] = [];
        let agree = 0;
        for (const probe of probes) {
          let start = now();
          const hits = cache.search(db, embedder.modelId, probe, 100);
          coded.push(elapsedMs(start));
          start = now();
          const exact = bruteForce(vectors, probe, 10).map((i) => rows[i].id);
          brute.push(elapsedMs(start));
          const top = new Set(hits.slice(0, 10).map((h) => h.id));
          agree += exact.filter((id) => top.has(id)).length / 10;
        }
        figures.push(
          figure({
            name: 'vectors.search_p50',
            label: 'vector search alone (sign codes, then exact re-ranking), p50',
            sizes,
            unit: 'ms',
            runs: coded,
            baseline: { label: 'all floats in memory, full sort', runs: brute },
          }),
        );
        details[`top10_agreement_${chunks}`] = agree / probes.length;
        details[`held_mb_${chunks}`] = {
          codes: cache.heldBytes() / 1e6,
          floats: (vectors.length * embedder.dims * 4) / 1e6,
        };
        log(
          `vectors: ${chunks} chunks: recall p50 ` +
            `${longLived[longLived.length - 1].p50.toFixed(1)} ms, search ` +
            `${median(coded).toFixed(2)} ms vs brute force ` +
            `${median(brute).toFixed(2)} ms, top-10 agreement ` +
            `${(agree / probes.length).toFixed(3)}`,
        );
      } finally {
        db.close();
      }

      if (files !== options.files[options.files.length - 1]) continue;
      // Whole process, at the largest size: `lore recall` with the model vs without.
      const rssFile = join(parent, 'rss.txt');
      const base = {
        ...process.env,
        LORE_HOME: home,
        LORE_BENCH_RSS: rssFile,
        LORE_MODEL_DIR: model.root,
        LORE_MODEL: model.name,
        LORE_MODEL_DTYPE: 'q8',
        LORE_EMBED_THREADS: '1',
      };
      const preload = ['--require', resolve(__dirname, 'rssAtExit.cjs')];
      const runs = {
        model: { wall: [] as number[], cpu: [] as number[], rss: [] as number[] },
        lexical: { wall: [] as number[], cpu: [] as number[], rss: [] as number[] },
      };
      for (let round = 0; round <= options.processRuns; round++) {
        for (const kind of ['model', 'lexical'] as const) {
          rmSync(rssFile, { force: true });
          const env = kind === 'model' ? base : { ...base, LORE_EMBED: 'off' };
          const start = now();
          const r = spawnSync(
            process.execPath,
            [...preload, CLI, '--json', 'recall', QUERIES[round % QUERIES.length]],
            { cwd: workspace, env, encoding: 'utf8' },
          );
          const wall = elapsedMs(start);
          if (r.status !== 0) throw new Error(`lore recall exited ${r.status}: ${r.stderr}`);
          if ((JSON.parse(r.stdout) as { vectors: boolean }).vectors !== (kind === 'model'))
            throw new Error(`lore recall (${kind}) vectors=${!(kind === 'model')}: ${r.stderr}`);
          if (round === 0) continue;
          const [cpu, rss] = readFileSync(rssFile, 'utf8').trim().split(' ').map(Number);
          runs[kind].wall.push(wall);
          runs[kind].cpu.push(cpu);
          runs[kind].rss.push(rss);
        }
      }
      figures.push(
        figure({
          name: 'vectors.cold_recall',
          label: 'whole-process lore recall with the model, wall p50',
          sizes,
          unit: 'ms',
          runs: runs.model.wall,
          baseline: { label: 'LORE_EMBED=off', runs: runs.lexical.wall },
          target: { on: 'ratio', op: '<=', limit: 2 },
        }),
        figure({
          name: 'vectors.cold_recall_cpu',
          label: 'whole-process lore recall with the model, CPU p50',
          sizes,
          unit: 'ms',
          runs: runs.model.cpu,
          baseline: { label: 'LORE_EMBED=off', runs: runs.lexical.cpu },
          target: { on: 'ratio', op: '<=', limit: 2 },
        }),
        figure({
          name: 'vectors.cold_recall_rss',
          label: 'whole-process lore recall with the model, peak RSS',
          sizes,
          unit: 'MB',
          runs: runs.model.rss,
          baseline: { label: 'LORE_EMBED=off', runs: runs.lexical.rss },
          target: { on: 'median', op: '<=', limit: 250 },
        }),
      );
      details.cold = runs;

      // With a live owner (\`lore serve\`, as the editor or an MCP client starts), the CLI asks it:
      // no store opened, no model loaded in the CLI. Baseline: the lexical one-shot runs above.
      const owner = await startServe({ home, workspace, env: base });
      try {
        for (let i = 0; ; i++) {
          const r = spawnSync(process.execPath, [CLI, '--json', 'doctor'], {
            cwd: workspace,
            env: base,
            encoding: 'utf8',
          });
          const model = (JSON.parse(r.stdout) as { stats?: { index?: { model?: string } } }).stats?.index?.model;
          if (model === embedder.modelId) break;
          if (i >= 600) throw new Error(`the owner has no model after a minute: ${r.stdout}`);
          await delay(100);
        }
        const viaOwner = { wall: [] as number[], cpu: [] as number[], rss: [] as number[] };
        for (let round = 0; round <= options.processRuns; round++) {
          rmSync(rssFile, { force: true });
          const start = now();
          const r = spawnSync(
            process.execPath,
            [...preload, CLI, '--json', 'recall', QUERIES[round % QUERIES.length]],
            { cwd: workspace, env: base, encoding: 'utf8' },
          );
          const wall = elapsedMs(start);
          if (r.status !== 0 || !(JSON.parse(r.stdout) as { vectors: boolean }).vectors)
            throw new Error(`lore recall through the owner: ${r.status} ${r.stderr}`);
          if (round === 0) continue;
          const [cpu, rss] = readFileSync(rssFile, 'utf8').trim().split(' ').map(Number);
          viaOwner.wall.push(wall);
          viaOwner.cpu.push(cpu);
          viaOwner.rss.push(rss);
        }
        figures.push(
          figure({
            name: 'vectors.cold_recall_owner',
            label: 'whole-process lore recall answered by a live owner (its model), wall p50',
            sizes,
            unit: 'ms',
            runs: viaOwner.wall,
            baseline: { label: 'LORE_EMBED=off, no owner', runs: runs.lexical.wall },
            target: { on: 'ratio', op: '<=', limit: 2 },
          }),
          figure({
            name: 'vectors.cold_recall_owner_rss',
            label: 'whole-process lore recall answered by a live owner, peak RSS of the CLI',
            sizes,
            unit: 'MB',
            runs: viaOwner.rss,
            baseline: { label: 'LORE_EMBED=off, no owner', runs: runs.lexical.rss },
            target: { on: 'median', op: '<=', limit: 250 },
          }),
        );
        details.cold_owner = viaOwner;
      } finally {
        await owner.stop();
      }
    }
  } finally {
    await embedder.close();
    rmSync(parent, { recursive: true, force: true });
  }
  const notes: string[] = [];
  if (longLived.length >= 2) {
    const [a, b] = [longLived[0], longLived[longLived.length - 1]];
    const exponent = Math.log(b.p50 / a.p50) / Math.log(b.chunks / a.chunks);
    details.growth_exponent = exponent;
    notes.push(
      `long-lived recall with the model grows as ` +
        `size^${exponent.toFixed(2)} from ${a.chunks} to ${b.chunks} ` +
        `chunks (target ≤ 0.5)`,
    );
  }
  notes.push(
    'vectors are synthetic (clustered, anisotropic, 384 dims); the ' +
      'query is embedded by the generated MiniLM-shaped model',
  );
  return {
    bench: 'vectors',
    title: 'Recall with vectors: long-lived and whole-process',
    method: {
      store:
        'the docs corpus indexed lexically, one synthetic unit vector per ' +
        "chunk stored under the generated model's id (sign codes as the " +
        'indexer writes them)',
      long_lived:
        'engine.recall with the model loaded (1 thread), then the same ' +
        'query lexical-only, interleaved; p50 over the queries',
      search:
        'VectorCache.search (Hamming over sign codes, 400 candidates ' +
        're-ranked by exact cosine read from the store) vs brute force ' +
        'over every float vector with a full sort, same queries',
      whole_process:
        '`node dist/cli.js --json recall Q` with the model vs ' +
        'LORE_EMBED=off, alternating, after a warm-up round; CPU and peak ' +
        'RSS from bench/rssAtExit.cjs; the codes come from the packed pages ' +
        'the first search wrote (details.first_recall_ms_N: that first search)',
      through_owner:
        'the same command while `lore serve` (model loaded) owns the store: ' +
        'the CLI sends the recall over /rpc and loads no model',
    },
    figures,
    notes,
    details,
    seconds: (Date.now() - started) / 1000,
  };
}

// npx tsx bench/vectorBench.ts [--files 1500,6000,24000] [--out FILE]: this section alone.
if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const files = arg('--files')?.split(',').map(Number);
  vectorSection(vectorOptions(false, { ...(files ? { files } : {}), log: (line) => console.error(line) })).then(
    (section) => {
      const text = JSON.stringify(section, null, 1);
      const out = arg('--out');
      if (out) writeFileSync(out, text);
      for (const f of section.figures)
        console.log(`${f.name} ${JSON.stringify(f.sizes)} ${f.median} / ${f.baseline?.median}`);
    },
  );
}
