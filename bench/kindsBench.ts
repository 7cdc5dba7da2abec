// What the kind classifier costs per file (issue 23: at most 0.2 ms): classifyKind — definitions,
// features of the first 16 KiB, the model's dot product and softmax — over the synthetic docs and
// infrastructure repository (bench/docsCorpus.ts: ADRs, runbooks, guides, postmortems, READMEs of
// 1–20 KB, Terraform, manifests, charts, Dockerfiles, workflows), with the repository's context built
// once as the indexer builds it. Baseline in the same rounds: reading the same files from disk.
// The prose pages (the model's) are reported on their own too. Both sides are timed in process CPU
// time (user + system), so a loaded machine does not inflate the figure. Where the blind-labelled checkouts are
// on the machine (LORE_EVAL_REPOS, default /work/evalrepos: eval/kinds/README.md), also over every
// labelled path of them: real repositories' files, each with its own repository's context.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyContextOf, classifyKind } from '../src/engine/indexing/classify';
import { definedKind } from '../src/engine/indexing/kindRules';
import { ownReadingOf, reconsiderKinds, storedOwnReading } from '../src/engine/indexing/kindSiblings';
import { labelledRepos, repoContext } from '../eval/kinds/dataset';
import { docsCorpus, writeCorpus } from './docsCorpus';
import { figure, type Section } from './result';

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
      const t = process.cpuUsage();
      work();
      return cpuMs(t) / count;
    };
    const runs = { all: [] as number[], prose: [] as number[], read: [] as number[], second: [] as number[] };
    // The second pass works on what the store holds: each file's kind and own reading, as rows.
    const rows = files.map((f, id) => {
      const v = classifyKind(f.path, f.text, ctx, { explain: true });
      return {
        ...{ id, path: f.path, kind: v.kind, kind_confidence: v.confidence, kind_runner_up: null },
        ...{ kind_signals: null, kind_own: storedOwnReading(ownReadingOf(v)) },
      };
    });
    for (let round = 0; round < options.rounds; round++) {
      runs.read.push(perFile(() => files.forEach((f) => readFileSync(join(dir, f.path), 'utf8')), files.length));
      runs.all.push(perFile(() => files.forEach((f) => classifyKind(f.path, f.text, ctx)), files.length));
      runs.prose.push(perFile(() => prose.forEach((f) => classifyKind(f.path, f.text, ctx)), prose.length));
      runs.second.push(perFile(() => reconsiderKinds(rows), files.length));
    }
    const baseline = { label: 'reading the file', runs: runs.read };
    const target = { on: 'median' as const, op: '<=' as const, limit: 0.2 };
    const real = realSample(options);
    return {
      bench: 'kinds',
      title: 'Kind classification per file',
      method: {
        'kinds.all': 'classifyKind over every indexed file of the synthetic repository, ms per file, median of rounds',
        'kinds.prose': 'the same over the prose pages only (the ones the model judges)',
        'kinds.second_pass':
          'the second pass (kindSiblings.ts reconsiderKinds) over every file’s stored kind and own reading, ' +
          'ms per file',
        'kinds.real':
          'classifyKind over every labelled path of the blind-labelled checkouts (eval/kinds), each with its ' +
          'repository context; baseline: reading those files, in the same rounds',
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
        figure({
          name: 'kinds.second_pass',
          label: 'second pass (siblings), per file',
          sizes: { files: files.length },
          unit: 'ms',
          runs: runs.second,
          baseline,
          target,
        }),
        ...(real
          ? [
              figure({
                name: 'kinds.real',
                label: 'kind of a file (real repositories)',
                sizes: { files: real.files, repositories: real.repositories },
                unit: 'ms',
                runs: real.runs,
                baseline: { label: 'reading the file', runs: real.read },
                target,
              }),
            ]
          : []),
      ],
      notes: real ? [] : ['kinds.real skipped: no blind-labelled checkouts (LORE_EVAL_REPOS)'],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every labelled path of the checkouts, timed as the synthetic corpus is; null without checkouts. */
function realSample(
  options: KindsBenchOptions,
): { files: number; repositories: number; runs: number[]; read: number[] } | null {
  const { repos } = existsSync(process.env.LORE_EVAL_REPOS ?? '/work/evalrepos') ? labelledRepos() : { repos: [] };
  if (!repos.length) return null;
  const sample = repos.map((repo) => {
    const ctx = repoContext(repo.files);
    const paths = repo.rows.map((r) => join(repo.files, r.path));
    return {
      ctx,
      rows: repo.rows.map((r, i) => ({ path: r.path, file: paths[i], text: readFileSync(paths[i], 'utf8') })),
    };
  });
  const files = sample.reduce((n, s) => n + s.rows.length, 0);
  const runs: number[] = [];
  const read: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    let t = process.cpuUsage();
    for (const s of sample) for (const r of s.rows) readFileSync(r.file, 'utf8');
    read.push(cpuMs(t) / files);
    t = process.cpuUsage();
    for (const s of sample) for (const r of s.rows) classifyKind(r.path, r.text, s.ctx);
    runs.push(cpuMs(t) / files);
  }
  return { files, repositories: repos.length, runs, read };
}

/**
 * Milliseconds of this process's CPU time (user and system) since `start`: classifying is CPU work,
 * and on a machine shared with other jobs wall time measures the queue for a core, not the work.
 */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
