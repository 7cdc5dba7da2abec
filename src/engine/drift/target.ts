// Targets and their fingerprints: a file's content hash, a folder's listing, a symbol's own text
// (every definition of that name in the file, so an edit elsewhere in the file does not count), a
// markdown section under a heading, a range of lines, or the lines of a file that use a name (mention.ts).

import { frontMatterTitle } from '../indexing/headings';
import { sha256 } from '../trust/digest';
import { FenceTracker } from './fences';
import { chooseDefinitions, definitionsText, finderOf } from './finders';
import { mentionLines } from './mention';
import { siteOf } from './site';
import { kindsOf, type SymbolDefinition } from './symbols';
import type { TargetKind } from './types';
import type { Workspace } from './workspace';

export interface Target {
  path: string;
  kind: TargetKind;
  /** The symbol name, heading slug, `L10-L20` or mentioned name the fingerprint is narrowed to. */
  symbol: string | null;
  /** For a symbol: the finder whose spans the fingerprint covers (see finders.ts); absent: the best one now. */
  finder?: string | null;
}

export interface Print {
  fingerprint: string;
  size: number;
  mtimeMs: number;
  /** For a symbol, the finder that located it; else null. */
  finder: string | null;
  /** For a symbol, the kinds of its definitions (symbols.ts kindsOf); else null. */
  kinds: string | null;
}

/** A StatefulSet's pod name, `<name>-<n>`: the pod is found through its StatefulSet. */
export const POD_ORDINAL = /^(.+)-\d+$/;

/**
 * Definitions of `name` in a file (by `finder`, see finders.ts); a StatefulSet's pod (`<name>-0`) is found through its
 * StatefulSet.
 */
export function definitionsIn(ws: Workspace, path: string, name: string, finder?: string | null): SymbolDefinition[] {
  return chooseDefinitions(ws, path, name, finder, (defs) => {
    const exact = defs.filter((d) => d.name === name);
    if (exact.length) return exact;
    const pod = POD_ORDINAL.exec(name);
    return pod ? defs.filter((d) => d.name === pod[1] && d.kind === 'resource' && d.workload === 'StatefulSet') : [];
  });
}

/** Headings longer than this are slugged as written (see renderedHeading). */
const MAX_RENDERED_HEADING = 1000;

/**
 * A heading's text as the page shows it: a link shows its text (`[Loss of data](https://…)` is
 * "Loss of data"), an image and HTML tags nothing. GitHub and the generators slug this, not the source.
 */
function renderedHeading(heading: string): string {
  // A line this long is no heading anyone links to; rendering it would rescan it from every `[` and `<`.
  if (heading.length > MAX_RENDERED_HEADING) return heading;
  // Code spans are shown as written (`Future<Output = T>` is no tag); the text between them is rendered.
  return heading
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/!\[(?:[^\]\\]|\\.)*\](?:\([^)]*\)|\[[^\]]*\])/g, '')
            .replace(/\[((?:[^\]\\]|\\.)*)\](?:\([^)]*\)|\[[^\]]*\])/g, '$1')
            .replace(/<\/?[a-z][^>]*>/gi, ''),
    )
    .join('');
}

