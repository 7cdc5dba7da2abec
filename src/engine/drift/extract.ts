// Reference extraction: what a markdown document or a memory's anchors and links point at, as
// written — paths in code spans and code blocks, relative and root links, same-repository URLs,
// heading and line anchors, bare file names, symbols and command-line flags. Resolution against
// the workspace happens elsewhere (resolve.ts); this only reads text.

import { hasPlaceholders, isTemplateDocument } from '../text/templates';
import type { DocKind } from '../model/kinds';
import { commandOf } from './commands';
import { embedArguments, embedParts } from './embeds';
import { placeholderPaths } from './patterns';
import { FenceTracker } from '../text/fences';
import { LINE_ANCHOR } from './lineAnchor';
import type { ReferenceForm } from './types';

export interface RawReference {
  /** The text as written (the link target, the code-span token, the anchor). */
  raw: string;
  form: ReferenceForm;
  line: number;
  /** The path part, for path-like forms (without `#fragment`), as written. */
  path?: string;
  /** `#fragment` of a link or anchor: a heading slug, `L10-L20`, or a symbol name. */
  fragment?: string;
  symbol?: string;
  /** Found inside a fenced code block: kept only when it resolves (commands name many paths that are not ours). */
  inBlock?: boolean;
  /** A link (deliberate) rather than a mention: unresolved, it is broken rather than dropped. */
  deliberate?: boolean;
  /** A bare URL in running text: kept only when it resolves (a folder or file our walk leaves out may be there). */
  loose?: boolean;
  /** For a flag: the program the command line it is written in runs (commands.ts), as written. */
  command?: string;
  /** Written in a code file's comment (codeComments.ts): kept only when it names a file of ours that is there. */
  comment?: boolean;
}

