// Anchors as the editor proposes and checks them, valid for every kind of file:
// - code (a file drift locates definitions in): `path#Symbol`, the innermost symbol around the
//   cursor — the editor's document symbol provider's name when drift can locate it too, else the
//   definitions drift itself finds (tree-sitter where it has a grammar, its patterns otherwise);
// - Markdown: `path#heading-slug` of the section the cursor is in (the slug drift resolves);
// - anything else: the path alone.
// anchorProblem says, before a save, why an anchor a person typed would not resolve.

import { anchorTarget, definesSymbols, LIMITS, MARKDOWN, markdownHeadings } from '../engine';

export interface SymbolLike {
  name: string;
  range: { start: { line: number }; end: { line: number } };
  children?: SymbolLike[];
}

/** A definition drift locates in a file: its name (`Class.method` for members) and 0-based lines. */
export interface Definition {
  name: string;
  start: number;
  end: number;
}

/** 0-based lines, inclusive: the lines a selection covers (or the cursor's line). */
export interface LineSpan {
  start: number;
  end: number;
}

/**
 * What a selection covers, as a person means it: Shift+↓ and a triple-click end at column 0 of the
 * next line, which is not selected.
 */
export function selectedLines(selection: {
  start: { line: number; character: number };
  end: { line: number; character: number };
}): LineSpan {
  const { start, end } = selection;
  const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  return { start: start.line, end: last };
}

const holds = (from: number, to: number, span: LineSpan) => from <= span.start && span.end <= to;

function chainAt(symbols: SymbolLike[], span: LineSpan): SymbolLike[] {
  const hit = symbols.find((s) => holds(s.range.start.line, s.range.end.line, span));
  return hit ? [hit, ...chainAt(hit.children ?? [], span)] : [];
}

/** The innermost definition whose lines hold all of `span`. */
function innermost(definitions: Definition[], span: LineSpan): Definition | undefined {
  return definitions.filter((d) => holds(d.start, d.end, span)).sort((a, b) => a.end - a.start - (b.end - b.start))[0];
}

/**
 * The anchor for the cursor at `line` (0-based), or for a selection's lines, in the workspace file
 * `path`: the innermost symbol (or section) holding all of them, else the file. `definitions`:
 * what drift locates in the file; `symbols`: the editor's document symbols, if it has any.
 */
export function anchorAt(
  path: string,
  line: number | LineSpan,
  text: string,
  definitions: Definition[],
  symbols?: SymbolLike[],
): string {
  const span = typeof line === 'number' ? { start: line, end: line } : line;
  if (MARKDOWN.test(path)) {
    const headings = markdownHeadings(text);
    // A selection that crosses headings is about the section above all of them (or the file).
    const crossed = headings.filter((h) => h.line > span.start && h.line <= span.end);
    const above = Math.min(7, ...crossed.map((h) => h.level));
    const heading = headings.filter((h) => h.line <= span.start && h.level < above).pop();
    return heading?.slug ? `${path}#${heading.slug}` : path;
  }
  if (!definesSymbols(path)) return path;
  const known = new Set(definitions.map((d) => d.name));
  const chain = chainAt(symbols ?? [], span)
    .map((s) => s.name.replace(/\(.*$/, '').trim())
    .filter(Boolean);
  // The provider's name, qualified by its container, then bare — whichever drift can find again.
  const named = [chain.slice(-2).join('.'), chain[chain.length - 1]].find((name) => name && known.has(name));
  const symbol = named ?? innermost(definitions, span)?.name;
  return symbol ? `${path}#${symbol}` : path;
}

/** `path` and `#symbol` of an anchor through the engine's anchor parser; null for a URL or a path outside. */
function parseAnchor(raw: string): { path: string; symbol: string | null } | null {
  const target = anchorTarget(raw);
  const path = target?.path?.replace(/^\.\//, '');
  if (!path || path.startsWith('/') || path.split('/').includes('..')) return null;
  // `#L10-L20` is a line range, not a symbol to look for.
  const symbol = target!.fragment && !/^L\d+(-L?\d+)?$/.test(target!.fragment) ? target!.fragment : null;
  return { path, symbol };
}

/** Reads a workspace-relative file: its text, or undefined when there is no such file. */
export type ReadText = (path: string) => Promise<string | undefined>;

/** Why `anchor` would not resolve in this folder, in one sentence; undefined when it does (or is a URL). */
export async function anchorProblem(
  anchor: string,
  read: ReadText,
  definitionsOf: (path: string, text: string) => Promise<Definition[]>,
): Promise<string | undefined> {
  const raw = anchor.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return undefined;
  const parsed = parseAnchor(raw);
  if (!parsed) return `${raw}: use a path relative to the workspace folder, like src/queue.ts#enqueue`;
  const text = await read(parsed.path);
  if (text === undefined) return `${parsed.path} is not a file in this folder`;
  if (!parsed.symbol) return undefined;
  if (MARKDOWN.test(parsed.path)) {
    const slugs = markdownHeadings(text).map((h) => h.slug);
    if (slugs.includes(parsed.symbol.toLowerCase())) return undefined;
    const some =
      slugs
        .slice(0, 3)
        .map((s) => `#${s}`)
        .join(', ') + (slugs.length > 3 ? ', …' : '');
    return `${parsed.path} has no heading #${parsed.symbol}${slugs.length ? ` (it has ${some})` : ''}`;
  }
  const names = (await definitionsOf(parsed.path, text)).map((d) => d.name);
  if (names.includes(parsed.symbol)) return undefined;
  return `${parsed.path} defines no ${parsed.symbol}`;
}

/** Why anchors are refused as they are typed: one longer than the engine keeps, said with the limit. */
export function anchorLengthProblem(anchors: string[]): string | undefined {
  const long = anchors.find((a) => a.length > LIMITS.anchorChars);
  if (!long) return undefined;
  return `${long.slice(0, 40)}… is ${long.length} characters; an anchor holds at most ${LIMITS.anchorChars}`;
}
