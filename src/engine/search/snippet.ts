// What a document hit shows: where in the document (its heading path below the title, no empty
// segments) and the line of the chunk that matched the question best, with the line range of that
// text. Headings, front matter and fences are never the snippet; a chunk that holds nothing else
// shows its heading path alone, pointed at the chunk.

import type { DocCandidate } from './docs';
import { matchStem } from './bm25';
import { words } from '../text/words';

const SNIPPET_CHARS = 300;
/** A line shorter than this is joined with the next content line, so a snippet says something. */
const SHORT_LINE = 80;

interface Line {
  text: string;
  number: number;
}

/** The chunk's lines that carry text: no front matter, headings, fences, rules or blank lines. */
function contentLines(doc: DocCandidate): Line[] {
  const raw = doc.text.split('\n');
  let from = 0;
  if (/^---\s*$/.test(raw[0] ?? '')) {
    const close = raw.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (close > 0) from = close + 1;
  }
  const out: Line[] = [];
  for (let i = from; i < raw.length; i++) {
    const text = raw[i].replace(/^\s*(?:[>*+-]|\d+\.)\s+/, '').trim();
    const markup = /^#{1,6}\s/.test(raw[i]) || /^(```|~~~|[-=*_]{3,}$)/.test(text) || /^\|?[\s:|-]+\|?$/.test(text);
    if (!text || markup) continue;
    out.push({ text, number: doc.startLine + i });
  }
  return out;
}

function matches(text: string, probe: Set<string>): number {
  const seen = new Set<string>();
  for (const word of words(text)) {
    const s = matchStem(word);
    if (probe.has(s)) seen.add(s);
  }
  return seen.size;
}

/** The heading path below the document's title, segments trimmed and empty ones dropped. */
export function headingPath(doc: Pick<DocCandidate, 'heading' | 'title'>): string {
  const segments = doc.heading
    .split('>')
    .map((s) => s.trim())
    .filter(Boolean);
  // The top heading is usually the title itself; the path says where below it.
  if (segments[0] === doc.title.trim()) segments.shift();
  return segments.join(' > ');
}

/** The hit's description and line range. `probe` holds the query's stems (bm25's matchStem). */
export function docSnippet(doc: DocCandidate, probe: Set<string>): { description: string; lines: [number, number] } {
  const where = headingPath(doc);
  const lines = contentLines(doc);
  let best = -1;
  let bestScore = 0;
  lines.forEach((line, i) => {
    const score = matches(line.text, probe);
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  if (best < 0) best = lines.findIndex((l) => l.text.length > 20);
  if (best < 0 && lines.length) best = 0;
  if (best < 0) return { description: where, lines: [doc.startLine, doc.endLine] };
  let text = lines[best].text;
  let last = best;
  while (text.length < SHORT_LINE && last + 1 < lines.length && lines[last + 1].number === lines[last].number + 1) {
    last++;
    text = `${text} ${lines[last].text}`;
  }
  const line = where ? `${where}: ${text}` : text;
  return {
    description: line.length > SNIPPET_CHARS ? `${line.slice(0, SNIPPET_CHARS - 1)}…` : line,
    lines: [lines[best].number, lines[last].number],
  };
}
