// Targets and their fingerprints: a file's content hash, a folder's listing, a symbol's own text
// (every definition of that name in the file, so an edit elsewhere in the file does not count), a
// markdown section under a heading, a range of lines, or the lines of a file that use a name (mention.ts).

import { sha256 } from '../model/digest';
import { FenceTracker } from '../text/fences';
import { frontMatterTitle } from '../text/frontMatter';
import { atxHeading } from '../text/headings';
import { headingSlug, renderedHeading } from '../text/slug';
import { chooseDefinitions, definitionsText, finderOf } from './finders';
import { LINE_ANCHOR } from './lineAnchor';
import { mentionLines } from './mention';
import { patternText } from './patterns';
import { declaredText } from './declared';
import { newSlugger, slugRuleOf, type SlugRule } from './slugs';
import { kindsOf, type SymbolDefinition } from './symbols';
import { TextMemo } from './textMemo';
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

/** `## Title {#id}` (attr_list, kramdown, Hugo) and HTML anchors `<a name="x">`, `id="x"`. */
const ATTRIBUTES = /\{:?\s*([#.][^{}]*)\}\s*$/;
const EXPLICIT_ID = /(?:^|\s)#([\w.:-]+)/;
/** `[^<>]`: an unclosed tag is read once, not retried at every `<` after it. */
const HTML_ID = /<[a-z][^<>]*\b(?:name|id)=["']([^"']+)["']/gi;
/** Content another file or a plugin puts into the page: snippets, includes, shortcodes, partials, directives. */
const INCLUDES = /^\s*(--8<--|:::\s|\{%\s*include|\{\{[<%]|<%=\s*partial|\.\.\s+(include|automodule|autoclass)::)/m;

/** A heading line of a page, with the id its publishing engine gives it. */
interface HeadingLine {
  line: number;
  level: number;
  /** The heading as the page shows it (links as their text, no tags). */
  text: string;
  /** The id the page's engine gives it (slugs.ts; tech-docs: TechDocsIds). */
  id: string;
  /** `{#id}` written after it. */
  explicit: string | null;
  /** How many headings above it GitHub slugs alike (GitHub's `-n`). */
  repeat: number;
  /** anchorKey and headingSlug of its text, its id and its explicit id: what an anchor is compared with. */
  textKey: string;
  textSlug: string;
  idKey: string;
  explicitKey: string | null;
}

/** Every heading of a page outside code blocks, in order, with its engine's ids (duplicates numbered as it does). */
function headingLines(lines: readonly string[], rule: SlugRule): HeadingLine[] {
  const out: HeadingLine[] = [];
  const fences = new FenceTracker();
  const seen = new Map<string, number>();
  const techDocs = rule.engine === 'redcarpet' ? new TechDocsIds() : null;
  const slugger = techDocs ? null : newSlugger(rule);
  for (let i = 0; i < lines.length; i++) {
    // A `# comment` inside a fenced code block is no heading.
    if (fences.step(lines[i]) !== 'text') continue;
    // Redcarpet (tech-docs, Middleman) renders `####Heading` with no space as a heading too: it is
    // built without `space_after_headers`. GitHub and CommonMark engines do not.
    const h = atxHeading(lines[i], { indented: true, blank: !techDocs, spaceless: techDocs !== null });
    if (!h) continue;
    // An attribute list (`{#id}`, `{: .wide }`) is no part of the text the id is made from.
    const attributes = ATTRIBUTES.exec(h.text);
    const explicit = attributes ? (EXPLICIT_ID.exec(attributes[1])?.[1] ?? null) : null;
    const source = attributes ? h.text.slice(0, attributes.index).trimEnd() : h.text;
    const text = renderedHeading(source);
    const textSlug = headingSlug(text);
    const repeat = seen.get(textSlug) ?? 0;
    seen.set(textSlug, repeat + 1);
    const level = h.level;
    const id = techDocs ? techDocs.next(text, level) : slugger!.next(source.trim(), text);
    out.push({
      line: i,
      level,
      text,
      id,
      explicit,
      repeat,
      textKey: anchorKey(text),
      textSlug,
      idKey: anchorKey(id),
      explicitKey: explicit === null ? null : anchorKey(explicit),
    });
  }
  return out;
}

/** Whether a heading is the one an anchor names, as its engine, GitHub, or a lenient reader would have it. */
function headingNamed(h: HeadingLine, slug: string, key: string, rule: SlugRule): boolean {
  if (h.explicitKey !== null && h.explicitKey === key) return true;
  if (h.id === slug) return true;
  // A tech-docs page has its generator's ids (and no `-1`); the first of a heading also GitHub's slug.
  if (rule.engine === 'redcarpet') return h.idKey === key || (!h.repeat && h.textKey === key);
  // GitHub's slug (the same page read on GitHub), and its letters and digits alone (anchorKey).
  const suffix = h.repeat ? `-${h.repeat}` : '';
  return h.textKey + (h.repeat ? String(h.repeat) : '') === key || `${h.textSlug}${suffix}` === slug;
}

/** Where a section ends: the next heading of its level or above (the end of the page when none). */
function sectionEnd(headings: readonly HeadingLine[], from: number, level: number, total: number): number {
  return headings.find((h) => h.line > from && h.level <= level)?.line ?? total;
}

/**
 * What every anchor into a page is looked up in, worked out once per text and slug rule: its lines,
 * its front-matter title's key, its headings, its HTML anchors (outside code blocks, in order) and
 * whether it pulls in content from elsewhere.
 */
interface Outline {
  lines: string[];
  titleKey: string | null;
  headings: HeadingLine[];
  htmlIds: Array<{ line: number; key: string }>;
  includes: boolean;
}

const outlines = new TextMemo<Outline>(64);

function outlineOf(text: string, rule: SlugRule): Outline {
  return outlines.get(text, `${rule.engine} ${rule.unicode ?? ''} ${rule.ascii ?? ''}`, () => {
    const lines = text.split(/\r?\n/);
    const title = frontMatterTitle(text);
    const htmlIds: Outline['htmlIds'] = [];
    const fences = new FenceTracker();
    for (let i = 0; i < lines.length; i++) {
      if (fences.step(lines[i]) !== 'text') continue;
      for (const a of lines[i].matchAll(HTML_ID)) htmlIds.push({ line: i, key: anchorKey(a[1]) });
    }
    return {
      lines,
      titleKey: title ? anchorKey(title) : null,
      headings: headingLines(lines, rule),
      htmlIds,
      includes: INCLUDES.test(text),
    };
  });
}

/**
 * The lines of the section a `#fragment` names, up to the next heading of its level or above: a
 * heading whose id matches (headings in block quotes too), an explicit id, or an HTML anchor; or the
 * whole page for its front-matter title or a page that pulls in content from elsewhere (snippets,
 * includes, directives), which may hold anchors its source does not show. `headed`: the section
 * starts with its heading line.
 */
function findSection(
  text: string,
  slug: string,
  rule: SlugRule,
): { lines: string[]; start: number; end: number; headed: boolean } | 'page' | null {
  const { lines, titleKey, headings, htmlIds, includes } = outlineOf(text, rule);
  const key = anchorKey(slug);
  if (titleKey !== null && titleKey === key) return 'page';
  // `#top` is the top of any page (HTML); a site's layout wraps the page in `#content`/`#main`.
  if (key === 'top' || (rule.engine !== 'github' && (key === 'content' || key === 'main'))) return 'page';
  const wanted = slug.toLowerCase();
  const named = headings.find((h) => headingNamed(h, wanted, key, rule));
  // An HTML anchor (`<a name="x">`, `id="x"`) above the first heading that matches is the one the link reaches.
  const before = named ? named.line : lines.length;
  const anchor = htmlIds.find((a) => a.line < before && a.key === key);
  if (anchor) {
    const i = anchor.line;
    const level = headings.find((h) => h.line === i)?.level ?? 6;
    return { lines, start: i, end: sectionEnd(headings, i, level, lines.length), headed: false };
  }
  if (named)
    return { lines, start: named.line, end: sectionEnd(headings, named.line, named.level, lines.length), headed: true };
  return includes ? 'page' : null;
}

/**
 * The text of the section a `#fragment` names, without its heading line: renaming the heading
 * leaves it, so the section is found again under its new id (renamedSection). `withHeading`: as
 * fingerprints were taken before (the heading line included).
 */
function sectionText(text: string, slug: string, rule: SlugRule, withHeading = false): string | null {
  const found = findSection(text, slug, rule);
  if (found === 'page') return text;
  if (!found) return null;
  const from = found.headed && !withHeading ? found.start + 1 : found.start;
  return found.lines.slice(from, found.end).join('\n');
}

/** Headings per page past which a renamed section is not looked for (each is hashed). */
const MAX_RENAMED_SEARCH = 2000;

/**
 * The id a section was renamed to: the one heading of the page whose section, below its heading line,
 * is exactly what was fingerprinted. Null when none or several are (an empty section says nothing).
 */
export function renamedSection(ws: Workspace, path: string, fingerprint: string): string | null {
  const text = ws.text(path);
  if (text === null || fingerprint === EMPTY_PRINT) return null;
  const { lines, headings } = outlineOf(text, slugRuleOf(ws, path));
  if (headings.length > MAX_RENAMED_SEARCH) return null;
  const found = headings.filter(
    (h) =>
      sha256(lines.slice(h.line + 1, sectionEnd(headings, h.line, h.level, lines.length)).join('\n')) === fingerprint,
  );
  return found.length === 1 ? (found[0].explicit ?? found[0].id) : null;
}

export { LINE_ANCHOR } from './lineAnchor';

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
  if (target.kind === 'pattern') return patternText(ws, target.path);
  if (target.kind === 'declared') return declaredText(ws, target.symbol);
  const text = ws.text(target.path);
  if (text === null) return null;
  if (target.kind === 'file' || !target.symbol) return text;
  // GitHub shows a README in a container with the id `readme`.
  if (target.kind === 'heading' && target.symbol === 'readme' && /(^|\/)readme\.[^/]+$/i.test(target.path)) return text;
  if (target.kind === 'heading') return sectionText(text, target.symbol, slugRuleOf(ws, target.path));
  if (target.kind === 'mention') return mentionLines(text, target.symbol);
  if (target.kind === 'lines') {
    const range = lineRange(target.symbol);
    const lines = text.split(/\r?\n/);
    return range && range[1] <= lines.length ? lines.slice(range[0] - 1, range[1]).join('\n') : null;
  }
  const defs = definitionsIn(ws, target.path, target.symbol, target.finder);
  return defs.length ? definitionsText(text, defs) : null;
}

/**
 * What a target's fingerprint depends on besides its path's text and stat, as a memo key (Workspace.memo); null for a
 * folder or a pattern, which depend on the listing. A symbol's also on the finder that reads its file now.
 */
function printKey(ws: Workspace, target: Target): string | null {
  if (target.kind === 'dir' || target.kind === 'pattern') return null;
  const finder = target.finder === undefined ? '\u0001' : String(target.finder);
  const parser = target.kind === 'symbol' ? String(ws.parserFinder(target.path)) : '';
  return `${target.kind}\u0000${target.symbol ?? ''}\u0000${finder}\u0000${parser}`;
}

/** A target's fingerprint now: the hash of its text, or of a whole file's bytes when it has no text (an image). */
export function targetHash(ws: Workspace, target: Target): string | null {
  const key = printKey(ws, target);
  return key === null ? hashNow(ws, target) : ws.memo(target.path, `hash\u0000${key}`, () => hashNow(ws, target));
}

function hashNow(ws: Workspace, target: Target): string | null {
  const text = targetText(ws, target);
  if (text !== null) return sha256(text);
  return target.kind === 'file' ? ws.digest(target.path) : null;
}

/** A folder's fingerprint as stores written before names-only listings kept it (names and sizes). */
export function legacyDirHash(ws: Workspace, target: Target): string | null {
  const files = ws.filesUnder(target.path);
  return files.length ? sha256(files.map(([p, s]) => `${p.slice(target.path.length + 1)} ${s.size}`).join('\n')) : null;
}

/** A section's fingerprint as stores written before renamed headings were followed took it (its heading line too). */
export function legacyHeadingHash(ws: Workspace, target: Target): string | null {
  const text = target.kind === 'heading' && target.symbol ? ws.text(target.path) : null;
  const section = text === null ? null : sectionText(text, target.symbol!, slugRuleOf(ws, target.path), true);
  return section === null ? null : sha256(section);
}

/** The fingerprint of empty text: it says nothing about where a target went. */
export const EMPTY_PRINT = sha256('');

export function fingerprintOf(ws: Workspace, target: Target): Print | null {
  const key = printKey(ws, target);
  const print =
    key === null ? printNow(ws, target) : ws.memo(target.path, `print\u0000${key}`, () => printNow(ws, target));
  // A copy: callers may change what they are given.
  return print && { ...print };
}

function printNow(ws: Workspace, target: Target): Print | null {
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