// Every pattern here runs on untrusted text, line by line, and must stay linear in the line (a line
// of 256 KiB of `[` took 110 s with the link pattern before it was bounded). A link starts at a `[`
// no backslash escapes; its text holds no `[` and at most 1,000 characters, and its target stops
// at the next `](`, so the scans from two starts never run over the same text twice.
const LINK = /(?<!\\)!?\[(?:[^[\]\\]|\\.){0,1000}\]\(\s*<?((?:[^)\s>\]]|\](?!\())+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+["'(].*)?$/;
/** A run of backticks opens a span only from its first backtick (else a run of n backticks is n² steps). */
const CODE_SPAN = /(?<!`)(`+)([^`]+?)\1(?!`)/g;
const AUTOLINK = /<(https?:\/\/[^<>\s]+)>/g;
/** Characters a path or symbol token can hold; anything else separates tokens in code. */
const TOKEN_SPLIT = /[\s=,;:"'`[\]{}<>|&]+/;
// `--name`, and single-dash long flags as Go's flag package spells them (`-upgrade-version`, `-kubeconfig`):
// four letters or more, so `-rf` and `-it` are not taken for one.
// kingpin's flags have dotted names (`--storage.tsdb.path`).
const FLAG =
  /(?:^|[\s"'`(=[])(--[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*|-[a-z][a-z0-9]{3,}(?:-[a-z0-9]+)*)(?=$|[\s=,"'`)\]])/g;
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,9}$/;
const PATHISH = /^[\w.@+~-]+(?:\/[\w.@+~-]+)*\/?$/;
const URL_PATTERN = /^https?:\/\//i;

/**
 * An identifier worth looking up: distinctive enough (snake, kebab, camel case, dotted, or called) that a match is not
 * a coincidence.
 */
function symbolCandidate(token: string): string | null {
  const called = /^([A-Za-z_$][\w$.]*)\(\)$/.exec(token);
  if (called) return called[1].split('.').pop()!.length >= 3 ? called[1] : null;
  if (!/^[A-Za-z_][\w.-]*[\w]$/.test(token) || token.length < 4 || token.length > 100) return null;
  if (/^\d|\.\./.test(token)) return null;
  const distinctive =
    /[a-z0-9][A-Z]/.test(token) ||
    /[A-Za-z0-9][_-][A-Za-z0-9]/.test(token) ||
    /^(var|module|data|local|output)\.\w/.test(token) ||
    /^[a-z]+_[a-z_]+\.\w/.test(token);
  return distinctive ? token : null;
}

/** What a single code token is: a URL, a path, a bare file name, a flag, a symbol — or nothing. */
function classifyToken(token: string, line: number, inBlock: boolean): RawReference[] {
  // `name()` is a call; any other parenthesis ends the token (`file(path)` → `file`).
  const call = /^\(*([A-Za-z_$][\w$.]*\(\))/.exec(token);
  const cleaned = call ? call[1] : withoutTrailing(token.replace(/^\(+/, '').replace(/\(.*$/, ''), ')]},.;:!?');
  if (!cleaned || cleaned.length > 300) return [];
  if (URL_PATTERN.test(cleaned)) return [{ raw: cleaned, form: 'url', line, inBlock }];
  if (cleaned.includes('://') || cleaned.includes('$') || cleaned.includes('*')) return [];
  const [pathPart, fragment] = splitFragment(cleaned);
  if (pathPart.includes('/') && PATHISH.test(pathPart) && /[A-Za-z]/.test(pathPart)) {
    return [{ raw: cleaned, form: 'path', line, path: pathPart, fragment, inBlock }];
  }
  if (
    EXTENSION.test(pathPart) &&
    PATHISH.test(pathPart) &&
    !/^\d/.test(pathPart) &&
    !/^[\w-]+\.(com|org|net|io|dev|uk|gov)$/i.test(pathPart)
  ) {
    // `var.region` and `aws_s3_bucket.logs` look like file names too: the file wins when there is one.
    const symbol = fragment === undefined ? symbolCandidate(pathPart) : null;
    return [{ raw: cleaned, form: 'filename', line, path: pathPart, fragment, inBlock, ...(symbol ? { symbol } : {}) }];
  }
  const symbol = symbolCandidate(cleaned);
  return symbol ? [{ raw: cleaned, form: 'symbol', line, symbol, inBlock }] : [];
}

/** `text` without the run of `chars` it ends with: a loop, where `[…]+$` retries at every offset of a long run. */
function withoutTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1])) end--;
  return text.slice(0, end);
}

function splitFragment(target: string): [string, string | undefined] {
  const hash = target.indexOf('#');
  return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1) || undefined];
}

function codeReferences(code: string, line: number, inBlock: boolean): RawReference[] {
  const out: RawReference[] = [];
  // A flag is a claim about the program its line runs, and about nothing else: a flag on its own, or
  // after a command that is no program of ours, is no reference (resolve.ts decides which is ours).
  const command = commandOf(code);
  if (command)
    for (const match of matchesOf(FLAG, code))
      out.push({ raw: match[1], form: 'flag', line, symbol: match[1], inBlock, command });
  for (const pattern of placeholderPaths(code)) out.push({ raw: pattern, form: 'path', line, path: pattern, inBlock });
  for (const token of code.split(TOKEN_SPLIT)) {
    if (!token || token.startsWith('--')) continue;
    out.push(...classifyToken(token, line, inBlock));
  }
  return out;
}

/**
 * Files and URLs named in running text ("edit values.yaml", "see docs/setup.md"): paths, file names and URLs —
 * prose words are not looked up as symbols (`read-only` is no key) — and kept only when they
 * resolve, as a code block's are (prose names other projects' files as often as ours).
 */
function proseFiles(prose: string, line: number): RawReference[] {
  const out: RawReference[] = [];
  for (const word of prose.split(/\s+/)) {
    const token = withoutTrailing(word.replace(/^[*_~"'(<[]+/, ''), '*_~"\')>]]');
    if (!token || !/[./]/.test(token)) continue;
    // A bare URL GitHub links by itself: ours (a blob or a page of our docs site) is a reference (resolve.ts).
    if (URL_PATTERN.test(token)) {
      for (const ref of classifyToken(token, line, true)) if (ref.form === 'url') out.push({ ...ref, loose: true });
      continue;
    }
    for (const ref of classifyToken(token, line, true)) {
      if (ref.form === 'path' || ref.form === 'filename')
        out.push({ raw: ref.raw, form: ref.form, line, path: ref.path, fragment: ref.fragment, inBlock: true });
    }
  }
  return out;
}

/**
 * "the `nodejs` role", "role `nodejs`": an Ansible role by name, which a bare word would not be worth looking up as.
 */
function roleMention(line: string, at: number, span: string, name: string, number: number): RawReference | null {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) return null;
  const after = /^\s+role\b/.exec(line.slice(at + span.length));
  // Only the words just before the span are read: a search of the whole line before each span is n².
  const head = line.slice(0, at);
  const spaced = head.trimEnd();
  const before =
    spaced.length < head.length && /(?:^|\W)role$/.test(spaced.slice(-5)) ? [head.slice(spaced.length - 4)] : null;
  if (!after && !before) return null;
  const raw = after ? `${span}${after[0]}` : `${before![0]}${span}`;
  return { raw, form: 'role', line: number, symbol: name };
}

/** `[text](#section)`: a heading of the same document (resolved against the document itself, resolve.ts). */
function inPageAnchor(cleaned: string, line: number): RawReference | null {
  let fragment = cleaned.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // a malformed escape is kept as written
  }
  // `#L10` is a line of a code file on GitHub, and `#{x}`/`#!` are template or router syntax, not headings.
  if (!fragment || !/^[\p{L}\p{N}]/u.test(fragment) || LINE_ANCHOR.test(fragment)) return null;
  return { raw: cleaned, form: 'heading', line, fragment, deliberate: true };
}

function linkReference(target: string, line: number): RawReference | null {
  const cleaned = target.trim().replace(/^\(+/, '');
  if (!cleaned || /^(mailto|tel|data|javascript):/i.test(cleaned)) return null;
  if (URL_PATTERN.test(cleaned)) return { raw: cleaned, form: 'url', line, deliberate: true };
  if (cleaned.startsWith('#')) return inPageAnchor(cleaned, line);
  if (/^[a-z][a-z0-9+.-]*:/i.test(cleaned)) return null;
  // A link a template fills in (`#{app.name}`, `<%= x %>`, `{{ .x }}`, `{SLUG}`) names no file yet.
  if (/#\{|<%|\{\{|\{[A-Za-z_]\w*\}/.test(cleaned) || /^[A-Z][A-Z0-9_]+$/.test(cleaned)) return null;
  // Markup the link pattern half-matched (`[[a](b)](c)`), and a host written without its scheme
  // (`github.com/x/y`, `git.k8s.io/z`, `www.boost.org/...`): another site's, not a path here.
  if (
    cleaned.startsWith('[') ||
    cleaned.includes('](') ||
    /^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|gov|uk|edu|sh|co|app|cloud)(\/|$)/i.test(cleaned)
  )
    return null;
  const [pathPart, fragment] = splitFragment(cleaned.split('?')[0]);
  if (!pathPart) return null;
  let decoded = pathPart;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    // a malformed escape is kept as written
  }
  return { raw: cleaned, form: 'link', line, path: decoded, fragment, deliberate: true };
}

/** A doc tool's embed directive (embeds.ts): the file, and for a sed range its lines (`L3-L20`). */
function embedReferences(line: string, number: number): RawReference[] {
  return embedArguments(line).map((argument) => {
    const { path, range } = embedParts(argument)!;
    const fragment = range ? `L${range[0]}-L${range[1]}` : undefined;
    return { raw: argument, form: 'embed', line: number, path, fragment, deliberate: true };
  });
}

/** `[^<>]`: a tag never spans another `<`, so a line of unclosed `<img` is read once, not once per tag. */
const HTML_TAG = /<(?:img|a|source|video|audio|embed|iframe)\b[^<>]*>/gi;
const HTML_ADDRESS = /\s(?:src|href|poster)\s*=\s*(["'])([^"'<>]*)\1/gi;

/** `<img src="../img/x.png">`, `<a href="x.md">`: an address in an HTML tag, read as a link. */
function htmlReferences(prose: string, line: number): RawReference[] {
  const out: RawReference[] = [];
  for (const tag of matchesOf(HTML_TAG, prose))
    for (const attribute of matchesOf(HTML_ADDRESS, tag[0])) {
      const ref = linkReference(attribute[2], line);
      if (ref) out.push(ref);
    }
  return out;
}

/**
 * A release-note fragment (`releasenotes/notes/*.yaml`, as reno and Istio write them): one change
 * of the release being made, its markdown in YAML strings. Its upgrade notes are claims about the
 * tree now (`--set resourceName=…`), so every reference counts, not only its links.
 */
export const RELEASE_NOTE = /(^|\/)releasenotes\/notes\/[^/]+\.ya?ml$/i;

/**
 * Every reference a markdown document makes, with 1-based line numbers. Given its path and kind: a
 * template makes none (its names are placeholders), and a changelog only its links (a path an old
 * entry mentions was true then; an entry is history, not a claim about the tree now). The kind is
 * the caller's to know (the index's, sourceSync.ts): drift does not classify pages itself.
 */
export function extractFromMarkdown(text: string): RawReference[];
export function extractFromMarkdown(text: string, path: string, kind: DocKind): RawReference[];
export function extractFromMarkdown(text: string, path?: string, kind?: DocKind): RawReference[] {
  if (path === undefined || RELEASE_NOTE.test(path)) return extractAll(text);
  // A README about a folder of templates is read; a skeleton is not: a README with placeholders, or
  // one that is the page of a skeleton folder (`0000-kep-template/README.md`).
  const readme = /(^|\/)readme\.[^/]+$/i.test(path) && !/(^|[/_.-])template\/readme\.[^/]+$/i.test(path);
  if (isTemplateDocument(path, text) && (!readme || hasPlaceholders(text))) return [];
  const refs = extractAll(text);
  return kind === 'changelog' ? refs.filter((r) => r.deliberate) : refs;
}

/**
 * Whether a link of the document (`[label]`, `[text][label]`) uses a reference definition, from one
 * pass over the document on first asking: searching every line for each definition was n² on a
 * document of definitions.
 */
class LabelUses {
  /** Each bracketed label, lowercased, with the first two distinct lines it is written on. */
  private lines: Map<string, number[]> | null = null;

  constructor(private readonly text: readonly string[]) {}

  usedElsewhere(label: string, at: number): boolean {
    if (!this.lines) {
      this.lines = new Map();
      this.text.forEach((line, i) => {
        for (const match of matchesOf(/\[([^[\]]*)\]/g, line.toLowerCase())) {
          const seen = this.lines!.get(match[1]) ?? [];
          if (seen.length < 2 && seen[seen.length - 1] !== i) seen.push(i);
          this.lines!.set(match[1], seen);
        }
      });
    }
    return (this.lines.get(label.trim().toLowerCase()) ?? []).some((i) => i !== at);
  }
}

/** A global pattern's matches by `exec`: `matchAll` costs several times more per match, and a line may hold 250,000. */
function* matchesOf(pattern: RegExp, text: string): Generator<RegExpExecArray & { index: number }> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0] === '') pattern.lastIndex++;
    yield match;
  }
}