export function headingSlug(heading: string): string {
  return renderedHeading(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * An anchor as the generators compare it: GitHub, kramdown (Jekyll, Middleman), Python-Markdown
 * (MkDocs) and Hugo differ in what they do with punctuation, underscores, repeated dashes and
 * accents, never in the letters and digits. Anchors are compared on those alone.
 */
export function anchorKey(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The heading ids a tech-docs page has (govuk_tech_docs' UniqueIdentifierGenerator over Redcarpet's
 * header text): the HTML-escaped text (`'` is `&#39;`, so `we're` is `we-39-re`) with every run of
 * characters other than a-z and 0-9 a dash; a repeated id takes the id of the closest heading above
 * it of a higher level as a prefix (`what-we-decided-transit-gateway`), then `-2`, `-3`. Never
 * GitHub's `-1`.
 */
export class TechDocsIds {
  private readonly ids = new Set<string>();
  /** The last id given at each heading level (1–6): a repeat's prefix is the closest one above it. */
  private readonly lastAt: Array<string | undefined> = [];
  /** Per repeated id, the next `-n` to try: a page of many identical headings stays linear. */
  private readonly nextNumber = new Map<string, number>();

  next(heading: string, level: number): string {
    const escaped = renderedHeading(heading)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;');
    let id = escaped
      .toLowerCase()
      .trim()
      .replace(/[^0-9a-z]+/g, '-')
      .replace(/^-+|-+$/g, '');
    if (this.ids.has(id)) {
      const parent = this.parentOf(level);
      if (parent !== undefined) id = `${parent}-${id}`;
    }
    if (this.ids.has(id)) {
      let n = this.nextNumber.get(id) ?? 2;
      while (this.ids.has(`${id}-${n}`)) n++;
      this.nextNumber.set(id, n + 1);
      id = `${id}-${n}`;
    }
    this.ids.add(id);
    this.lastAt[level] = id;
    // A heading closes the sections below its level: they are no longer "above" what follows.
    this.lastAt.length = level + 1;
    return id;
  }

  /** The id of the closest heading above of a higher level (a lower number). */
  private parentOf(level: number): string | undefined {
    for (let l = level - 1; l >= 1; l--) if (this.lastAt[l] !== undefined) return this.lastAt[l];
    return undefined;
  }
}

/**
 * A heading line (in block quotes too) as [the line, its `#` run, its text], read without a pattern: the one
 * this replaces, `(#{1,6})\s+(.*?)\s*#*\s*$`, was cubic on a heading line of spaces. Redcarpet
 * (tech-docs, Middleman) renders `####Heading` with no space as a heading too: it is built without
 * `space_after_headers`. GitHub and CommonMark engines do not.
 */
function headingLine(line: string, redcarpet: boolean): [line: string, marks: string, text: string] | null {
  const start = /^\s{0,3}(?:>\s*)*/.exec(line)![0].length;
  let end = start;
  while (line[end] === '#') end++;
  if (end === start || end - start > 6) return null;
  const rest = line.slice(end);
  if (!redcarpet && !/^\s/.test(rest)) return null;
  let text = rest.trim();
  if (redcarpet && (!text || text[0] === '#')) return null;
  let close = text.length;
  while (close > 0 && text[close - 1] === '#') close--;
  text = text.slice(0, close).trimEnd();
  return [line, line.slice(start, end), text];
}
/** `## Title {#id}` (attr_list, kramdown, Hugo) and HTML anchors `<a name="x">`, `id="x"`. */
const EXPLICIT_ID = /\{:?\s*#([\w.:-]+)(?:[^\w.:{}-][^{}]*)?\}\s*$/;
const HTML_ID = /<[a-z][^<>]*\b(?:name|id)=["']([^"']+)["']/gi;
/** Content another file or a plugin puts into the page: snippets, includes, shortcodes, partials, directives. */
const INCLUDES = /^\s*(--8<--|:::\s|\{%\s*include|\{\{[<%]|<%=\s*partial|\.\.\s+(include|automodule|autoclass)::)/m;

/**
 * The text of the section a `#fragment` names, up to the next heading of its level or above: a
 * heading whose slug matches (headings in block quotes too), an explicit id, or the page title a
 * template fills from front matter. A page that pulls in content from elsewhere (snippets, includes,
 * directives) may hold anchors its source does not show: the whole page stands for the section.
 */
function sectionText(text: string, slug: string, techDocs = false): string | null {
  const lines = text.split(/\r?\n/);
  const key = anchorKey(slug);
  let start = -1;
  let level = 0;
  const fences = new FenceTracker();
  const title = frontMatterTitle(text);
  if (title && anchorKey(title) === key) return text;
  // GitHub numbers repeated headings: the second `## Beta` is `#beta-1`.
  const seen = new Map<string, number>();
  const ids = techDocs ? new TechDocsIds() : null;
  for (let i = 0; i < lines.length; i++) {
    // A `# comment` inside a fenced code block is no heading.
    if (fences.step(lines[i]) !== 'text') continue;
    const m = headingLine(lines[i], techDocs);
    if (m && start >= 0 && m[1].length <= level) return lines.slice(start, i).join('\n');
    if (start >= 0) continue;
    if (m) {
      const id = EXPLICIT_ID.exec(m[2]);
      const heading = renderedHeading(m[2].replace(EXPLICIT_ID, ''));
      const repeat = seen.get(headingSlug(heading)) ?? 0;
      seen.set(headingSlug(heading), repeat + 1);
      const suffix = repeat ? `-${repeat}` : '';
      // A tech-docs page has its generator's ids (and no `-1`); the first of a heading also GitHub's slug.
      const named = ids
        ? anchorKey(ids.next(heading, m[1].length)) === key || (!repeat && anchorKey(heading) === key)
        : anchorKey(heading) + (repeat ? String(repeat) : '') === key ||
          `${headingSlug(heading)}${suffix}` === slug.toLowerCase();
      if (named || (id && anchorKey(id[1]) === key)) {
        start = i;
        level = m[1].length;
        continue;
      }
    }
    for (const a of lines[i].matchAll(HTML_ID)) {
      if (anchorKey(a[1]) === key) {
        start = i;
        level = m ? m[1].length : 6;
      }
    }
  }
  if (start >= 0) return lines.slice(start).join('\n');
  return INCLUDES.test(text) ? text : null;
}

/** GitHub's line anchors: `L10`, `L10-L20`, `L10-20`, and with columns as permalinks write them (`L152C1-L153C1`). */
export const LINE_ANCHOR = /^L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?$/;

export function lineRange(spec: string): [number, number] | null {
  const m = LINE_ANCHOR.exec(spec);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] ? Number(m[2]) : from;
  return from >= 1 && to >= from ? [from, to] : null;
}

/** The text a target's fingerprint covers, or null when it is not there (file missing, symbol or heading absent). */
function targetText(ws: Workspace, target: Target): string | null {
  // A folder is what it holds: files added, removed or renamed change it, an edit inside one file
  // does not (the references to that file say so), or one edit would flag every mention of the folder.
  if (target.kind === 'dir') {
    const files = ws.filesUnder(target.path);
    return files.length ? files.map(([p]) => p.slice(target.path.length + 1)).join('\n') : null;
  }
  const text = ws.text(target.path);
  if (text === null) return null;
  if (target.kind === 'file' || !target.symbol) return text;
  if (target.kind === 'heading')
    return sectionText(text, target.symbol, siteOf(ws, target.path)?.generator === 'tech-docs');
  if (target.kind === 'mention') return mentionLines(text, target.symbol);
  if (target.kind === 'lines') {
    const range = lineRange(target.symbol);
    const lines = text.split(/\r?\n/);
    return range && range[1] <= lines.length ? lines.slice(range[0] - 1, range[1]).join('\n') : null;
  }
  const defs = definitionsIn(ws, target.path, target.symbol, target.finder);
  return defs.length ? definitionsText(text, defs) : null;
}

/** A target's fingerprint now: the hash of its text, or of a whole file's bytes when it has no text (an image). */
export function targetHash(ws: Workspace, target: Target): string | null {
  const text = targetText(ws, target);
  if (text !== null) return sha256(text);
  return target.kind === 'file' ? ws.digest(target.path) : null;
}

/** A folder's fingerprint as stores written before names-only listings kept it (names and sizes). */
export function legacyDirHash(ws: Workspace, target: Target): string | null {
  const files = ws.filesUnder(target.path);
  return files.length ? sha256(files.map(([p, s]) => `${p.slice(target.path.length + 1)} ${s.size}`).join('\n')) : null;
}

/** The fingerprint of empty text: it says nothing about where a target went. */
export const EMPTY_PRINT = sha256('');

export function fingerprintOf(ws: Workspace, target: Target): Print | null {
  const fingerprint = targetHash(ws, target);
  if (fingerprint === null) return null;
  const stat = target.kind === 'dir' ? { size: 0, mtimeMs: 0 } : (ws.stat(target.path) ?? { size: 0, mtimeMs: 0 });
  const defs =
    target.kind === 'symbol' && target.symbol ? definitionsIn(ws, target.path, target.symbol, target.finder) : null;
  return {
    fingerprint,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    finder: defs ? finderOf(defs) : null,
    kinds: defs ? kindsOf(defs) : null,
  };
}
