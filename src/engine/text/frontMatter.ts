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
      .map((l) => /^title:[ \t]*["']?(.+?)["']?\s*$/.exec(l)?.[1])
      .find(Boolean) ?? null;
  return { lines: close + 1, title };
}

/** The text past its front matter. */
export function withoutFrontMatter(text: string): string {
  const { lines } = frontMatter(text);
  if (!lines) return text;
  return text.split(/\r?\n/).slice(lines).join('\n');
}