/**
 * The line with its code spans blanked to spaces (offsets kept), built in one buffer: joining a
 * piece per span was the slowest step on a line of 250,000 spans.
 */
function blankedOut(line: string, spans: ReadonlyArray<readonly [number, number]>): string {
  if (!spans.length) return line;
  const codes = new Uint16Array(line.length);
  for (let i = 0; i < line.length; i++) codes[i] = line.charCodeAt(i);
  for (const [start, end] of spans) codes.fill(32, start, end);
  return UTF16.decode(codes);
}
const UTF16 = new TextDecoder('utf-16le');

function extractAll(text: string): RawReference[] {
  const out: RawReference[] = [];
  const lines = text.split(/\r?\n/);
  const fences = new FenceTracker();
  const labels = new LabelUses(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const number = i + 1;
    const kind = fences.step(line);
    if (kind === 'code') out.push(...codeReferences(line, number, true));
    // mdox writes its directive on the fence that opens the block it fills (```go mdox-exec="cat x.go").
    if (kind === 'open') out.push(...embedReferences(line, number));
    if (kind !== 'text') continue;
    out.push(...embedReferences(line, number));
    const definition = REFERENCE_DEFINITION.exec(line);
    if (definition) {
      const ref = linkReference(definition[2], number);
      // A definition no link uses renders nothing: the RFC template's `[summary]: #summary` under each heading.
      if (ref && (ref.form !== 'heading' || labels.usedElsewhere(definition[1], i))) out.push(ref);
      continue;
    }
    // Code spans first; links are looked for in the text with the spans blanked out.
    const spans: Array<[start: number, end: number]> = [];
    for (const match of matchesOf(CODE_SPAN, line)) {
      out.push(...codeReferences(match[2].trim(), number, false));
      const role = roleMention(line, match.index, match[0], match[2].trim(), number);
      if (role) out.push(role);
      spans.push([match.index, match.index + match[0].length]);
    }
    const prose = blankedOut(line, spans);
    for (const match of matchesOf(LINK, prose)) {
      const ref = linkReference(match[1], number);
      if (ref) out.push(ref);
    }
    for (const match of matchesOf(AUTOLINK, prose))
      out.push({ raw: match[1], form: 'url', line: number, deliberate: true });
    out.push(...htmlReferences(prose, number));
    out.push(...proseFiles(prose.replace(LINK, ' ').replace(AUTOLINK, ' ').replace(HTML_TAG, ' '), number));
  }
  return dedupe(out);
}

