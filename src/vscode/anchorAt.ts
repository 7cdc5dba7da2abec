// The anchor for "Remember Selection as …": `path#symbol` for the innermost symbol around the
// cursor (qualified by its container, `Class.method`), else the path alone. Symbols come from the
// editor's document symbol provider; without one, the nearest declaration above the cursor.

export interface SymbolLike {
  name: string;
  range: { start: { line: number }; end: { line: number } };
  children?: SymbolLike[];
}

function chainAt(symbols: SymbolLike[], line: number): SymbolLike[] {
  const hit = symbols.find((s) => s.range.start.line <= line && line <= s.range.end.line);
  return hit ? [hit, ...chainAt(hit.children ?? [], line)] : [];
}

const DECLARATION = /\b(?:function|class|interface|enum|def|func|fn|struct|trait|type)\s+([A-Za-z_$][\w$]*)/;

/** The declared name nearest above `line` in `text` (for editors with no symbol provider). */
export function declarationAbove(text: string, line: number): string | null {
  const lines = text.split(/\r?\n/);
  for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
    const match = DECLARATION.exec(lines[i]);
    if (match) return match[1];
  }
  return null;
}

export function anchorAt(relativePath: string, line: number, symbols: SymbolLike[] | undefined, text?: string): string {
  const chain = chainAt(symbols ?? [], line).map((s) => s.name.replace(/\(.*$/, '').trim()).filter(Boolean);
  const symbol = chain.length ? chain.slice(-2).join('.') : text !== undefined && !symbols?.length ? declarationAbove(text, line) : null;
  return symbol ? `${relativePath}#${symbol}` : relativePath;
}
