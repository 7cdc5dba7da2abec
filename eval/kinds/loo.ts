// Leave-one-repository-out evaluation of the kind classifier (issue 23, point 6): for each labelled
// repository, the model is trained on every other one and scores this one, as a user meets it on a
// repository nobody labelled. Per repository: accuracy over all kinds and over the document kinds,
// the path-only rule (eval/pathRule.ts) beside each, and optionally a baseline classifier (the old
// hand rules at a commit). Per kind: precision and recall, pooled per set. Misses are printed only
// for `dev` and `legacy` repositories: a held-out repository's files and misses are never shown.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { predictKind, type KindWeights } from '../../src/engine/indexing/kindModel';
import { DOC_KINDS, PROSE_KINDS, type DocKind } from '../../src/engine/model/kinds';
import { pathOnlyKind } from '../pathRule';
import { CrossFit, neighbourhoodOf, predictBoth, type Neighbourhood } from './secondStage';
import { repoContext, type LabelledRepo, type LabelSet } from './dataset';
import { trainWithout } from './foldPool';
import {
  DEFAULT_SETTINGS,
  labelledFiles,
  samplesOf,
  trainKinds,
  type LabelledFile,
  type Sample,
  type TrainSettings,
} from './trainer';

/** A classifier to compare against, loaded from a module (`classify`, `chartRootsOf`, `pageReadmesOf`). */
export interface Baseline {
  classify(path: string, text: string, ctx: unknown): string;
  chartRootsOf(paths: string[]): unknown;
  pageReadmesOf?(paths: string[]): unknown;
}

export interface Tally {
  right: number;
  path: number;
  baseline: number;
  total: number;
}

export interface RepoResult {
  name: string;
  set: LabelSet;
  /** Its misses were read while changing the features (source.json `misses_read`). */
  missesRead: boolean;
  all: Tally;
  docs: Tally;
  misses: Array<{ path: string; expected: DocKind; got: DocKind; confidence: number }>;
  seconds: number;
}

export interface KindCounts {
  tp: number;
  fp: number;
  fn: number;
}

const tally = (): Tally => ({ right: 0, path: 0, baseline: 0, total: 0 });

export function leaveOneOut(
  repos: LabelledRepo[],
  options: {
    settings?: TrainSettings;
    baseline?: Baseline;
    only?: string[];
    log?: (line: string) => void;
    /** Without the second pass (a page's folder's siblings): the first reading alone. */
    noSiblings?: boolean;
    /** Each repository's labelled files, already read (filesOf). */
    files?: Map<string, LabelledFile[]>;
    /** Each scored repository's model trained without it, already trained (modelsWithout). */
    models?: Map<string, KindWeights>;
  } = {},
): { results: RepoResult[]; kinds: Map<LabelSet, Map<DocKind, KindCounts>> } {
  const files = options.files ?? filesOf(repos);
  const hoods = new Map<string, Neighbourhood>(
    options.noSiblings ? [] : repos.map((r) => [r.name, neighbourhoodOf(r, files.get(r.name)!)]),
  );
  const crossFit = options.noSiblings ? null : new CrossFit([...hoods.values()], options.settings ?? DEFAULT_SETTINGS);
  const results: RepoResult[] = [];
  const kinds = new Map<LabelSet, Map<DocKind, KindCounts>>();
  for (const repo of repos.filter((r) => !options.only || options.only.includes(r.name))) {
    const started = Date.now();
    const training = repos.filter((r) => r !== repo).flatMap((r) => samplesOf(files.get(r.name)!));
    const weights = options.models?.get(repo.name) ?? trainKinds(training, options.settings ?? DEFAULT_SETTINGS);
    const both = crossFit ? predictBoth(hoods.get(repo.name)!, weights, crossFit.secondStage(repo.name)) : null;
    const result: RepoResult = {
      name: repo.name,
      set: repo.set,
      missesRead: repo.missesRead,
      all: tally(),
      docs: tally(),
      misses: [],
      seconds: 0,
    };
    const baselineKinds = options.baseline ? baselineOf(options.baseline, repo) : null;
    const perKind = kinds.get(repo.set) ?? kinds.set(repo.set, new Map()).get(repo.set)!;
    const count = (k: DocKind) => perKind.get(k) ?? perKind.set(k, { tp: 0, fp: 0, fn: 0 }).get(k)!;
    for (const file of files.get(repo.name)!) {
      const verdict = both?.get(file.path) ?? (file.sample ? predictKind(weights, file.sample.features) : null);
      const got = file.defined ?? verdict!.kind;
      for (const t of PROSE_KINDS.includes(file.kind) ? [result.all, result.docs] : [result.all]) {
        t.total++;
        if (got === file.kind) t.right++;
        if (pathOnlyKind(file.path) === file.kind) t.path++;
        if (baselineKinds?.get(file.path) === file.kind) t.baseline++;
      }
      if (got === file.kind) count(got).tp++;
      else {
        count(got).fp++;
        count(file.kind).fn++;
        result.misses.push({ path: file.path, expected: file.kind, got, confidence: verdict?.confidence ?? 1 });
      }
    }
    result.seconds = (Date.now() - started) / 1000;
    results.push(result);
    options.log?.(`   ${repo.name}: trained on ${training.length} pages of ${repos.length - 1} repositories`);
  }
  return { results, kinds };
}

