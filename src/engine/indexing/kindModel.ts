// The learned part of the kind classifier: a multinomial logistic regression over the features of
// kindFeatures.ts, with the weights `npm run train:kinds` writes to kindWeights.json (trained offline
// from blind labels, eval/kinds/). Inference is a sparse dot product and a softmax: deterministic,
// offline, a few microseconds a file. It also says why: each feature's share of the margin between
// the kind chosen and the runner-up, in plain words.

import type { DocKind } from '../model/kinds';
import type { Features } from './kindFeatures';

export interface KindWeights {
  /** Format of this file. */
  version: 1;
  /** The kinds the model chooses among, in a fixed order. */
  classes: DocKind[];
  /** Per feature name, one weight per class (same order as `classes`). */
  weights: Record<string, number[]>;
  /** What it was trained on: repositories, labelled paths, the training settings. */
  trained: { repositories: number; paths: number; settings: Record<string, number> };
}

export interface Signal {
  feature: string;
  /** The feature's share of the margin between the kind and the runner-up (positive: for the kind). */
  weight: number;
  /** The feature in plain words. */
  words: string;
}

export interface KindVerdict {
  kind: DocKind;
  /** The model's probability of `kind` (1 for a kind by definition). */
  confidence: number;
  runnerUp: DocKind | null;
  runnerUpConfidence: number;
  /** How the kind was decided: a definition (`rule`) or the model. */
  by: 'rule' | 'model';
  /** Plain-words reason for a rule; the top features for the model (only when asked for). */
  signals: Signal[];
  /** The model's most probable kinds, most probable first (its first reading, which the index keeps). */
  scores?: Array<[DocKind, number]>;
}

/** The weights as the dot product reads them: a map of typed rows, built once per weights object. */
const compiled = new WeakMap<KindWeights, Map<string, Float64Array>>();

function rowsOf(weights: KindWeights): Map<string, Float64Array> {
  let rows = compiled.get(weights);
  if (!rows) {
    rows = new Map(Object.entries(weights.weights).map(([name, w]) => [name, Float64Array.from(w)]));
    compiled.set(weights, rows);
  }
  return rows;
}

/** A fixed score per kind the weights add to (the second pass starts from the page's own reading). */
export type KindOffset = Partial<Record<DocKind, number>>;

/** The class probabilities for a file's features, in the weights' class order. */
export function probabilities(weights: KindWeights, features: Features, offset?: KindOffset): number[] {
  const rows = rowsOf(weights);
  const C = weights.classes.length;
  const scores = new Float64Array(C);
  if (offset) for (let c = 0; c < C; c++) scores[c] = offset[weights.classes[c]] ?? 0;
  for (const [name, value] of features) {
    const w = rows.get(name);
    if (!w) continue;
    for (let c = 0; c < C; c++) scores[c] += value * w[c];
  }
  let max = -Infinity;
  for (let c = 0; c < C; c++) if (scores[c] > max) max = scores[c];
  let sum = 0;
  for (let c = 0; c < C; c++) sum += scores[c] = Math.exp(scores[c] - max);
  const out = new Array<number>(C);
  for (let c = 0; c < C; c++) out[c] = scores[c] / sum;
  return out;
}

/** The kind, its probability and the runner-up; with `explain`, the features that decided it. */
export function predictKind(
  weights: KindWeights,
  features: Features,
  explain = false,
  offset?: KindOffset,
): KindVerdict {
  const p = probabilities(weights, features, offset);
  let best = 0;
  let second = -1;
  for (let c = 1; c < p.length; c++) {
    if (p[c] > p[best]) {
      second = best;
      best = c;
    } else if (second < 0 || p[c] > p[second]) second = c;
  }
  const verdict: KindVerdict = {
    kind: weights.classes[best],
    confidence: p[best],
    runnerUp: second >= 0 ? weights.classes[second] : null,
    runnerUpConfidence: second >= 0 ? p[second] : 0,
    by: 'model',
    signals: [],
    scores: topScores(weights.classes, p),
  };
  if (explain && second >= 0) verdict.signals = topSignals(weights, features, best, second);
  return verdict;
}

/** The few most probable kinds, most probable first (ties in class order). */
function topScores(classes: DocKind[], p: number[], count = 3): Array<[DocKind, number]> {
  return p
    .map((x, c) => [c, x] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, count)
    .map(([c, x]) => [classes[c], x]);
}

function topSignals(weights: KindWeights, features: Features, best: number, second: number, count = 6): Signal[] {
  const signals: Signal[] = [];
  for (const [name, value] of features) {
    const w = weights.weights[name];
    if (!w || name === 'bias') continue;
    const weight = value * (w[best] - w[second]);
    if (Math.abs(weight) >= 0.05) signals.push({ feature: name, weight, words: describeFeature(name) });
  }
  // Largest share first; ties by name so the order never depends on the map's.
  signals.sort((a, b) => b.weight - a.weight || (a.feature < b.feature ? -1 : 1));
  const against = signals.filter((s) => s.weight < 0).slice(-2);
  return [...signals.filter((s) => s.weight > 0).slice(0, count), ...against.reverse()];
}

