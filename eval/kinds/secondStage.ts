// Training and scoring the kind classifier's second pass (src/engine/indexing/kindSiblings.ts): a
// labelled page's own reading weighed with what its folder's files (and the files of its name in
// the folders beside its own) read as. At index time every file of the folder has been read, so the
// neighbourhood here is every file of the checkout in those folders, labelled or not, read by the
// first-stage model as the index would read it.
//
// The second model must learn from first readings that are as wrong as they are on a repository
// the first model never saw, so its training readings are cross-fitted: the repositories are cut
// into FOLDS parts (by name order) and each one is read by a first model trained without its part.
// In the leave-one-repository-out evaluation, the readings that train the second model for
// repository R come from first models trained without R's part as well, so neither stage ever saw
// R's labels. Deterministic: folds by name order, the trainer has no randomness.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definedKind } from '../../src/engine/indexing/kindRules';
import { READ_LIMIT, type Features } from '../../src/engine/indexing/kindFeatures';
import { predictKind, type KindWeights } from '../../src/engine/indexing/kindModel';
import {
  NeighbourIndex,
  ownOffset,
  reconsidered,
  siblingFeatures,
  siblingVerdict,
  type Neighbour,
  type OwnReading,
} from '../../src/engine/indexing/kindSiblings';
import { PROSE_KINDS, type DocKind } from '../../src/engine/model/kinds';
import { baseName, dirName } from '../../src/engine/text/paths';
import { repoContext, type LabelledRepo } from './dataset';
import { FeatureCache } from './featureCache';
import { DEFAULT_SETTINGS, samplesOf, trainKinds, type LabelledFile, type Sample, type TrainSettings } from './trainer';

export const FOLDS = 5;

export const SIBLING_SETTINGS: TrainSettings = { ...DEFAULT_SETTINGS, l2: 0.0005, iterations: 400 };

interface Unlabelled {
  path: string;
  defined: DocKind | null;
  features: Features | null;
}

/** A repository as the second pass meets it: its labelled files and the unlabelled files beside them. */
export interface Neighbourhood {
  name: string;
  files: LabelledFile[];
  others: Unlabelled[];
}

const cousinKey = (path: string) => `${dirName(dirName(path))}\u0000${baseName(path).toLowerCase()}`;

/** Every checkout file in a labelled prose page's folder or of its name beside its folder. */
export function neighbourhoodOf(repo: LabelledRepo, files: LabelledFile[]): Neighbourhood {
  const ctx = repoContext(repo.files);
  const pages = files.filter((f) => f.sample);
  const folders = new Set(pages.map((f) => dirName(f.path)));
  const cousins = new Set(pages.map((f) => cousinKey(f.path)));
  const labelled = new Set(files.map((f) => f.path));
  const cache = FeatureCache.forRepo(repo.name, repo.files);
  const others = ctx.paths
    .filter((p) => !labelled.has(p) && (folders.has(dirName(p)) || cousins.has(cousinKey(p))))
    .map((path): Unlabelled => {
      const text = readFileSync(join(repo.files, path), 'utf8').slice(0, READ_LIMIT);
      const defined = definedKind(path, text, ctx)?.kind ?? null;
      return { path, defined, features: defined ? null : cache.features({ path, text, conventions: ctx.conventions }) };
    });
  cache.save();
  return { name: repo.name, files, others };
}

/** Each file's first reading under a first-stage model: the neighbours, and the labelled pages' own readings. */
function readingsOf(hood: Neighbourhood, stage1: KindWeights): { index: NeighbourIndex; own: Map<string, OwnReading> } {
  const own = new Map<string, OwnReading>();
  const neighbours: Neighbour[] = [];
  const read = (path: string, defined: DocKind | null, features: Features | null) => {
    if (defined || !features) {
      neighbours.push({ path, kind: defined ?? 'other', confidence: 1 });
      return;
    }
    const verdict = predictKind(stage1, features);
    neighbours.push({ path, kind: verdict.kind, confidence: verdict.confidence });
    own.set(path, { scores: verdict.scores!, signals: [] });
  };
  for (const f of hood.files) read(f.path, f.defined, f.sample?.features ?? null);
  for (const o of hood.others) read(o.path, o.defined, o.features);
  return { index: new NeighbourIndex(neighbours), own };
}

/** The second model's samples of one repository: labelled prose pages whose first reading is prose. */
function secondStageSamples(hood: Neighbourhood, stage1: KindWeights): Sample[] {
  const { index, own } = readingsOf(hood, stage1);
  return hood.files.flatMap((f) => {
    const reading = own.get(f.path);
    if (!f.sample || !reading || !reconsidered(reading) || !PROSE_KINDS.includes(f.kind)) return [];
    const features = siblingFeatures(f.path, index, reading);
    return [{ repo: hood.name, path: f.path, kind: f.kind, features, offset: ownOffset(reading) }];
  });
}

/** Each labelled file's kind after both passes (a definition's kind where one decides). */
export function predictBoth(
  hood: Neighbourhood,
  stage1: KindWeights,
  stage2: KindWeights,
): Map<string, { kind: DocKind; confidence: number }> {
  const { index, own } = readingsOf(hood, stage1);
  const out = new Map<string, { kind: DocKind; confidence: number }>();
  for (const f of hood.files) {
    const reading = own.get(f.path);
    if (f.defined || !reading) out.set(f.path, { kind: f.defined ?? 'other', confidence: 1 });
    else if (!reconsidered(reading)) out.set(f.path, { kind: reading.scores[0][0], confidence: reading.scores[0][1] });
    else {
      const { verdict } = siblingVerdict(f.path, reading, index, stage2);
      out.set(f.path, { kind: verdict.kind, confidence: verdict.confidence });
    }
  }
  return out;
}