/**
 * A memory's anchors and links: paths, `path#symbol`, `path#L10-L20`, URLs, bare symbols. Keys of other memories are
 * not references to files.
 */
export function extractFromMemory(
  anchors: readonly string[],
  links: readonly string[],
  isMemoryKey: (text: string) => boolean,
): RawReference[] {
  const out: RawReference[] = [];
  const take = (text: string, form: 'anchor' | 'memory_link') => {
    const raw = text.trim();
    if (!raw || isMemoryKey(raw)) return;
    if (URL_PATTERN.test(raw)) {
      out.push({ raw, form, line: 0, deliberate: true });
      return;
    }
    const [pathPart, fragment] = splitFragment(raw);
    if (!pathPart && fragment) {
      out.push({ raw, form, line: 0, symbol: fragment, deliberate: true });
      return;
    }
    if (pathPart.includes('/') || EXTENSION.test(pathPart)) {
      out.push({ raw, form, line: 0, path: pathPart.replace(/^\.\//, ''), fragment, deliberate: true });
      return;
    }
    const symbol = symbolCandidate(pathPart) ?? (/^[A-Za-z_][\w.-]*$/.test(pathPart) ? pathPart : null);
    if (symbol) out.push({ raw, form, line: 0, symbol, deliberate: true });
  };
  anchors.forEach((a) => take(a, 'anchor'));
  links.forEach((l) => take(l, 'memory_link'));
  return dedupe(out);
}

/** How a reference is matched between extractions: its text, and for a flag the program it is given to. */
export function refKey(raw: string, command: string | null | undefined): string {
  return command ? `${raw}\u0000${command}` : raw;
}

function dedupe(refs: RawReference[]): RawReference[] {
  const seen = new Map<string, RawReference>();
  for (const ref of refs) {
    // A flag is one reference per program it is given to (`--dry-run` after two scripts is two claims).
    const key = refKey(ref.raw, ref.command);
    const before = seen.get(key);
    // A mention in prose outranks one in a code block (it is kept even when it does not resolve).
    if (!before || (before.inBlock && !ref.inBlock))
      seen.set(key, before ? { ...ref, line: Math.min(before.line, ref.line) } : ref);
  }
  return [...seen.values()];
}
