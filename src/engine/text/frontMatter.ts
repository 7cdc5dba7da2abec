// The front matter block at the top of a markdown file (`---` … `---` or `...`): how many lines it
// takes and the title a template fills from it. The one front matter reader of the engine.

export interface FrontMatter {
  /** Lines the block takes, fences included; 0 when the text has none. */
  lines: number;
  /** Its `title:`, unquoted, or null. */
  title: string | null;
}

const NONE: FrontMatter = { lines: 0, title: null };
/** A block this long is no front matter anyone wrote: the reader stops looking for its end. */
const MAX_LINES = 200;

/** The front matter of a text or of its lines. */
export function frontMatter(text: string | string[]): FrontMatter {
  const lines = Array.isArray(text) ? text : text.split(/\r?\n/, MAX_LINES + 1);
  if (!/^---\s*$/.test(lines[0] ?? '')) return NONE;
  let close = 1;
  while (close < lines.length && close <= MAX_LINES && !/^(---|\.\.\.)\s*$/.test(lines[close])) close++;
  if (close >= lines.length || close > MAX_LINES) return NONE;
  const title =
    lines
      .slice(1, close)
      .map(titleValue)
      .find((t) => t !== null) ?? null;
  return { lines: close + 1, title };
}

/**
 * The value of a front-matter `title:` line, quotes and blanks trimmed, or null. Read without a
 * pattern: `^title:\s*["']?(.+?)["']?\s*$` backtracked quadratically on a title of spaces.
 */
export function titleValue(line: string): string | null {
  if (!line.startsWith('title:')) return null;
  let text = line.slice('title:'.length).trim();
  if (text.length > 1 && (text[0] === '"' || text[0] === "'")) text = text.slice(1);
  if (text.length > 1 && (text.endsWith('"') || text.endsWith("'"))) text = text.slice(0, -1);
  return text || null;
}

/** The `title:` of the front matter a text opens with, or null. */
export function frontMatterTitle(text: string): string | null {
  return frontMatter(text).title;
}

/** The text past its front matter. */
export function withoutFrontMatter(text: string): string {
  const { lines } = frontMatter(text);
  if (!lines) return text;
  return text.split(/\r?\n/).slice(lines).join('\n');
}