/** Every repository's labelled files, read once (features from the cache where unchanged, featureCache.ts). */
export function filesOf(repos: LabelledRepo[]): Map<string, LabelledFile[]> {
  return new Map<string, LabelledFile[]>(repos.map((r) => [r.name, labelledFiles(r)]));
}

/** Each scored repository's model, trained on every other one, in worker threads (foldPool.ts). */
export async function modelsWithout(
  repos: LabelledRepo[],
  files: Map<string, LabelledFile[]>,
  options: { settings?: TrainSettings; only?: string[] } = {},
): Promise<Map<string, KindWeights>> {
  const scored = repos.filter((r) => !options.only || options.only.includes(r.name)).map((r) => r.name);
  const byRepo = repos.map((r): [string, Sample[]] => [r.name, samplesOf(files.get(r.name)!)]);
  const models = await trainWithout(
    byRepo,
    scored.map((name) => [name]),
    options.settings ?? DEFAULT_SETTINGS,
  );
  return new Map(scored.map((name, i) => [name, models[i]]));
}

function baselineOf(baseline: Baseline, repo: LabelledRepo): Map<string, string> {
  const { paths } = repoContext(repo.files);
  const ctx = { chartRoots: baseline.chartRootsOf(paths), pageReadmes: baseline.pageReadmesOf?.(paths) };
  return new Map(
    repo.rows.map(({ path }) => [path, baseline.classify(path, readFileSync(join(repo.files, path), 'utf8'), ctx)]),
  );
}

const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : '-');

/** The report: per repository (dev and held-out apart), per kind, pooled; misses only where allowed. */
export function renderLoo(
  { results, kinds }: ReturnType<typeof leaveOneOut>,
  options: { verbose?: boolean; baseline?: boolean } = {},
): string {
  const out: string[] = [];
  const b = options.baseline;
  const header =
    `repository                    set        files  all     path    ${b ? 'before  ' : ''}` +
    `docs  docs:acc path    ${b ? 'before' : ''}`;
  for (const set of ['dev', 'held-out', 'legacy'] as const) {
    const block = results.filter((r) => r.set === set);
    if (!block.length) continue;
    out.push('', `${set === 'legacy' ? 'legacy labels (not blind: development only)' : set}:`, header);
    const pooled = { all: tally(), docs: tally() };
    for (const r of block) {
      for (const k of ['all', 'docs'] as const)
        for (const f of ['right', 'path', 'baseline', 'total'] as const) pooled[k][f] += r[k][f];
      out.push(row(r.name, set, r.all, r.docs, b, r.missesRead && set === 'held-out'));
    }
    out.push(row('pooled', set, pooled.all, pooled.docs, b));
    const read = block.filter((r) => r.missesRead);
    if (set === 'held-out' && read.length) {
      const unread = { all: tally(), docs: tally() };
      for (const r of block.filter((x) => !x.missesRead))
        for (const k of ['all', 'docs'] as const)
          for (const f of ['right', 'path', 'baseline', 'total'] as const) unread[k][f] += r[k][f];
      out.push(row('pooled, never read', set, unread.all, unread.docs, b));
      out.push(`   * misses read while changing the features (${read.map((r) => r.name).join(', ')}): not held out`);
    }
    out.push('', `per kind (${set}, pooled):  kind  precision  recall  (labelled)`);
    const perKind = kinds.get(set)!;
    for (const kind of DOC_KINDS) {
      const k = perKind.get(kind);
      if (!k || k.tp + k.fn === 0) continue;
      out.push(
        `   ${kind.padEnd(11)} ${pct(k.tp, k.tp + k.fp).padStart(9)} ${pct(k.tp, k.tp + k.fn).padStart(7)}` +
          `  (${k.tp + k.fn})`,
      );
    }
    if (options.verbose && set !== 'held-out')
      for (const r of block)
        for (const m of r.misses)
          out.push(`   miss ${r.name}: ${m.path}: ${m.expected} → ${m.got} (${m.confidence.toFixed(2)})`);
  }
  return out.join('\n');
}

function row(name: string, set: string, all: Tally, docs: Tally, baseline?: boolean, read = false): string {
  return (
    `${name.padEnd(29)} ${(read ? `${set}*` : set).padEnd(9)} ${String(all.total).padStart(6)}` +
    `  ${pct(all.right, all.total).padStart(6)}` +
    `  ${pct(all.path, all.total).padStart(6)}${baseline ? `  ${pct(all.baseline, all.total).padStart(6)}` : ''}` +
    `  ${String(docs.total).padStart(5)}  ${pct(docs.right, docs.total).padStart(6)}` +
    `  ${pct(docs.path, docs.total).padStart(6)}${baseline ? `  ${pct(docs.baseline, docs.total).padStart(6)}` : ''}`
  );
}
