// Markdown ATX headings (`## Title ##`) read without a regex: the pattern this replaces,
// `^(#{1,6})\s+(.+?)\s*#*\s*$`, backtracked cubically on a heading line of spaces (a
// 2,000-character line took 24 s to classify). Linear in the line.

export interface Heading {
  level: number;
  text: string;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/**
 * The heading a line is, or null: 1–6 `#`, a space, the text, an optional closing run of `#`.
 * `blank: true` also takes a heading with no text (`# ` — a template's heading once its markup is
 * removed), which chunking gives the page's title.
 */
export function atxHeading(line: string, options: { blank?: boolean } = {}): Heading | null {
  let level = 0;
  while (level < line.length && line[level] === '#') level++;
  if (level < 1 || level > 6 || !isBlank(line[level])) return null;
  let text = line.slice(level + 1).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  // A closing run counts only after a space (`# C#` is about C#).
  if (end < text.length && (end === 0 || isBlank(text[end - 1]))) text = text.slice(0, end).trimEnd();
  return text || options.blank ? { level, text } : null;
}

/** Every heading of a text, in order (fenced code not told apart: callers that care track fences). */
export function atxHeadings(text: string): Heading[] {
  const out: Heading[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      const h = atxHeading(line);
      if (h) out.push(h);
    }
  }
  return out;
}

/**
 * The value of a front-matter `title:` line, quotes and blanks trimmed, or null. Read without the
 * pattern it replaces, `^title:\s*["']?(.+?)["']?\s*$`, which backtracked quadratically on a title
 * of spaces.
 */
export function titleValue(line: string): string | null {
  if (!line.startsWith('title:')) return null;
  let text = line.slice('title:'.length).trim();
  if (text.length > 1 && (text[0] === '"' || text[0] === "'")) text = text.slice(1);
  if (text.length > 1 && (text.endsWith('"') || text.endsWith("'"))) text = text.slice(0, -1);
  return text || null;
}

/** The `title:` of the front matter a text opens with (`---` … `---` or `...`), or null. */
export function frontMatterTitle(text: string): string | null {
  if (!/^---\r?\n/.test(text)) return null;
  let title: string | null = null;
  let from = text.indexOf('\n') + 1;
  while (from > 0 && from < text.length) {
    const next = text.indexOf('\n', from);
    const line = text.slice(from, next < 0 ? text.length : next).replace(/\r$/, '');
    if (/^(---|\.\.\.)\s*$/.test(line)) return title;
    title ??= titleValue(line);
    from = next + 1;
  }
  return null;
}
