// `npm run eval -- --corpus DIR [--model DIR] [--lexical-only] [-v]`: measures the indexer on a
// labelled corpus laid out like ../shared/corpus/* (files/, classes.tsv, queries.jsonl):
// classification accuracy per kind with a confusion summary, then retrieval quality lexical-only
// and hybrid (eval/retrieval.ts). With --drift, the drift detector against drift.jsonl instead
// (eval/drift.ts). Without --corpus: every suite, per repository (eval/multi.ts).

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { classify, classifyContextOf } from '../src/engine/indexing/classify';
import { treeSitterSymbols } from '../src/host/symbols/treeSitter';
import { evaluateDrift, renderDrift } from './drift';
import { runAll } from './multi';
import { pathOnlyKind } from './pathRule';
import { evaluateRetrieval, indexedEngine, memoryAmongDocs, renderMemoryAmongDocs, renderRetrieval } from './retrieval';

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, root) : [relative(root, path).split('\\').join('/')];
  });
}

export interface ClassificationResult {
  accuracy: number;
  /** The same labels scored by the path-and-extension rule alone (eval/pathRule.ts). */
  pathOnly: number;
  total: number;
  wrong: Array<[string, string, string]>;
  /** Labelled paths with no file (a label set older than its files): left out of the score, listed. */
  missing: string[];
  perKind: Map<string, { right: number; pathRight: number; total: number }>;
}

/** `labels`: the folder holding classes.tsv; `files`: the folder its paths are relative to (default labels/files). */
export function evaluateClassification(labels: string, files = join(labels, 'files')): ClassificationResult {
  const rows = readFileSync(join(labels, 'classes.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'));
  const paths = walk(files);
  const ctx = classifyContextOf(paths);
  const perKind = new Map<string, { right: number; pathRight: number; total: number }>();
  const wrong: Array<[string, string, string]> = [];
  let right = 0;
  let pathRight = 0;
  const missing = rows.filter(([path]) => !existsSync(join(files, path))).map(([path]) => path);
  for (const [path, expected] of rows.filter(([p]) => !missing.includes(p))) {
    const got = classify(path, readFileSync(join(files, path), 'utf8'), ctx);
    const bucket = perKind.get(expected) ?? { right: 0, pathRight: 0, total: 0 };
    bucket.total++;
    if (pathOnlyKind(path) === expected) {
      bucket.pathRight++;
      pathRight++;
    }
    if (got === expected) {
      bucket.right++;
      right++;
    } else wrong.push([path, expected, got]);
    perKind.set(expected, bucket);
  }
  const total = rows.length - missing.length;
  return { accuracy: right / total, pathOnly: pathRight / total, total, wrong, missing, perKind };
}

async function main(): Promise<void> {
  // Without --corpus: every suite (the shared corpora and the pinned repositories, eval/multi.ts).
  if (!process.argv.some((a) => a === '--corpus' || a.startsWith('--corpus='))) {
    process.exitCode = await runAll(process.argv.slice(2));
    return;
  }
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      model: { type: 'string' },
      'lexical-only': { type: 'boolean' },
      drift: { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
    },
  });
  if (!values.corpus) {
    console.error(
      'usage: npm run eval -- --corpus DIR [--model MODEL_DIR] ' +
        '[--lexical-only] [--drift] [-v]   (a corpus folder with files/, ' +
        'classes.tsv, queries.jsonl, drift.jsonl)',
    );
    process.exit(2);
  }
  if (values.drift) {
    // Symbols located as the owner locates them: by tree-sitter where it has the grammar.
    const parser = treeSitterSymbols();
    await parser.whenReady;
    const drift = evaluateDrift(values.corpus, parser);
    console.log(renderDrift(drift, values.verbose));
    process.exitCode = drift.detected === drift.cases.length && drift.false_alarms === 0 ? 0 : 1;
    return;
  }
  const result = evaluateClassification(values.corpus);
  console.log(`classification: ${(result.accuracy * 100).toFixed(1)}% of ${result.total} files`);
  console.log('kind         right/total  accuracy');
  for (const [kind, { right, total }] of [...result.perKind].sort())
    console.log(
      `${kind.padEnd(12)} ${`${right}/${total}`.padStart(11)}  ${((right / total) * 100).toFixed(0).padStart(7)}%`,
    );
  const confusion = new Map<string, number>();
  for (const [, expected, got] of result.wrong)
    confusion.set(`${expected} → ${got}`, (confusion.get(`${expected} → ${got}`) ?? 0) + 1);
  console.log('\nconfusions (expected → got):');
  for (const [pair, n] of [...confusion].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(3)}  ${pair}`);
  if (values.verbose) for (const [path, expected, got] of result.wrong) console.log(`  ${path}: ${expected} → ${got}`);

  const retrieval = await evaluateRetrieval(values.corpus, { modelDir: values.model, hybrid: !values['lexical-only'] });
  console.log('\n' + renderRetrieval(retrieval, values.verbose));
  console.log('\n' + renderMemoryAmongDocs(await memoryAmongDocs(await indexedEngine(values.corpus)), values.verbose));
}

if (require.main === module) void main();