const STRUCTURE: Record<string, string> = {
  'body:lines': 'length of the text',
  'body:words': 'number of words',
  'body:empty': 'no text besides the title',
  'body:short': 'a very short text',
  'body:headings': 'number of headings',
  'body:numbered': 'numbered steps',
  'body:imperative_steps': 'numbered steps that say what to do',
  'body:bullets': 'bulleted lists',
  'body:code_blocks': 'code blocks',
  'body:shell_blocks': 'shell or console blocks',
  'body:prompts': 'shell prompts ($ …)',
  'body:commands': 'commands such as kubectl, aws, helm, git',
  'body:imperatives': 'lines that tell the reader what to do',
  'body:imperative_share': 'most lines are instructions',
  'body:tables': 'tables',
  'body:links': 'links',
  'body:link_share': 'link density',
  'body:link_list': 'a page that is a list of links',
  'body:dates': 'dates (YYYY-MM-DD)',
  'body:version_headings': 'headings that name a release (1.2.0, Unreleased)',
  'body:version_heading_share': 'most headings name a release',
  'body:timeline_entries': 'lines that open with a time of day (a timeline)',
  'body:past_tense_share': 'told in the past tense',
  'body:incident_terms': 'the words of an incident (outage, impact, root cause, resolved)',
  'body:operator_terms': 'the words of running a live system (alert, production, restore, on-call)',
  'body:conditionals': 'instructions that depend on what is seen (if …, then …)',
  'body:step_commands': 'numbered steps with their commands',
  'body:dated_version_headings': 'release headings with dates',
  'body:change_headings': 'Added / Fixed / Removed sections',
  'body:change_bullets': 'lists of changes (Added …, Fixed …)',
  'body:short_incident': 'a short write-up in the words of an incident',
  'title#dated': 'a date in the title',
  'title#numbered': 'a numbered title (2. …, ADR-2: …)',
  'body:times': 'times of day (a timeline)',
  'body:placeholders': 'placeholders to fill in',
  'body:bold_labels': 'bold labels opening lines',
  'body:non_ascii': 'text in a non-Latin script',
  'body:status_line': 'a status line',
  'body:proposal_metadata': 'a proposal’s metadata list (start date, author, PEP…)',
  'body:generated_reference': 'a generated reference block (terraform-docs)',
  'name#numbered': 'a numbered file name (NNNN-…)',
  'name#landing': 'a landing-page name (README, index)',
  'name#dated': 'a date in the file name',
  'pdir#numbered': 'a numbered folder',
  'dir#numbered': 'a numbered folder above it',
  'sib:count': 'how many files its folder holds',
  'sib:numbered_share': 'its folder’s files are numbered',
  'sib:prose_share': 'its folder’s files are pages',
  'sib:subfolders': 'its folder has subfolders',
  'sib:page_readme': 'a README beside its index page',
  'sib:lone_landing': 'a landing name alone in its folder (a page of its own)',
};

const PREFIX: Record<string, (v: string) => string> = {
  ext: (v) => `the .${v} extension`,
  name: (v) => `“${v}” in the file name`,
  dir: (v) => `a folder named “${v}” above it`,
  pdir: (v) => `its folder named “${v}”`,
  depth: (v) => `${v} folders deep`,
  fmkey: (v) => `front matter “${v}:”`,
  fm: (v) => `front matter ${v.replace('=', ': ')}`,
  title: (v) => `“${v}” in the title`,
  h: (v) => `“${v}” in a heading`,
  sec: (v) => `a “${v.replace('_', ' ')}” section`,
  status: (v) => `status “${v}”`,
  bold: (v) => `a bold “${v}” label`,
  nav: (v) => `the site’s navigation puts it under “${v}”`,
  family: (v) => `sections of ${v === 'incident' ? 'an' : 'a'} ${v} (how many)`,
  own: (v) => `its own text reads as ${v}`,
  pull: (v) => `its folder’s confident siblings are ${v} pages`,
  cousin: (v) => `pages of the same name in the folders beside it are ${v} pages`,
};

/** A feature name in plain words (`sec:timeline` → a “timeline” section). */
export function describeFeature(name: string): string {
  if (STRUCTURE[name]) return STRUCTURE[name];
  const colon = name.indexOf(':');
  const describe = colon > 0 ? PREFIX[name.slice(0, colon)] : undefined;
  return describe ? describe(name.slice(colon + 1)) : name;
}

/** A runner-up this probable makes a document borderline: a filter for its kind takes it too. */
export const CLOSE_RUNNER_UP = 0.2;

/** The runner-up where it is close enough to matter, else null. */
export function closeRunnerUp(verdict: KindVerdict): DocKind | null {
  return verdict.runnerUp && verdict.runnerUpConfidence >= CLOSE_RUNNER_UP ? verdict.runnerUp : null;
}
