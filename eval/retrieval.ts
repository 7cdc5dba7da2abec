// Retrieval quality on a labelled corpus: every query of queries.jsonl is recalled against the
// indexed files/, lexical-only and hybrid (lexical fused with a local embedding model), and scored
// with recall@5, MRR@10 and nDCG@10 (binary relevance: a result is relevant when its path is one
// of the query's `relevant` paths).
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
  mode: 'lexical' | 'hybrid';
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
export function scoreRanking(ranked: string[], relevant: string[]): { rank: number | null; recallAt5: number; reciprocal: number; ndcg: number } {
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
  return { rank, recallAt5: wanted.size ? found5 / wanted.size : 0, reciprocal: rank ? 1 / rank : 0, ndcg: ideal ? dcg / ideal : 0 };
}

async function scoreEngine(engine: Engine, queries: Query[], mode: RetrievalScores['mode'], model: string | null): Promise<RetrievalScores> {
  const scores: RetrievalScores = { mode, model, queries: queries.length, recallAt5: 0, mrrAt10: 0, ndcgAt10: 0, hitAt: { 1: 0, 5: 0, 10: 0 }, misses: [] };
  for (const q of queries) {
    const { results } = await engine.recall({ query: q.query, limit: 10 });
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

async function indexedEngine(corpus: string, embedder?: Embedder): Promise<Engine> {
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

export async function evaluateRetrieval(corpus: string, options: RetrievalOptions = {}): Promise<RetrievalScores[]> {
  const queries = readQueries(corpus);
  const out = [await scoreEngine(await indexedEngine(corpus), queries, 'lexical', null)];
  if (options.hybrid === false) return out;
  const scratch = options.modelDir ? undefined : mkdtempSync(join(tmpdir(), 'lore-eval-model-'));
  try {
    const modelDir = options.modelDir ?? makeTinyModel(scratch!).path;
    const embedder = await createEmbedder({ modelDir, threads: 2 });
    if (isEmbedderUnavailable(embedder)) throw new Error(`the model for the hybrid run is unavailable: ${embedder.reason}`);
    try {
      out.push(await scoreEngine(await indexedEngine(corpus, embedder), queries, 'hybrid', options.modelDir ? embedder.modelId : `${embedder.modelId} (tiny generated model: no meaning)`));
    } finally {
      await embedder.close();
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}

export function renderRetrieval(all: RetrievalScores[], verbose = false): string {
  const lines = [`retrieval over ${all[0]?.queries ?? 0} queries`, 'mode     recall@5  MRR@10  nDCG@10  hit@1  hit@5  hit@10  model'];
  for (const s of all) {
    lines.push(
      `${s.mode.padEnd(8)} ${s.recallAt5.toFixed(3).padStart(8)}  ${s.mrrAt10.toFixed(3).padStart(6)}  ${s.ndcgAt10.toFixed(3).padStart(7)}  ${String(s.hitAt[1]).padStart(5)}  ${String(s.hitAt[5]).padStart(5)}  ${String(s.hitAt[10]).padStart(6)}  ${s.model ?? '-'}`,
    );
  }
  if (verbose) for (const s of all) for (const m of s.misses) lines.push(`  ${s.mode} ${m.id}: first relevant at ${m.rank ?? '>10'}; top was ${m.top}`);
  return lines.join('\n');
}
