// Which finder locates a symbol: a real parser where the host has loaded a grammar for the file's
// language (the SymbolParser port, synchronous once loaded), else the precise patterns of
// symbols.ts. Each reference row records the finder its fingerprint came from, and is re-checked
// with that finder only, so a parser that is not loaded yet (or is loaded now, for a row the
// patterns fingerprinted) never turns a difference in spans into drift:
// - recorded by a parser that is not available now: not re-checked, the row keeps its state;
//   re-baselined by the available finder only when the file is the one last found current;
// - recorded by the patterns, parser available: checked by the patterns, and re-baselined by the
//   parser when the patterns find the symbol unchanged (nothing changed, so nothing is absorbed).

import { valueReads } from './helmValues';
import type { SymbolDefinition } from './symbolDefinition';
import { findDefinitions, symbolText } from './symbols';
import type { ParsedDeclaration, SymbolParser } from './types';

/** What choosing a definition asks of the workspace (workspace.ts keeps them, from locateAll). */
interface DefinitionsByFile {
  definitions(path: string): SymbolDefinition[];
  patternDefinitions(path: string): SymbolDefinition[];
}

/** The finder id of the patterns; rows written before finders were recorded (null) are theirs. */
export const PATTERN_FINDER = 'pattern';

/** A definition as the workspace keeps it: a pattern's (no finder) or a parser's (finder and offsets). */
export type LocatedDefinition = SymbolDefinition & {
  finder?: string;
  from?: number;
  to?: number;
  scope?: 'module' | 'member';
};

/** Pattern kinds no parser finder reports: they stay with the patterns even in a parsed file. */
const PATTERN_ONLY_KINDS = new Set<SymbolDefinition['kind']>(['flag', 'field', 'value']);

/** The parser's declarations as definitions, with the pattern ones it does not replace. */
function mergeDefinitions(
  finder: string | null,
  parsed: readonly ParsedDeclaration[],
  patterns: readonly SymbolDefinition[],
): LocatedDefinition[] {
  if (!finder) return [...patterns];
  const fromParser: LocatedDefinition[] = parsed.map((d) => ({
    name: d.name,
    start: d.start,
    end: d.end,
    kind: d.kind,
    finder,
    from: d.from,
    to: d.to,
    scope: d.scope,
  }));
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
export function chooseDefinitions(
  ws: DefinitionsByFile,
  path: string,
  name: string,
  finder: string | null | undefined,
  patterns: (defs: SymbolDefinition[]) => SymbolDefinition[],
): LocatedDefinition[] {
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
  if (defs.every((d) => d.from !== undefined && d.to !== undefined))
    return defs.map((d) => text.slice(d.from, d.to)).join('\n\u0000\n');
  return symbolText(text.split(/\r?\n/), [...defs]);
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
  // A template's reads of a Helm value are no definition of it, but drift watches the one a value has (resolve.ts).
  const patterns = [...findDefinitions(path, text), ...valueReads(path, text)];
  const parsed = finder ? parser!.declarations(path, text) : [];
  return { finder, offered: mergeDefinitions(finder, parsed, patterns), patterns };
}
