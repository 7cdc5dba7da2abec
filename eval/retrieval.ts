// Retrieval quality on a labelled corpus: every query of queries.jsonl is recalled against the
// indexed files/, lexical-only and hybrid (lexical fused with a local embedding model), and scored
// with recall@5, MRR@10 and nDCG@10 (binary relevance: a result is relevant when its path is one
// of the query's `relevant` paths). Lexical runs twice, with and without the boost for a kind
// the question names, to show its effect. Then memories among the documents: a decision recorded
// for each of the first prose documents, asked by its exact title, must rank in the top 3 (the
// document it restates competes; the other documents must not drown it).
//
// Hybrid needs a model. `--model DIR` names any local transformers.js model folder (a real one
// measures something); without it a tiny generated model is used, which exercises the whole path
// but carries no meaning, so its hybrid figures say nothing about quality.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type Embedder } from '../src/engine';
import { createEmbedder, isEmbedderUnavailable } from '../src/host/embed/createEmbedder';
import { WorkspaceFileSource } from '../src/host/fileSource';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { makeTinyModel } from '../scripts/makeTinyModel';

export interface Query {
  id: string;
  query: string;
  relevant: string[];
}

export interface RetrievalScores {
  mode: 'lexical' | 'hybrid' | 'no-intent';
  model: string | null;
  queries: number;
  recallAt5: number;
  mrrAt10: number;
  ndcgAt10: number;
  hitAt: Record<1 | 5 | 10, number>;
  misses: Array<{ id: string; rank: number | null; top: string }>;
}

