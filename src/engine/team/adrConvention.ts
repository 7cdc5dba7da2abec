// A repository's ADR convention and a decision rendered in it. Detected, in order: adr-tools
// (`.adr-dir`), log4brains (`.log4brains.yml`), then the folder holding most of the documents the
// index classified as ADRs, whatever it is called (a well-known folder name only when nothing is
// indexed yet): adr-tools' own first record, MADR (an `adr-template.md`, or MADR's sections), or a
// plain folder of numbered ADRs. Numbering continues the folder's own (prefix, zero padding,
// separator); log4brains names files by date.

import type { Memory } from '../model/types';
import { wordSlug } from '../model/keys';
import type { RepoFiles } from './repoFiles';
import { openFence } from '../text/fences';
import { dirName } from '../text/paths';

export type AdrStyle = 'adr-tools' | 'madr' | 'log4brains' | 'plain' | 'default';

export interface AdrConvention {
  style: AdrStyle;
  dir: string;
  /** File name prefix before the number (e.g. "ADR-"), the number's width, and the next number. */
  prefix: string;
  /** What separates the number from the title in a file name ("-" or "_"). */
  separator: string;
  width: number;
  next: number;
  /** adr-tools' own template (`<dir>/templates/template.md`), when the repository has one. */
  template: string | null;
  /** MADR 3+ keeps status and date in front matter; MADR 2 in a bullet list. */
  frontMatter: boolean;
  /** For a plain folder: the newest ADR's first heading, to title the new one alike. */
  headingExample: string | null;
}

const CANDIDATE_DIRS = [
  'docs/decisions',
  'docs/adr',
  'docs/adrs',
  'doc/adr',
  'doc/adrs',
  'doc/decisions',
  'adr',
  'adrs',
  'decisions',
  'docs/architecture/decisions',
  'docs/architecture-decisions',
  'architecture/decisions',
  'docs/design/decisions',
];
const NUMBERED = /^([A-Za-z]*[-_]?)(\d+)([-_ .])/;
const LORE_MARKER = /<!-- lore: (\S+) /;

