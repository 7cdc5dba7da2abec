// Which finder locates a symbol: a real parser where the host has loaded a grammar for the file's
// language (the SymbolParser port, synchronous once loaded), else the precise patterns of
// symbols.ts. Each reference row records the finder its fingerprint came from, and is re-checked
// with that finder only, so a parser that is not loaded yet (or is loaded now, for a row the
// patterns fingerprinted) never turns a difference in spans into drift:
// - recorded by a parser that is not available now: not re-checked, the row keeps its state;
//   re-baselined by the available finder only when the file is the one last found current;
// - recorded by the patterns, parser available: checked by the patterns, and re-baselined by the
//   parser when the patterns find the symbol unchanged (nothing changed, so nothing is absorbed).

import { evaluate, type Search, type RefVerdict } from './evaluate';
import type { RefRow } from './store';
import { findDefinitions, symbolText, type SymbolDefinition } from './symbols';
import { targetHash, type Target } from './target';
import type { FileStat } from './types';
import type { Workspace } from './workspace';

/** The finder id of the patterns; rows written before finders were recorded (null) are theirs. */
export const PATTERN_FINDER = 'pattern';

/** A declaration a parser found: its own text is `text.slice(from, to)` (UTF-16 offsets). */
export interface ParsedDeclaration {
  /** The bare name, or a qualified one for a member (`Queue.enqueue`). */
  name: string;
  from: number;
  to: number;
  /** 0-based lines, inclusive. */
  start: number;
  end: number;
  kind: 'function' | 'type' | 'variable';
  /** Declared at the top of the file (exported or not), or inside a class-like body. */
  scope: 'module' | 'member';
}

/**
 * The host's parser, synchronous once loaded: it reports which finder would parse a path now
 * (`tree-sitter:typescript`), or null when it has no grammar for it or has not loaded it yet.
 */
export interface SymbolParser {
  /** Whether loading has finished (with or without grammars): until then finderFor answers null. */
  ready(): boolean;
  finderFor(path: string): string | null;
  /** Declarations in `text`; only asked when finderFor(path) is not null. */
  declarations(path: string, text: string): ParsedDeclaration[];
}

/** A definition as the workspace keeps it: a pattern's (no finder) or a parser's (finder and offsets). */
export type LocatedDefinition = SymbolDefinition & { finder?: string; from?: number; to?: number; scope?: 'module' | 'member' };

/** Pattern kinds no parser finder reports: they stay with the patterns even in a parsed file. */
const PATTERN_ONLY_KINDS = new Set<SymbolDefinition['kind']>(['flag', 'field']);

/** The parser's declarations as definitions, with the pattern ones it does not replace. */
function mergeDefinitions(finder: string | null, parsed: readonly ParsedDeclaration[], patterns: readonly SymbolDefinition[]): LocatedDefinition[] {
  if (!finder) return [...patterns];
  const fromParser: LocatedDefinition[] = parsed.map((d) => ({ name: d.name, start: d.start, end: d.end, kind: d.kind, finder, from: d.from, to: d.to, scope: d.scope }));
  return [...fromParser, ...patterns.filter((d) => PATTERN_ONLY_KINDS.has(d.kind))];
}

/** A bare name means what the file declares at its top; a member only when nothing there has that name. */
function byScope(defs: LocatedDefinition[]): LocatedDefinition[] {
  const top = defs.filter((d) => d.scope !== 'member');
  return top.length ? top : defs;
}

/**
 * The definitions of `name` in a file that `finder` fingerprints: a parser finder's own, or the
 * patterns' (`pattern`/null). Without a finder (a new fingerprint), the parser's when it knows
 * the name, else the patterns' among the definitions the file offers now.
 */