export function readQueries(corpus: string): Query[] {
  return readFileSync(join(corpus, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Query);
}

/** Scores one ranked list of paths against the relevant set. */
export function scoreRanking(
  ranked: string[],
  relevant: string[],
): { rank: number | null; recallAt5: number; reciprocal: number; ndcg: number } {
  const wanted = new Set(relevant);
  const top10 = ranked.slice(0, 10);
  const index = top10.findIndex((p) => wanted.has(p));
  const rank = index < 0 ? null : index + 1;
  const found5 = new Set(ranked.slice(0, 5).filter((p) => wanted.has(p))).size;
  let dcg = 0;
  const seen = new Set<string>();
  top10.forEach((p, i) => {
    if (wanted.has(p) && !seen.has(p)) {
      seen.add(p);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, 10); i++) ideal += 1 / Math.log2(i + 2);
  return {
    rank,
    recallAt5: wanted.size ? found5 / wanted.size : 0,
    reciprocal: rank ? 1 / rank : 0,
    ndcg: ideal ? dcg / ideal : 0,
  };
}

async function scoreEngine(
  engine: Engine,
  queries: Query[],
  mode: RetrievalScores['mode'],
  model: string | null,
): Promise<RetrievalScores> {
  const options = mode === 'no-intent' ? { intent: false } : undefined;
  const scores: RetrievalScores = {
    mode,
    model,
    queries: queries.length,
    recallAt5: 0,
    mrrAt10: 0,
    ndcgAt10: 0,
    hitAt: { 1: 0, 5: 0, 10: 0 },
    misses: [],
  };
  for (const q of queries) {
    const { results } = await engine.recall({ query: q.query, limit: 10 }, options);
    const ranked = results.map((r) => (r.record === 'doc' ? r.path : r.key));
    const s = scoreRanking(ranked, q.relevant);
    scores.recallAt5 += s.recallAt5;
    scores.mrrAt10 += s.reciprocal;
    scores.ndcgAt10 += s.ndcg;
    for (const k of [1, 5, 10] as const) if (s.rank && s.rank <= k) scores.hitAt[k]++;
    if (s.rank !== 1) scores.misses.push({ id: q.id, rank: s.rank, top: ranked[0] ?? '-' });
  }
  const n = queries.length || 1;
  scores.recallAt5 /= n;
  scores.mrrAt10 /= n;
  scores.ndcgAt10 /= n;
  return scores;
}

export async function indexedEngine(corpus: string, embedder?: Embedder): Promise<Engine> {
  const engine = new Engine({ db: new WasmSqlDatabase(':memory:'), embedder });
  const run = engine.index(new WorkspaceFileSource(join(corpus, 'files')));
  while (!(await run.next()).done);
  return engine;
}

export interface RetrievalOptions {
  /** A local model folder for the hybrid run; default: a tiny generated model (no meaning). */
  modelDir?: string;
  /** Also run hybrid. Default true. */
  hybrid?: boolean;
}

export interface MemoryAmongDocs {
  chunks: number;
  memories: number;
  inTop3: number;
  meanRank: number;
  misses: Array<{ title: string; rank: number | null }>;
}

const MEMORY_SAMPLE = 20;

/** Decisions restating the first prose documents' titles, each asked by its exact title. */
export async function memoryAmongDocs(engine: Engine): Promise<MemoryAmongDocs> {
  const docs = engine.listDocs({ kinds: ['adr', 'rfc', 'runbook', 'postmortem', 'guide'], limit: MEMORY_SAMPLE }).items;
  const saved = docs.map((doc) => {
    const title = doc.title.replace(/^(ADR|RFC)[-\s]?\d+[:.\s-]*/i, '').trim() || doc.title;
    const { key } = engine.remember(
      { door: 'test', name: 'eval' },
      {
        type: 'decision',
        title,
        description: `Settled as written in ${doc.path}`,
        provenance: { source: 'user', client: 'eval' },
      },
    );
    return { key, title };
  });
  const out: MemoryAmongDocs = {
    chunks: engine.indexStatus().chunks,
    memories: saved.length,
    inTop3: 0,
    meanRank: 0,
    misses: [],
  };
  for (const m of saved) {
    const { results } = await engine.recall({ query: m.title, limit: 50 });
    const index = results.findIndex((r) => r.key === m.key);
    const rank = index < 0 ? null : index + 1;
    out.meanRank += rank ?? 51;
    if (rank !== null && rank <= 3) out.inTop3++;
    else out.misses.push({ title: m.title, rank });
  }
  out.meanRank /= saved.length || 1;
  return out;
}

export async function evaluateRetrieval(corpus: string, options: RetrievalOptions = {}): Promise<RetrievalScores[]> {
  const queries = readQueries(corpus);
  const lexical = await indexedEngine(corpus);
  const out = [
    await scoreEngine(lexical, queries, 'lexical', null),
    await scoreEngine(lexical, queries, 'no-intent', null),
  ];
  if (options.hybrid === false) return out;
  const scratch = options.modelDir ? undefined : mkdtempSync(join(tmpdir(), 'lore-eval-model-'));
  try {
    const modelDir = options.modelDir ?? makeTinyModel(scratch!).path;
    const embedder = await createEmbedder({ modelDir, threads: 2 });
    if (isEmbedderUnavailable(embedder))
      throw new Error(`the model for the hybrid run is unavailable: ${embedder.reason}`);
    try {
      out.push(
        await scoreEngine(
          await indexedEngine(corpus, embedder),
          queries,
          'hybrid',
          options.modelDir ? embedder.modelId : `${embedder.modelId} (tiny generated model: no meaning)`,
        ),
      );
    } finally {
      await embedder.close();
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}

export function renderMemoryAmongDocs(m: MemoryAmongDocs, verbose = false): string {
  const lines = [
    `memories among ${m.chunks} document chunks: ` +
      `${m.inTop3}/${m.memories} decisions asked by their title in the ` +
      `top 3 (mean rank ${m.meanRank.toFixed(2)})`,
  ];
  if (verbose) for (const miss of m.misses) lines.push(`  "${miss.title}": rank ${miss.rank ?? '>50'}`);
  return lines.join('\n');
}

export function renderRetrieval(all: RetrievalScores[], verbose = false): string {
  const lines = [
    `retrieval over ${all[0]?.queries ?? 0} queries`,
    'mode       recall@5  MRR@10  nDCG@10  hit@1  hit@5  hit@10  model',
  ];
  for (const s of all) {
    lines.push(
      `${s.mode.padEnd(10)} ${s.recallAt5.toFixed(3).padStart(8)}  ` +
        `${s.mrrAt10.toFixed(3).padStart(6)}  ` +
        `${s.ndcgAt10.toFixed(3).padStart(7)}  ` +
        `${String(s.hitAt[1]).padStart(5)}  ` +
        `${String(s.hitAt[5]).padStart(5)}  ` +
        `${String(s.hitAt[10]).padStart(6)}  ${s.model ?? '-'}`,
    );
  }
  if (verbose)
    for (const s of all)
      for (const m of s.misses)
        lines.push(`  ${s.mode} ${m.id}: first relevant at ${m.rank ?? '>10'}; top was ${m.top}`);
  return lines.join('\n');
}
