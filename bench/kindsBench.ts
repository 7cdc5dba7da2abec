// What the kind classifier costs per file (issue 23: at most 0.2 ms): classifyKind — definitions,
// features of the first 16 KiB, the model's dot product and softmax — over the synthetic docs and
// infrastructure repository (bench/docsCorpus.ts: ADRs, runbooks, guides, postmortems, READMEs of
// 1–20 KB, Terraform, manifests, charts, Dockerfiles, workflows), with the repository's context built
// once as the indexer builds it. Baseline in the same rounds: reading the same files from disk.
// The prose pages (the model's) are reported on their own too.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyContextOf, classifyKind } from '../src/engine/indexing/classify';
import { definedKind } from '../src/engine/indexing/kindRules';
import { docsCorpus, writeCorpus } from './docsCorpus';
import { elapsedMs, figure, now, type Section } from './result';

export interface KindsBenchOptions {
  quick: boolean;
  files: number;
  rounds: number;
  dir?: string;
}

export function kindsOptions(quick: boolean, overrides: Partial<KindsBenchOptions> = {}): KindsBenchOptions {
  return { quick, files: quick ? 100 : 2000, rounds: quick ? 3 : 9, ...overrides };
}

export function kindsSection(options: KindsBenchOptions): Section {
  const started = Date.now();
  const files = docsCorpus(options.files).filter((f) => f.indexed);
  const dir = mkdtempSync(join(options.dir ?? tmpdir(), 'lore-bench-kinds-'));
  try {
    writeCorpus(dir, files);
    const ctx = classifyContextOf(files.map((f) => f.path));
    const prose = files.filter((f) => !definedKind(f.path, f.text, ctx));
    const perFile = (work: () => void, count: number) => {
      const t = now();
      work();
      return elapsedMs(t) / count;
    };
    const runs = { all: [] as number[], prose: [] as number[], read: [] as number[] };
    for (let round = 0; round < options.rounds; round++) {
      runs.read.push(perFile(() => files.forEach((f) => readFileSync(join(dir, f.path), 'utf8')), files.length));
      runs.all.push(perFile(() => files.forEach((f) => classifyKind(f.path, f.text, ctx)), files.length));
      runs.prose.push(perFile(() => prose.forEach((f) => classifyKind(f.path, f.text, ctx)), prose.length));
    }
    const baseline = { label: 'reading the file', runs: runs.read };
    const target = { on: 'median' as const, op: '<=' as const, limit: 0.2 };
    return {
      bench: 'kinds',
      title: 'Kind classification per file',
      method: {
        'kinds.all': 'classifyKind over every indexed file of the synthetic repository, ms per file, median of rounds',
        'kinds.prose': 'the same over the prose pages only (the ones the model judges)',
      },
      figures: [
        figure({
          name: 'kinds.all',
          label: 'kind of a file',
          sizes: { files: files.length },
          unit: 'ms',
          runs: runs.all,
          baseline,
          target,
        }),
        figure({
          name: 'kinds.prose',
          label: 'kind of a prose page (model)',
          sizes: { files: prose.length },
          unit: 'ms',
          runs: runs.prose,
          baseline,
          target,
        }),
      ],
      notes: [],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
