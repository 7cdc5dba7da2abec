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
