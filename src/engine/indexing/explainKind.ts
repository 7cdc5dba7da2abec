// `lore index --explain PATH`: a file's kind as the index would give it, with its confidence, the
// runner-up and the signals that decided it, in plain words. The same repository context as an index
// (the listing's folders and charts, the docs site's navigation), read from the file source, and the
// same second pass: a prose page's own reading weighed with its folder's files' (kindSiblings.ts),
// which are read here as the index read them.

import { LoreError } from '../errors';
import { classifyContextOf, classifyKind, navFilesOf, type ClassifyContext, type KindVerdict } from './classify';
import type { FileSource } from './indexer';
import {
  NeighbourIndex,
  ownReadingOf,
  reconsidered,
  SIBLING_PASS,
  siblingVerdict,
  type Neighbour,
} from './kindSiblings';
import type { DocKind } from '../model/kinds';
import { baseName, dirName } from '../text/paths';

export interface KindExplanation {
  path: string;
  kind: DocKind;
  confidence: number;
  runner_up: DocKind | null;
  runner_up_confidence: number;
  /** `siblings`: the page's folder (its confident siblings) changed or firmly backed its own reading. */
  decided_by: 'rule' | 'model' | 'siblings';
  /** The page's own reading, before its siblings were weighed (prose pages the model judged). */
  own_kind?: DocKind;
  own_confidence?: number;
  /** The signals for the kind (positive share of the margin over the runner-up) and against it. */
  signals: Array<{ signal: string; weight: number }>;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export async function explainKind(source: FileSource, path: string, siblings = SIBLING_PASS): Promise<KindExplanation> {
  const files = await source.list();
  const paths = files.map((f) => f.path);
  const wanted = path.split('\\').join('/').replace(/^\.\//, '');
  if (!paths.includes(wanted))
    throw new LoreError(
      'NOT_FOUND',
      `${wanted} is not a file the index reads`,
      'give a path relative to the workspace root, of a file the index includes (lore.index.include)',
    );
  const text = await source.read(wanted);
  if (text === null) throw new LoreError('NOT_FOUND', `${wanted} has no text to classify (binary or too large)`);
  const nav: Array<{ path: string; text: string }> = [];
  for (const navPath of navFilesOf(paths)) {
    const navText = await source.read(navPath);
    if (navText !== null) nav.push({ path: navPath, text: navText });
  }
  const ctx = classifyContextOf(paths, nav);
  const verdict = classifyKind(wanted, text, ctx, { explain: true });
  const explanation: KindExplanation = {
    path: wanted,
    kind: verdict.kind,
    confidence: round(verdict.confidence),
    runner_up: verdict.runnerUp,
    runner_up_confidence: round(verdict.runnerUpConfidence),
    decided_by: verdict.by,
    signals: verdict.signals.map((s) => ({ signal: s.words, weight: round(s.weight) })),
  };
  const own = ownReadingOf(verdict);
  if (!siblings || !own || !reconsidered(own)) return explanation;
  const neighbours = await neighboursOf(source, paths, wanted, verdict, ctx);
  const second = siblingVerdict(wanted, own, new NeighbourIndex(neighbours));
  const pulls = second.bySiblings ? second.pulls : [];
  return {
    ...explanation,
    kind: second.verdict.kind,
    confidence: round(second.verdict.confidence),
    runner_up: second.verdict.runnerUp,
    runner_up_confidence: round(second.verdict.runnerUpConfidence),
    decided_by: second.bySiblings ? 'siblings' : 'model',
    own_kind: verdict.kind,
    own_confidence: round(verdict.confidence),
    signals: [...pulls.map((s) => ({ signal: s.words, weight: round(s.weight) })), ...explanation.signals],
  };
}

/** The own readings of the files in the page's folder and of its name beside its folder, as the index made them. */
async function neighboursOf(
  source: FileSource,
  paths: string[],
  wanted: string,
  verdict: KindVerdict,
  ctx: ClassifyContext,
): Promise<Neighbour[]> {
  const folder = dirName(wanted);
  const name = baseName(wanted).toLowerCase();
  const beside = dirName(folder);
  const out: Neighbour[] = [{ path: wanted, kind: verdict.kind, confidence: verdict.confidence }];
  for (const path of paths) {
    if (path === wanted) continue;
    const near =
      dirName(path) === folder || (baseName(path).toLowerCase() === name && dirName(dirName(path)) === beside);
    if (!near) continue;
    const text = await source.read(path).catch(() => null);
    if (text === null) continue;
    const theirs = classifyKind(path, text, ctx);
    out.push({ path, kind: theirs.kind, confidence: theirs.confidence });
  }
  return out;
}

/** The explanation in a few lines (the CLI's text and, shortened, the tree's tooltip). */
export function renderKindExplanation(e: KindExplanation, brief = false): string {
  const head =
    e.decided_by === 'rule'
      ? `${e.kind} by definition: ${e.signals[0]?.signal ?? ''}`
      : `${e.kind} (${Math.round(e.confidence * 100)}%)` +
        (e.runner_up ? `, runner-up ${e.runner_up} (${Math.round(e.runner_up_confidence * 100)}%)` : '') +
        (e.decided_by !== 'siblings' || !e.own_kind
          ? ''
          : e.own_kind === e.kind
            ? '; its folder’s siblings agree'
            : `; its own text alone reads as ${e.own_kind} (${Math.round((e.own_confidence ?? 0) * 100)}%), ` +
              'its folder’s siblings decided');
  if (e.decided_by === 'rule') return brief ? head : `${e.path}: ${head}`;
  const pro = e.signals.filter((s) => s.weight > 0).slice(0, brief ? 3 : 6);
  const con = e.signals.filter((s) => s.weight < 0);
  if (brief) return `${head}\nbecause: ${pro.map((s) => s.signal).join('; ')}`;
  return [
    `${e.path}: ${head}`,
    ...pro.map((s) => `  + ${s.signal} (${s.weight.toFixed(2)})`),
    ...con.map((s) => `  − ${s.signal} (${s.weight.toFixed(2)})`),
  ].join('\n');
}
