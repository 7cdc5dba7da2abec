// `lore index --explain PATH`: a file's kind as the index would give it, with its confidence, the
// runner-up and the signals that decided it, in plain words. The same repository context as an index
// (the listing's folders and charts, the docs site's navigation), read from the file source.

import { LoreError } from '../errors';
import { classifyContextOf, classifyKind, navFilesOf } from './classify';
import type { FileSource } from './indexer';
import type { DocKind } from '../model/kinds';

export interface KindExplanation {
  path: string;
  kind: DocKind;
  confidence: number;
  runner_up: DocKind | null;
  runner_up_confidence: number;
  decided_by: 'rule' | 'model';
  /** The signals for the kind (positive share of the margin over the runner-up) and against it. */
  signals: Array<{ signal: string; weight: number }>;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export async function explainKind(source: FileSource, path: string): Promise<KindExplanation> {
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
  const verdict = classifyKind(wanted, text, classifyContextOf(paths, nav), { explain: true });
  return {
    path: wanted,
    kind: verdict.kind,
    confidence: round(verdict.confidence),
    runner_up: verdict.runnerUp,
    runner_up_confidence: round(verdict.runnerUpConfidence),
    decided_by: verdict.by,
    signals: verdict.signals.map((s) => ({ signal: s.words, weight: round(s.weight) })),
  };
}

/** The explanation in a few lines (the CLI's text and, shortened, the tree's tooltip). */
export function renderKindExplanation(e: KindExplanation, brief = false): string {
  const head =
    e.decided_by === 'rule'
      ? `${e.kind} by definition: ${e.signals[0]?.signal ?? ''}`
      : `${e.kind} (${Math.round(e.confidence * 100)}%)` +
        (e.runner_up ? `, runner-up ${e.runner_up} (${Math.round(e.runner_up_confidence * 100)}%)` : '');
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
