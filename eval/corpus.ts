// `npm run eval -- --corpus DIR`: measures the indexer on a labelled corpus laid out like
// ../shared/corpus/* (files/, classes.tsv, queries.jsonl): classification accuracy per kind with
// a confusion summary.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/engine';
import { chartRootsOf, classify } from '../src/engine/index/classify';
import { WorkspaceFileSource } from '../src/host/fileSource';
import { WasmSqlDatabase } from '../src/host/sqlite';

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, root) : [relative(root, path).split('\\').join('/')];
  });
}

export function evaluateClassification(corpus: string): { accuracy: number; total: number; wrong: Array<[string, string, string]>; perKind: Map<string, { right: number; total: number }> } {
  const files = join(corpus, 'files');
  const labels = readFileSync(join(corpus, 'classes.tsv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
  const ctx = { chartRoots: chartRootsOf(walk(files)) };
  const perKind = new Map<string, { right: number; total: number }>();
  const wrong: Array<[string, string, string]> = [];
  let right = 0;
  for (const [path, expected] of labels) {
    const got = classify(path, readFileSync(join(files, path), 'utf8'), ctx);
    const bucket = perKind.get(expected) ?? { right: 0, total: 0 };
    bucket.total++;
    if (got === expected) {
      bucket.right++;
      right++;
    } else wrong.push([path, expected, got]);
    perKind.set(expected, bucket);
  }
  return { accuracy: right / labels.length, total: labels.length, wrong, perKind };
}

export async function evaluateRetrieval(corpus: string): Promise<{ mrr: number; hitAt: Record<number, number>; total: number; misses: Array<{ id: string; rank: number | null; top: string }> }> {
  const queries = readFileSync(join(corpus, 'queries.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; query: string; relevant: string[] });
  const engine = new Engine({ db: new WasmSqlDatabase(':memory:') });
  const run = engine.index(new WorkspaceFileSource(join(corpus, 'files')));
  while (!(await run.next()).done);
  let reciprocal = 0;
  const hitAt: Record<number, number> = { 1: 0, 5: 0, 10: 0 };
  const misses: Array<{ id: string; rank: number | null; top: string }> = [];
  for (const q of queries) {
    const { results } = await engine.recall({ query: q.query, limit: 10 });
    const paths = results.map((r) => (r.record === 'doc' ? r.path : r.key));
    const index = paths.findIndex((p) => q.relevant.includes(p));
    const rank = index < 0 ? null : index + 1;
    if (rank) reciprocal += 1 / rank;
    for (const k of [1, 5, 10]) if (rank && rank <= k) hitAt[k]++;
    if (rank !== 1) misses.push({ id: q.id, rank, top: paths[0] ?? '-' });
  }
  return { mrr: reciprocal / queries.length, hitAt, total: queries.length, misses };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, verbose: { type: 'boolean', short: 'v' } } });
  if (!values.corpus) {
    console.error('usage: npm run eval -- --corpus DIR   (a folder with files/, classes.tsv, queries.jsonl)');
    process.exit(2);
  }
  const result = evaluateClassification(values.corpus);
  console.log(`classification: ${(result.accuracy * 100).toFixed(1)}% of ${result.total} files`);
  console.log('kind         right/total  accuracy');
  for (const [kind, { right, total }] of [...result.perKind].sort()) console.log(`${kind.padEnd(12)} ${`${right}/${total}`.padStart(11)}  ${((right / total) * 100).toFixed(0).padStart(7)}%`);
  const confusion = new Map<string, number>();
  for (const [, expected, got] of result.wrong) confusion.set(`${expected} → ${got}`, (confusion.get(`${expected} → ${got}`) ?? 0) + 1);
  console.log('\nconfusions (expected → got):');
  for (const [pair, n] of [...confusion].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(3)}  ${pair}`);
  if (values.verbose) for (const [path, expected, got] of result.wrong) console.log(`  ${path}: ${expected} → ${got}`);

  const retrieval = await evaluateRetrieval(values.corpus);
  console.log(`\nretrieval over ${retrieval.total} queries (lexical${''}): MRR@10 ${retrieval.mrr.toFixed(3)}; hit@1 ${retrieval.hitAt[1]}, hit@5 ${retrieval.hitAt[5]}, hit@10 ${retrieval.hitAt[10]}`);
  if (values.verbose) for (const m of retrieval.misses) console.log(`  ${m.id}: first relevant at ${m.rank ?? '>10'}; top was ${m.top}`);
}

if (require.main === module) void main();
