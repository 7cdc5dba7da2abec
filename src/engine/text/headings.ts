// Markdown ATX headings (`## Title ##`) read without a regex: the pattern this replaces,
// `^(#{1,6})\s+(.+?)\s*#*\s*$`, backtracked cubically on a heading line of spaces (a
// 2,000-character line took 24 s to classify). Linear in the line. The one heading reader of the
// engine (chunking, kind features, procedures, drift's sections, the editor's anchors).

import { FenceTracker } from './fences';
import { headingSlug } from './slug';

export interface Heading {
  level: number;
  text: string;
}

export interface HeadingOptions {
  /** Also take a heading with no text (`# ` — a template's heading once its markup is removed). */
  blank?: boolean;
  /** Up to three spaces before the `#` and any `>` block-quote markers (as a page renders them). */
  indented?: boolean;
  /** `####Heading` with no space, as Redcarpet (tech-docs, Middleman) renders it. */
  spaceless?: boolean;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** Where a heading's `#` run starts: past up to three spaces and any `>` markers, or -1. */
function headingStart(line: string): number {
  let i = 0;
  for (let spaces = 0; spaces < 3 && isBlank(line[i]); spaces++) i++;
  while (line[i] === '>') {
    i++;
    while (isBlank(line[i])) i++;
  }
  return i;
}

/**
 * The heading a line is, or null: 1–6 `#`, a space, the text, an optional closing run of `#`
 * (after a space: `# C#` is about C#).
 */
export function atxHeading(line: string, options: HeadingOptions = {}): Heading | null {
  const start = options.indented ? headingStart(line) : 0;
  let end = start;
  while (end < line.length && line[end] === '#') end++;
  const level = end - start;
  if (level < 1 || level > 6) return null;
  if (!isBlank(line[end]) && !(options.spaceless && end < line.length)) return null;
  let text = line.slice(end).trim();
  let cut = text.length;
  while (cut > 0 && text[cut - 1] === '#') cut--;
  if (cut < text.length && (cut === 0 || isBlank(text[cut - 1]))) text = text.slice(0, cut).trimEnd();
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

/** A heading of a page with its line (0-based) and GitHub slug. */
export interface PageHeading extends Heading {
  line: number;
  slug: string;
}

/** The headings of a markdown page as it renders: indented ones too, none inside fenced code. */
export function markdownHeadings(text: string): PageHeading[] {
  const out: PageHeading[] = [];
  const fences = new FenceTracker();
  text.split(/\r?\n/).forEach((line, i) => {
    if (fences.step(line) !== 'text') return;
    const h = atxHeading(line, { indented: true });
    if (h) out.push({ ...h, line: i, slug: headingSlug(h.text) });
  });
  return out;
}
