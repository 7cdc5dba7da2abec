// Trains the kind model (src/engine/indexing/kindModel.ts) from labelled repositories: multinomial
// logistic regression with L2, full-batch Adam, a fixed number of steps, samples and features in a
// fixed order and no randomness, so the same labels give the same weights file byte for byte. Only
// prose pages whose kind is a judgement are samples: the rest are kinds by definition (kindRules.ts).
// A feature is kept only if files of at least two repositories have it, so one repository's names
// never become the model's knowledge.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definedKind } from '../../src/engine/indexing/kindRules';
import { READ_LIMIT, type Features } from '../../src/engine/indexing/kindFeatures';
import type { KindWeights } from '../../src/engine/indexing/kindModel';
import { DOC_KINDS, type DocKind } from '../../src/engine/model/kinds';
import { repoContext, type LabelledRepo } from './dataset';
import { FeatureCache } from './featureCache';

export interface Sample {
  repo: string;
  path: string;
  kind: DocKind;
  features: Features;
  /** A fixed score per kind the weights add to (the second pass: the page's own log-probabilities). */
  offset?: Partial<Record<DocKind, number>>;
}

/** A labelled path as the classifier meets it: a kind by definition, or a sample for the model. */
export interface LabelledFile {
  path: string;
  kind: DocKind;
  defined: DocKind | null;
  sample: Sample | null;
}

export interface TrainSettings {
  /** L2 penalty per weight (the bias is not penalised). */
  l2: number;
  iterations: number;
  learningRate: number;
  /** A feature must occur in files of this many repositories to be learnt. */
  minRepos: number;
  /** The L2 penalty of a repository's own words (LEXICAL features) is this many times l2. */
  lexicalPenalty: number;
  /** Each repository's samples weigh (1 / its sample count) ^ this: 0 every file alike, 1 every repository alike. */
  repoBalance: number;
}

export const DEFAULT_SETTINGS: TrainSettings = {
  l2: 0.002,
  iterations: 150,
  learningRate: 0.1,
  minRepos: 2,
  lexicalPenalty: 3,
  repoBalance: 0.5,
};

function readHead(file: string): string {
  return readFileSync(file, 'utf8').slice(0, READ_LIMIT);
}

/** A repository's labelled files: the model's samples are the prose pages no definition decides. */
export function labelledFiles(repo: LabelledRepo): LabelledFile[] {
  const ctx = repoContext(repo.files);
  const cache = FeatureCache.forRepo(repo.name, repo.files);
  const files = repo.rows.map(({ path, kind }) => {
    const text = readHead(join(repo.files, path));
    const defined = definedKind(path, text, ctx)?.kind ?? null;
    const sample = defined
      ? null
      : { repo: repo.name, path, kind, features: cache.features({ path, text, conventions: ctx.conventions }) };
    return { path, kind, defined, sample };
  });
  cache.save();
  return files;
}

export function samplesOf(files: LabelledFile[]): Sample[] {
  return files.flatMap((f) => (f.sample ? [f.sample] : []));
}

/** Features named by a repository's own words (file, folder, heading names): learnt only if shared. */
const LEXICAL = /^(name|dir|pdir|title|h|bold|nav|fm|fmkey|status):/;