function normalise(dir: string): string {
  return dir.trim().replace(/^\.\//, '').replace(/\/+$/, '');
}

function markdownFiles(repo: RepoFiles, dir: string): string[] {
  return (repo.list(dir) ?? []).filter((name) => /\.md$/i.test(name)).sort();
}

function numbering(files: string[]): Pick<AdrConvention, 'prefix' | 'width' | 'next' | 'separator'> {
  const numbered = files.map((name) => NUMBERED.exec(name)).filter((m): m is RegExpExecArray => m !== null);
  if (!numbered.length) return { prefix: '', width: 4, next: 1, separator: '-' };
  const latest = numbered.reduce((a, b) => (Number(b[2]) >= Number(a[2]) ? b : a));
  const padded = numbered.some((m) => m[2].startsWith('0'));
  const separator = latest[3] === '_' ? '_' : '-';
  const next = Math.max(...numbered.map((m) => Number(m[2]))) + 1;
  return { prefix: latest[1], width: padded ? latest[2].length : 0, next, separator };
}

function firstHeading(text: string | null): string | null {
  return text ? (/^#\s+.+$/m.exec(text)?.[0] ?? null) : null;
}

function convention(repo: RepoFiles, style: AdrStyle, dir: string): AdrConvention {
  const files = markdownFiles(repo, dir).filter(
    (name) => !/template/i.test(name) && !/^(readme|index)\.md$/i.test(name),
  );
  const madrTemplate = repo.read(`${dir}/adr-template.md`) ?? repo.read(`${dir}/template.md`);
  const sample = files.length ? repo.read(`${dir}/${files[files.length - 1]}`) : null;
  const frontMatterSource = madrTemplate ?? sample ?? '';
  return {
    style,
    dir,
    ...numbering(files),
    template: style === 'adr-tools' ? repo.read(`${dir}/templates/template.md`) : null,
    frontMatter: /^status:/m.test(/^---\r?\n([\s\S]*?)\r?\n---/.exec(frontMatterSource)?.[1] ?? ''),
    headingExample: style === 'plain' ? firstHeading(sample) : null,
  };
}

function looksMadr(repo: RepoFiles, dir: string, files: string[]): boolean {
  if (repo.read(`${dir}/adr-template.md`) !== null) return true;
  return files
    .slice(-3)
    .some((name) =>
      /^##\s+(Context and Problem Statement|Decision Outcome|Considered Options)\s*$/m.test(
        repo.read(`${dir}/${name}`) ?? '',
      ),
    );
}

/** The folders holding the indexed ADRs, most ADRs first (a tie goes to the shallower folder). */
export function adrFolders(indexedAdrs: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const path of indexedAdrs) {
    const dir = dirName(path);
    if (!dir || /(^|\/)templates?$/i.test(dir)) continue;
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  const depth = (dir: string) => dir.split('/').length;
  const order = (a: [string, number], b: [string, number]) =>
    b[1] - a[1] || depth(a[0]) - depth(b[0]) || a[0].localeCompare(b[0]);
  return [...counts].sort(order).map(([dir]) => dir);
}

/**
 * The repository's ADR convention, or null when it has no ADR folder. `indexedAdrs`: the paths
 * the index classified as ADRs; with none, the well-known folder names are looked at instead.
 */
export function detectAdrConvention(repo: RepoFiles, indexedAdrs: readonly string[] = []): AdrConvention | null {
  const adrDir = repo.read('.adr-dir');
  if (adrDir !== null && adrDir.trim()) return convention(repo, 'adr-tools', normalise(adrDir.split('\n')[0]));
  const log4brains = repo.read('.log4brains.yml');
  if (log4brains !== null) {
    const folder = /^\s*adrFolder:\s*["']?([^"'\n#]+?)["']?\s*$/m.exec(log4brains)?.[1];
    return convention(repo, 'log4brains', normalise(folder ?? 'docs/adr'));
  }
  const learned = adrFolders(indexedAdrs);
  for (const dir of learned.length ? learned : CANDIDATE_DIRS) {
    const files = markdownFiles(repo, dir);
    if (!files.length) continue;
    if (dir === 'doc/adr' && files.some((f) => /^0001-record-architecture-decisions\.md$/.test(f)))
      return convention(repo, 'adr-tools', dir);
    if (looksMadr(repo, dir, files)) return convention(repo, 'madr', dir);
    if (files.some((f) => NUMBERED.test(f)) || learned.length) return convention(repo, 'plain', dir);
  }
  return null;
}

/** Where a repository without an ADR folder gets one: docs/adr, Nygard's format, 0001 onwards. */
export function defaultAdrConvention(): AdrConvention {
  return {
    style: 'default',
    dir: 'docs/adr',
    prefix: '',
    separator: '-',
    width: 4,
    next: 1,
    template: null,
    frontMatter: false,
    headingExample: null,
  };
}

/** The ADR already written for `key` in this folder, if any (found by the marker Lore leaves). */
export function existingAdrFor(repo: RepoFiles, conv: AdrConvention, key: string): string | null {
  for (const name of markdownFiles(repo, conv.dir)) {
    const marker = LORE_MARKER.exec(repo.read(`${conv.dir}/${name}`) ?? '');
    if (marker?.[1] === key) return `${conv.dir}/${name}`;
  }
  return null;
}

// --- rendering ---------------------------------------------------------------------------------

function statusWord(m: Memory): string {
  switch (m.status) {
    case 'superseded':
      return `Superseded by ${m.superseded_by ?? 'a later decision'}`;
    case 'deprecated':
      return 'Deprecated';
    case 'disputed':
      return 'Accepted (disputed)';
    default:
      return 'Accepted';
  }
}

function consequences(m: Memory): string {
  const lines: string[] = [];
  if (m.anchors.length) lines.push('This decision applies to:', '', ...m.anchors.map((a) => `- \`${a}\``));
  if (m.links.length) lines.push(...(lines.length ? [''] : []), 'See also:', '', ...m.links.map((l) => `- ${l}`));
  return lines.length ? lines.join('\n') : '_None recorded._';
}

function marker(m: Memory): string {
  return `<!-- lore: ${m.key} v${m.version} ${m.content_digest} -->`;
}

/** File names stay readable in a folder listing and a pull request: the title to a word boundary. */
const FILE_SLUG_MAX = 60;

/**
 * What a decision decided: its body, or its description when it has no body. A body whose code
 * fence is left open would turn every later section into code: it is closed with the fence it opened.
 */
function decisionText(m: Memory): string {
  const text = m.body.trim() || m.description;
  const open = openFence(text);
  return open ? `${text}\n${open}` : text;
}

/** The sections MADR and log4brains share, after their heading and metadata. */
function madrSections(m: Memory): string[] {
  return [
    '',
    '## Context and Problem Statement',
    '',
    m.description,
    '',
    '## Decision Outcome',
    '',
    decisionText(m),
    '',
    '### Consequences',
    '',
    consequences(m),
    '',
    marker(m),
    '',
  ];
}

function numberText(conv: AdrConvention): string {
  return String(conv.next).padStart(conv.width, '0');
}

function nygard(conv: AdrConvention, m: Memory, date: string): string {
  const decision = decisionText(m);
  if (conv.template) {
    const filled = conv.template
      .replace(/\bNUMBER\b/g, String(conv.next))
      .replace(/\bTITLE\b/g, m.title)
      .replace(/\bDATE\b/g, date)
      .replace(/\bSTATUS\b/g, statusWord(m));
    return (
      fillSections(filled, [
        [/\bcontext\b/i, m.description],
        [/\bdecision\b/i, decision],
        [/\bconsequences?\b/i, consequences(m)],
      ]) + `\n${marker(m)}\n`
    );
  }
  let heading = `# ${conv.next}. ${m.title}`;
  const example = conv.headingExample && /^#\s+(.*?)(\d+)(\s*[.:\u2013-]\s*|\s+)\S/.exec(conv.headingExample);
  if (example) {
    const number = String(conv.next).padStart(example[2].startsWith('0') ? example[2].length : 0, '0');
    heading = `# ${example[1]}${number}${example[3]}${m.title}`;
  } else if (conv.headingExample) heading = `# ${m.title}`;
  return [
    heading,
    '',
    `Date: ${date}`,
    '',
    '## Status',
    '',
    statusWord(m),
    '',
    '## Context',
    '',
    m.description,
    '',
    '## Decision',
    '',
    decision,
    '',
    '## Consequences',
    '',
    consequences(m),
    '',
    marker(m),
    '',
  ].join('\n');
}

function madr(conv: AdrConvention, m: Memory, date: string): string {
  const status = statusWord(m).toLowerCase();
  const head = conv.frontMatter
    ? ['---', `status: ${status}`, `date: ${date}`, '---', `# ${m.title}`]
    : [`# ${m.title}`, '', `* Status: ${status}`, `* Date: ${date}`];
  return [...head, ...madrSections(m)].join('\n');
}

function log4brains(m: Memory, date: string): string {
  const meta = [
    `- Status: ${statusWord(m).toLowerCase()}`,
    `- Date: ${date}`,
    ...(m.tags.length ? [`- Tags: ${m.tags.join(', ')}`] : []),
  ];
  return [`# ${m.title}`, '', ...meta, ...madrSections(m)].join('\n');
}

/** Replaces the text under each heading that matches with the given text (first match of each). */
function fillSections(template: string, fills: [RegExp, string][]): string {
  const lines = template.replace(/\s+$/, '').split('\n');
  const out: string[] = [];
  const used = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const heading = /^(#{2,6})\s+(.*)$/.exec(lines[i]);
    if (!heading) continue;
    const which = fills.findIndex(([pattern], n) => !used.has(n) && pattern.test(heading[2]));
    if (which < 0) continue;
    used.add(which);
    let j = i + 1;
    while (j < lines.length && !/^#{1,6}\s/.test(lines[j])) j++;
    out.push('', fills[which][1], '');
    i = j - 1;
  }
  return out.join('\n') + '\n';
}

/** The ADR file for a decision: its path in the convention's folder and its text. */
export function renderAdr(conv: AdrConvention, m: Memory): { path: string; content: string } {
  const date = m.valid_from.slice(0, 10);
  const slug = wordSlug(m.title, FILE_SLUG_MAX);
  if (conv.style === 'log4brains')
    return { path: `${conv.dir}/${date.replace(/-/g, '')}-${slug}.md`, content: log4brains(m, date) };
  const name = conv.separator === '_' ? slug.replace(/-/g, '_') : slug;
  const path = `${conv.dir}/${conv.prefix}${numberText(conv)}${conv.separator}${name}.md`;
  return { path, content: conv.style === 'madr' ? madr(conv, m, date) : nygard(conv, m, date) };
}
