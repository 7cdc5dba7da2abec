// Chunking: markdown by headings (keeping the heading path and line range), Terraform by block,
// YAML by document, Dockerfiles whole, anything else in bounded windows of lines. Chunks are
// bounded so one long section never becomes one huge embedding.

import { atxHeading, atxHeadings } from '../text/headings';
import type { DocKind } from '../model/kinds';
import { PROSE_KINDS } from '../model/kinds';
import { baseName } from '../text/paths';
import { FenceTracker } from '../text/fences';
import { frontMatter } from '../text/frontMatter';

export interface Chunk {
  heading: string;
  startLine: number;
  endLine: number;
  text: string;
}

const MAX_CHUNK_CHARS = 2000;
const WINDOW_LINES = 60;

/** Removes ERB/HTML leftovers (`<% %>`, tags, comments) that published-docs sources carry. */
export function cleanMarkup(text: string): string {
  const erb = stripBetween(text, '<%', '%>', () => ' ');
  const comments = stripBetween(erb, '<!--', '-->', (m) => '\n'.repeat(m.split('\n').length - 1));
  return comments.replace(/<\/?[a-zA-Z][^>\n]{0,1000}>/g, ' ');
}

/**
 * Replaces each `open`…`close` span, scanning once: the lazy `<%[\s\S]*?%>` this replaces was
 * retried from every `<%` of a file that never closes one (quadratic); here the first unclosed
 * opening ends the work, since no later one can close either.
 */
function stripBetween(text: string, open: string, close: string, replace: (span: string) => string): string {
  let out = '';
  let at = 0;
  for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, at)) {
    const j = text.indexOf(close, i + open.length);
    if (j < 0) break;
    out += text.slice(at, i) + replace(text.slice(i, j + close.length));
    at = j + close.length;
  }
  return out + text.slice(at);
}

/** Splits a run of lines into pieces of at most MAX_CHUNK_CHARS, keeping line numbers. */
function bounded(heading: string, lines: string[], firstLine: number): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let size = 0;
    while (
      end < lines.length &&
      (end === start || size + lines[end].length + 1 <= MAX_CHUNK_CHARS) &&
      end - start < WINDOW_LINES * 2
    ) {
      size += lines[end].length + 1;
      end++;
    }
    // The range is that of the text kept: blank lines around it are not part of the chunk.
    let first = start;
    let last = end - 1;
    while (first <= last && !lines[first].trim()) first++;
    while (last >= first && !lines[last].trim()) last--;
    const text = lines
      .slice(first, last + 1)
      .join('\n')
      .trim();
    if (text)
      chunks.push({
        heading,
        startLine: firstLine + first,
        endLine: firstLine + last,
        text: text.slice(0, MAX_CHUNK_CHARS),
      });
    start = end;
  }
  return chunks;
}

function markdownChunks(lines: string[]): Chunk[] {
  const chunks: Chunk[] = [];
  const path: string[] = [];
  // Front matter is metadata (its title is the document's title), not text a hit should show.
  const meta = frontMatter(lines);
  let sectionStart = meta.lines;
  const fences = new FenceTracker();
  const flush = (end: number) => {
    chunks.push(...bounded(path.filter(Boolean).join(' > '), lines.slice(sectionStart, end), sectionStart + 1));
  };
  for (let i = meta.lines; i < lines.length; i++) {
    const code = fences.step(lines[i]) !== 'text';
    const heading = !code && lines[i].startsWith('#') ? atxHeading(lines[i], { blank: true }) : null;
    if (!heading) continue;
    if (i > sectionStart) flush(i);
    const level = heading.level;
    path.length = Math.min(path.length, level - 1);
    // A heading a template fills in (blank once its markup is removed) stands for the title.
    path[level - 1] = heading.text.trim() || (level === 1 ? (meta.title ?? '') : '');
    for (let j = 0; j < level - 1; j++) path[j] ??= '';
    sectionStart = i;
  }
  flush(lines.length);
  // A file of front matter alone is still findable by it.
  return chunks.length || !meta.lines ? chunks : bounded('', lines, 1);
}

/** Top-level Terraform/HCL blocks: `resource "a" "b" {`, `module "x" {`, `variable`, ... */
function terraformChunks(lines: string[]): Chunk[] {
  const chunks: Chunk[] = [];
  let start = -1;
  let label = '';
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (depth === 0) {
      const block = /^([a-z_]+)((?:\s+"[^"]*")*)\s*\{/.exec(line);
      if (block) {
        start = i;
        label = `${block[1]}${block[2].replace(/"/g, '').replace(/\s+/g, ' ')}`.trim();
      }
    }
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
    if (depth <= 0 && start >= 0) {
      chunks.push(...bounded(label, lines.slice(start, i + 1), start + 1));
      start = -1;
      depth = 0;
    }
  }
  return chunks.length ? chunks : bounded('', lines, 1);
}

/** YAML documents separated by `---`, each labelled with its kind/name when it has one. */
function yamlChunks(lines: string[]): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  const flush = (end: number) => {
    const doc = lines.slice(start, end);
    const kind = doc.map((l) => /^kind:\s*(\S+)/.exec(l)?.[1]).find(Boolean);
    const name = doc.map((l) => /^\s{2}name:\s*(\S+)/.exec(l)?.[1]).find(Boolean);
    chunks.push(...bounded([kind, name].filter(Boolean).join(' '), doc, start + 1));
  };
  for (let i = 0; i < lines.length; i++) {
    if (/^---\s*$/.test(lines[i])) {
      if (i > start) flush(i);
      start = i + 1;
    }
  }
  flush(lines.length);
  return chunks;
}

export function chunkDocument(kind: DocKind, text: string): Chunk[] {
  const lines = text.split(/\r?\n/);
  if (PROSE_KINDS.includes(kind)) return markdownChunks(cleanMarkup(text).split(/\r?\n/));
  if (kind === 'terraform') return terraformChunks(lines);
  if (kind === 'kubernetes' || kind === 'helm' || kind === 'ci' || kind === 'ansible') return yamlChunks(lines);
  if (kind === 'dockerfile') return bounded('Dockerfile', lines, 1);
  return bounded('', lines, 1);
}

/** The title a person would give the document: front matter, then the first heading, then the file name. */
export function documentTitle(path: string, text: string): string {
  const fmTitle = frontMatter(text).title;
  if (fmTitle) return fmTitle.slice(0, 200);
  const heading = atxHeadings(text).find((h) => h.level === 1)?.text ?? /^(.+)\r?\n=+[ \t]*$/m.exec(text)?.[1];
  if (heading)
    return heading
      .replace(/<[^<>]+>/g, '')
      .trim()
      .slice(0, 200);
  return baseName(path);
}