export function trainKinds(samples: Sample[], settings: TrainSettings = DEFAULT_SETTINGS): KindWeights {
  const classes = DOC_KINDS.filter((k) => samples.some((s) => s.kind === k));
  const reposOf = new Map<string, Set<string>>();
  for (const s of samples)
    for (const name of s.features.keys()) (reposOf.get(name) ?? reposOf.set(name, new Set()).get(name)!).add(s.repo);
  const vocabulary = [...reposOf]
    .filter(([name, repos]) => !LEXICAL.test(name) || repos.size >= settings.minRepos)
    .map(([name]) => name)
    .sort();
  const index = new Map(vocabulary.map((name, i) => [name, i]));
  const C = classes.length;
  // Samples as one flat sparse matrix (CSR): the training loop touches typed arrays only.
  const offsets = new Int32Array(samples.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  const labels = new Int32Array(samples.length);
  samples.forEach((s, r) => {
    for (const [name, value] of s.features) {
      const i = index.get(name);
      if (i !== undefined && value !== 0) {
        cols.push(i);
        vals.push(value);
      }
    }
    offsets[r + 1] = cols.length;
    labels[r] = classes.indexOf(s.kind);
  });
  const base = new Float64Array(samples.length * C);
  samples.forEach((s, r) => classes.forEach((k, c) => (base[r * C + c] = s.offset?.[k] ?? 0)));
  const col = Int32Array.from(cols);
  const val = Float64Array.from(vals);
  const perRepo = new Map<string, number>();
  for (const s of samples) perRepo.set(s.repo, (perRepo.get(s.repo) ?? 0) + 1);
  const rowWeight = Float64Array.from(samples, (s) => Math.pow(1 / perRepo.get(s.repo)!, settings.repoBalance));
  const totalWeight = rowWeight.reduce((a, b) => a + b, 0);
  for (let r = 0; r < rowWeight.length; r++) rowWeight[r] /= totalWeight;

  const W = new Float64Array(vocabulary.length * C);
  const m = new Float64Array(W.length);
  const v = new Float64Array(W.length);
  const grad = new Float64Array(W.length);
  const penalty = Float64Array.from({ length: W.length }, (_, i) => {
    const name = vocabulary[Math.floor(i / C)];
    return name === 'bias' ? 0 : LEXICAL.test(name) ? settings.l2 * settings.lexicalPenalty : settings.l2;
  });
  const scores = new Float64Array(C);
  for (let step = 1; step <= settings.iterations; step++) {
    grad.fill(0);
    for (let r = 0; r < labels.length; r++) {
      for (let c = 0; c < C; c++) scores[c] = base[r * C + c];
      for (let k = offsets[r]; k < offsets[r + 1]; k++) {
        const base = col[k] * C;
        const x = val[k];
        for (let c = 0; c < C; c++) scores[c] += x * W[base + c];
      }
      let max = -Infinity;
      for (let c = 0; c < C; c++) if (scores[c] > max) max = scores[c];
      let sum = 0;
      for (let c = 0; c < C; c++) sum += scores[c] = Math.exp(scores[c] - max);
      const weight = rowWeight[r];
      for (let c = 0; c < C; c++) scores[c] = weight * (scores[c] / sum - (c === labels[r] ? 1 : 0));
      for (let k = offsets[r]; k < offsets[r + 1]; k++) {
        const base = col[k] * C;
        const x = val[k];
        for (let c = 0; c < C; c++) grad[base + c] += x * scores[c];
      }
    }
    const lr = settings.learningRate;
    const correction1 = 1 - Math.pow(0.9, step);
    const correction2 = 1 - Math.pow(0.999, step);
    for (let i = 0; i < W.length; i++) {
      const g = grad[i] + penalty[i] * W[i];
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      W[i] -= (lr * (m[i] / correction1)) / (Math.sqrt(v[i] / correction2) + 1e-8);
    }
  }
  const weights: Record<string, number[]> = {};
  vocabulary.forEach((name, i) => {
    const w = Array.from(W.subarray(i * C, (i + 1) * C), (x) => Math.round(x * 1000) / 1000 || 0);
    if (w.some((x) => x !== 0)) weights[name] = w;
  });
  return {
    version: 1,
    classes,
    weights,
    trained: {
      repositories: perRepo.size,
      paths: samples.length,
      settings: { ...settings },
    },
  };
}

/** The weights file's text: keys in a fixed order, one feature a line (diffs stay readable). */
export function weightsJson(w: KindWeights): string {
  const names = Object.keys(w.weights).sort();
  const lines = names.map((name) => `    ${JSON.stringify(name)}: ${JSON.stringify(w.weights[name])}`);
  return (
    '{\n' +
    `  "version": ${w.version},\n` +
    `  "classes": ${JSON.stringify(w.classes)},\n` +
    `  "trained": ${JSON.stringify(w.trained)},\n` +
    `  "weights": {\n${lines.join(',\n')}\n  }\n}\n`
  );
}