export function chooseDefinitions(ws: Workspace, path: string, name: string, finder: string | null | undefined, patterns: (defs: SymbolDefinition[]) => SymbolDefinition[]): LocatedDefinition[] {
  if (finder === undefined) {
    const offered = ws.definitions(path) as LocatedDefinition[];
    const parsed = byScope(offered.filter((d) => d.finder && d.name === name));
    return parsed.length ? parsed : patterns(offered.filter((d) => !d.finder));
  }
  if (finder === null || finder === PATTERN_FINDER) return patterns(ws.patternDefinitions(path));
  return byScope((ws.definitions(path) as LocatedDefinition[]).filter((d) => d.finder === finder && d.name === name));
}

/** The finder a set of chosen definitions came from. */
export function finderOf(defs: readonly LocatedDefinition[]): string {
  return defs[0]?.finder ?? PATTERN_FINDER;
}

/** The text a symbol's fingerprint covers: each definition's own text, in order (patterns: whole lines, as before). */
export function definitionsText(text: string, defs: readonly LocatedDefinition[]): string {
  if (defs.every((d) => d.from !== undefined && d.to !== undefined)) return defs.map((d) => text.slice(d.from, d.to)).join('\n\u0000\n');
  return symbolText(text.split(/\r?\n/), [...defs]);
}

/** The symbol is unchanged and `finder` fingerprinted it again: its span becomes the baseline. */
function rebaselined(finder: string, stat: FileStat, fingerprint: string): RefVerdict {
  return { state: 'current', new_path: null, detail: `fingerprinted again by ${finder}; unchanged`, size: stat.size, mtime_ms: stat.mtimeMs, fingerprint, finder };
}

/**
 * Classifies a row with the finder that fingerprinted it (see the header). With `rebaseline`, a
 * row may move to the finder available now; without it (a recall's read-only look) it never does.
 */
export function evaluateWithFinder(ws: Workspace, row: RefRow, search: Search, rebaseline: boolean): RefVerdict | null {
  if (row.target_kind !== 'symbol' || !row.target_path || !row.fingerprint || !row.symbol) return evaluate(ws, row, search);
  const recorded = row.finder ?? PATTERN_FINDER;
  const available = ws.parserFinder(row.target_path);
  const stat = ws.stat(row.target_path);
  const target: Target = { path: row.target_path, kind: 'symbol', symbol: row.symbol };
  if (recorded !== PATTERN_FINDER && recorded !== available) {
    // The file as it was when last found current, and a finder that locates the symbol: nothing
    // changed, so the new finder's span becomes the baseline.
    const unchanged = row.state === 'current' && stat !== null && stat.size === row.size && stat.mtimeMs === row.mtime_ms;
    if (rebaseline && unchanged && available) {
      const fingerprint = targetHash(ws, { ...target, finder: available });
      if (fingerprint) return rebaselined(available, stat, fingerprint);
    }
    const note = available ? `${available} is loaded, not ${recorded}` : `${recorded} is not loaded yet`;
    return { state: row.state, new_path: row.new_path, detail: row.state === 'current' ? `not re-checked: ${note}` : row.detail, size: row.size, mtime_ms: row.mtime_ms };
  }
  if (rebaseline && recorded === PATTERN_FINDER && available && row.state === 'current' && stat) {
    const unchanged = targetHash(ws, { ...target, finder: PATTERN_FINDER }) === row.fingerprint;
    const fingerprint = unchanged ? targetHash(ws, { ...target, finder: available }) : null;
    if (fingerprint) return rebaselined(available, stat, fingerprint);
  }
  return evaluate(ws, row, search);
}

/** What the workspace keeps per file: the definitions offered for new references, and every pattern one. */
export interface FileDefinitions {
  finder: string | null;
  offered: LocatedDefinition[];
  patterns: SymbolDefinition[];
}

export function locateAll(path: string, text: string | null, parser: SymbolParser | undefined): FileDefinitions {
  const finder = parser?.finderFor(path) ?? null;
  if (text === null) return { finder, offered: [], patterns: [] };
  const patterns = findDefinitions(path, text);
  const parsed = finder ? parser!.declarations(path, text) : [];
  return { finder, offered: mergeDefinitions(finder, parsed, patterns), patterns };
}
