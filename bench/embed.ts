// `npx tsx bench/embed.ts [--quick] [--texts N] [--reps N] [--words N] [--out FILE] [--model-dir DIR]`
//
// Embedding throughput (texts/s) of the real path — TransformersEmbedder: transformers.js
// feature extraction in its worker_thread — with a MiniLM-shaped random-weight model (6 layers,
// 384 hidden, 30522-token vocabulary; generated, since no weights can be downloaded here), at
// batch sizes 1, 8 and 32 and 1 vs 2 intra-op threads, on native onnxruntime-node and on the
// WebAssembly runtime when both load. Each figure is the median of several timed runs after a
// warm-up. Full runs write bench/embed-results.json; --quick runs fewer texts and one dtype, and
// writes to the temp folder unless --out says otherwise.

import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeTinyModel, PRESETS } from '../scripts/makeTinyModel';
import type { Backend } from '../src/host/embed/protocol';
import { createTransformersEmbedder, isEmbedderUnavailable } from '../src/host/embed/transformersEmbedder';

interface Options {
  quick: boolean;
  texts: number;
  reps: number;
  words: number;
  out: string;
  modelDir?: string;
}

interface Row {
  dtype: 'q8' | 'fp32';
  backend: Backend;
  threads: number;
  batch: number;
  textsPerSecond?: number;
  runsTextsPerSecond?: number[];
  loadMs?: number;
  error?: string;
}

function parse(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    quick,
    texts: Number(value('--texts') ?? (quick ? 16 : 96)),
    reps: Math.max(3, Number(value('--reps') ?? 3)),
    words: Number(value('--words') ?? (quick ? 40 : 100)),
    out: resolve(value('--out') ?? (quick ? join(tmpdir(), 'lore-embed-results.json') : 'bench/embed-results.json')),
    modelDir: value('--model-dir'),
  };
}

const WORDS = ('deploy rollback kubernetes cluster migration postgres database index query timeout retry latency ' +
  'incident runbook decision service worker queue cache memory release pipeline terraform module secret token ' +
  'the of and to in is for on with that this from restart failed error config version build test node pod').split(' ');

/** Deterministic chunk-like texts of `words` words each (every word is one token in the generated vocabulary). */
function makeTexts(n: number, words: number): string[] {
  let seed = 12345;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  return Array.from({ length: n }, (_, i) => `Chunk ${i}. ` + Array.from({ length: words }, () => WORDS[next() % WORDS.length]).join(' ') + '.');
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function measure(modelDir: string, dtype: Row['dtype'], backend: Backend, threads: number, batches: number[], texts: string[], reps: number): Promise<Row[]> {
  const embedder = await createTransformersEmbedder({ modelDir, dtype, backend, threads, nativeModule: backend === 'native' ? 'onnxruntime-node' : undefined });
  if (isEmbedderUnavailable(embedder)) return batches.map((batch) => ({ dtype, backend, threads, batch, error: embedder.reason }));
  const rows: Row[] = [];
  try {
    if (embedder.backend !== backend) throw new Error(`asked for ${backend}, got ${embedder.backend}: ${embedder.fallbackReason}`);
    for (const batch of batches) {
      embedder.batchSize = batch;
      await embedder.embed(texts.slice(0, Math.min(texts.length, batch * 2))); // warm-up
      const runs: number[] = [];
      for (let r = 0; r < reps; r++) {
        const started = process.hrtime.bigint();
        await embedder.embed(texts);
        runs.push(texts.length / (Number(process.hrtime.bigint() - started) / 1e9));
      }
      rows.push({ dtype, backend, threads, batch, textsPerSecond: median(runs), runsTextsPerSecond: runs, loadMs: embedder.loadMs });
    }
  } catch (err) {
    for (const batch of batches.filter((b) => !rows.some((r) => r.batch === b))) rows.push({ dtype, backend, threads, batch, error: (err as Error).message });
  } finally {
    await embedder.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const log = (line: string): void => console.log(line);
  const loadBefore = loadavg()[0];

  let modelDir = options.modelDir;
  let generatedMs: number | undefined;
  if (!modelDir) {
    const root = join(tmpdir(), 'lore-bench-models');
    modelDir = join(root, 'minilm-random');
    if (!existsSync(join(modelDir, 'onnx', 'model_quantized.onnx')) || !existsSync(join(modelDir, 'onnx', 'model.onnx'))) {
      const started = Date.now();
      makeTinyModel(root, { ...PRESETS.minilm, dtypes: ['q8', 'fp32'], seed: 42 });
      generatedMs = Date.now() - started;
      log(`generated the MiniLM-shaped random model in ${generatedMs} ms (${modelDir})`);
    }
  }

  const texts = makeTexts(options.texts, options.words);
  const batches = [1, 8, 32];
  const plan: Array<[Row['dtype'], Backend, number]> = [];
  for (const dtype of options.quick ? (['q8'] as const) : (['q8', 'fp32'] as const)) {
    for (const backend of ['native', 'wasm'] as const) for (const threads of [1, 2]) plan.push([dtype, backend, threads]);
  }
  log(`${texts.length} texts of ${options.words} words, median of ${options.reps} runs, ${cpus().length} CPUs, load ${loadBefore.toFixed(2)}`);
  const rows: Row[] = [];
  for (const [dtype, backend, threads] of plan) {
    const got = await measure(modelDir, dtype, backend, threads, batches, texts, options.reps);
    for (const r of got) {
      log(r.error ? `${dtype} ${backend} threads=${threads} batch=${r.batch}: ${r.error}` : `${dtype} ${backend} threads=${threads} batch=${r.batch}: ${r.textsPerSecond!.toFixed(1)} texts/s`);
    }
    rows.push(...got);
  }

  const cell = (dtype: string, backend: string, threads: number, batch: number): string => {
    const r = rows.find((x) => x.dtype === dtype && x.backend === backend && x.threads === threads && x.batch === batch);
    return (r?.textsPerSecond === undefined ? 'failed' : r.textsPerSecond.toFixed(1)).padStart(9);
  };
  log('');
  log(`texts/s (median of ${options.reps})   batch=1   batch=8  batch=32`);
  for (const [dtype, backend, threads] of plan) {
    log(`${`${dtype} ${backend} threads=${threads}`.padEnd(28)}${batches.map((b) => cell(dtype, backend, threads, b)).join(' ')}`);
  }
  const nativeVsWasm = rows
    .filter((r) => r.backend === 'native' && r.textsPerSecond)
    .map((r) => {
      const w = rows.find((x) => x.backend === 'wasm' && x.dtype === r.dtype && x.threads === r.threads && x.batch === r.batch);
      return w?.textsPerSecond ? { dtype: r.dtype, threads: r.threads, batch: r.batch, ratio: r.textsPerSecond! / w.textsPerSecond } : undefined;
    })
    .filter((x) => x !== undefined);
  if (nativeVsWasm.length > 0) log(`native/WASM speed ratio: ${median(nativeVsWasm.map((x) => x.ratio)).toFixed(1)}× (median over configurations)`);

  const result = {
    bench: 'embed',
    date: new Date().toISOString(),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    model: options.modelDir ? { dir: modelDir } : { ...PRESETS.minilm, seed: 42, generatedMs, weights: 'random (no semantics)' },
    options: { quick: options.quick, texts: options.texts, wordsPerText: options.words, reps: options.reps, batches },
    rows,
    nativeVsWasm,
  };
  writeFileSync(options.out, JSON.stringify(result, null, 2) + '\n');
  log(`wrote ${options.out}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