/** First-stage models trained without some of the FOLDS parts, each trained once, and the readings they give. */
export class CrossFit {
  private readonly part = new Map<string, number>();
  private readonly models = new Map<string, KindWeights>();
  private readonly samples = new Map<string, Sample[]>();

  constructor(
    private readonly hoods: Neighbourhood[],
    private readonly settings: TrainSettings = DEFAULT_SETTINGS,
  ) {
    [...hoods].sort((a, b) => (a.name < b.name ? -1 : 1)).forEach((h, i) => this.part.set(h.name, i % FOLDS));
  }

  private model(without: number[]): KindWeights {
    const key = [...new Set(without)].sort().join(',');
    let model = this.models.get(key);
    if (!model) {
      const excluded = new Set(without);
      const training = this.hoods
        .filter((h) => !excluded.has(this.part.get(h.name)!))
        .flatMap((h) => samplesOf(h.files));
      model = trainKinds(training, this.settings);
      this.models.set(key, model);
    }
    return model;
  }

  private samplesOf(hood: Neighbourhood, without: number[]): Sample[] {
    const key = `${[...new Set(without)].sort().join(',')}|${hood.name}`;
    let samples = this.samples.get(key);
    if (!samples) {
      samples = secondStageSamples(hood, this.model(without));
      this.samples.set(key, samples);
    }
    return samples;
  }

  /** The second model; `without`: a repository neither stage may learn from (leave one out). */
  secondStage(without?: string): KindWeights {
    const held = without === undefined ? [] : [this.part.get(without)!];
    const samples = this.hoods
      .filter((h) => h.name !== without)
      .flatMap((h) => this.samplesOf(h, [...held, this.part.get(h.name)!]));
    return trainAgreement(samples);
  }
}

/** The second model's neighbour signals: a folder's siblings and the same-named files beside it. */
const PULLS = ['pull', 'cousin'] as const;

/**
 * The second model, trained as tied weights: one weight per neighbour signal (`pull`, `cousin`),
 * shared by every kind and counted only towards the kind the neighbours are (a diagonal), never
 * below 0, and no bias. A folder can then only agree with a kind the page's own reading holds open;
 * it cannot learn that incident folders mean changelogs, and with no neighbours the page keeps its
 * own reading exactly. Maximum likelihood from the pages' own log-probabilities (the offset) with an
 * L2 penalty, by full-batch gradient descent over two numbers; deterministic.
 */
export function trainAgreement(samples: Sample[], settings: TrainSettings = SIBLING_SETTINGS): KindWeights {
  const classes = [...PROSE_KINDS];
  const C = classes.length;
  const perRepo = new Map<string, number>();
  for (const s of samples) perRepo.set(s.repo, (perRepo.get(s.repo) ?? 0) + 1);
  const rowWeight = samples.map((s) => Math.pow(1 / perRepo.get(s.repo)!, settings.repoBalance));
  const total = rowWeight.reduce((a, b) => a + b, 0) || 1;
  const theta = PULLS.map(() => 0);
  const J = PULLS.length;
  // Each sample's offsets and neighbour signals as typed arrays, read once (the loop below runs
  // iterations × samples times; the arithmetic and its order are those of reading the maps each time).
  const offsets = samples.map((s) => Float64Array.from(classes, (k) => s.offset?.[k] ?? 0));
  const signals = samples.map((s) => {
    const x = new Float64Array(C * J);
    for (let c = 0; c < C; c++) PULLS.forEach((p, j) => (x[c * J + j] = s.features.get(`${p}:${classes[c]}`) ?? 0));
    return x;
  });
  const labels = samples.map((s) => classes.indexOf(s.kind));
  const scores = new Float64Array(C);
  for (let step = 0; step < settings.iterations; step++) {
    const grad = theta.map((t) => settings.l2 * t);
    for (let r = 0; r < samples.length; r++) {
      const x = signals[r];
      const offset = offsets[r];
      for (let c = 0; c < C; c++) {
        scores[c] = offset[c];
        for (let j = 0; j < J; j++) scores[c] += theta[j] * x[c * J + j];
      }
      let max = -Infinity;
      for (let c = 0; c < C; c++) max = Math.max(max, scores[c]);
      let sum = 0;
      for (let c = 0; c < C; c++) sum += scores[c] = Math.exp(scores[c] - max);
      const w = rowWeight[r] / total;
      for (let c = 0; c < C; c++) {
        const residual = scores[c] / sum - (c === labels[r] ? 1 : 0);
        for (let j = 0; j < J; j++) grad[j] += w * residual * x[c * J + j];
      }
    }
    for (let j = 0; j < J; j++) theta[j] = Math.max(0, theta[j] - settings.learningRate * 20 * grad[j]);
  }
  const weights: Record<string, number[]> = {};
  PULLS.forEach((p, j) => {
    const t = Math.round(theta[j] * 1000) / 1000;
    if (t) for (const k of classes) weights[`${p}:${k}`] = classes.map((c) => (c === k ? t : 0));
  });
  return {
    version: 1,
    classes,
    weights,
    trained: { repositories: perRepo.size, paths: samples.length, settings: { ...settings } },
  };
}
