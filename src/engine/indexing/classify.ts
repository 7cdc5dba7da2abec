// Classification of a workspace file into a DocKind (KINDS.md is the one definition). Kinds that
// are definitions come from kindRules.ts; a prose page's kind is a judgement, made by the model
// trained offline on blind labels (kindModel.ts, kindWeights.json) from its features
// (kindFeatures.ts) and the repository's conventions around it (kindConventions.ts).

import { folderConventionsOf, NAV_FILES, type FolderConventions } from './kindConventions';
import { kindFeatures } from './kindFeatures';
import { predictKind, type KindVerdict, type KindWeights } from './kindModel';
import { chartRootsOf, definedKind } from './kindRules';
import type { DocKind } from '../model/kinds';

export { chartRootsOf } from './kindRules';
export { hasPlaceholders, isTemplateDocument } from '../text/templates';
export type { KindVerdict, Signal } from './kindModel';

export interface ClassifyContext {
  /** Folders that hold a Chart.yaml: files under them belong to a Helm chart. */
  chartRoots: ReadonlySet<string>;
  /** The repository's folders and navigation (absent: the file is judged on its own). */
  conventions?: FolderConventions;
}

export interface ClassifyOptions {
  /** Collect the signals that decided the kind (lore index --explain, the tree's tooltip). */
  explain?: boolean;
  /** Weights other than the shipped ones (the leave-one-repository-out evaluation). */
  weights?: KindWeights;
}

let shipped: KindWeights | undefined;

/**
 * The trained weights (330 KB), loaded at the first classification: a command that classifies
 * nothing (`lore recall`, the hooks) does not build them on every start.
 */
function shippedWeights(): KindWeights {
  shipped ??= require('./kindWeights.json') as KindWeights;
  return shipped;
}

/** What the index knows before it reads a file: chart roots and folder shapes from the path list. */
export function classifyContextOf(
  paths: readonly string[],
  navFiles: Array<{ path: string; text: string }> = [],
): ClassifyContext {
  return { chartRoots: chartRootsOf(paths), conventions: folderConventionsOf(paths, navFiles) };
}

/** The navigation files of a path list whose text the conventions read (mkdocs.yml, SUMMARY.md, _sidebar.md). */
export function navFilesOf(paths: readonly string[]): string[] {
  return paths.filter((p) => NAV_FILES.test(p)).slice(0, 8);
}

/** A file's kind with its confidence, the runner-up and (with `explain`) the signals that decided it. */
export function classifyKind(
  path: string,
  text: string,
  ctx: ClassifyContext = { chartRoots: new Set() },
  options: ClassifyOptions = {},
): KindVerdict {
  const defined = definedKind(path, text, ctx);
  if (defined)
    return {
      kind: defined.kind,
      confidence: 1,
      runnerUp: null,
      runnerUpConfidence: 0,
      by: 'rule',
      signals: options.explain ? [{ feature: 'definition', weight: 1, words: defined.reason }] : [],
    };
  const features = kindFeatures({ path, text, conventions: ctx.conventions });
  return predictKind(options.weights ?? shippedWeights(), features, options.explain);
}

export function classify(path: string, text: string, ctx: ClassifyContext = { chartRoots: new Set() }): DocKind {
  return classifyKind(path, text, ctx).kind;
}
