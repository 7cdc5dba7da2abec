// The signals the kind model weighs, read from one file: its path and name, its front matter, the
// vocabulary of its headings and title, its structure (numbered steps, shell blocks, status lines,
// dates, tables, link density, generated-reference markers) and the repository's conventions around
// it (kindConventions.ts). Each signal is a named feature with a value in about [0, 3]; the model
// (kindModel.ts) knows a weight per name. Linear in the input: only the first READ_LIMIT characters
// are read, every pattern is anchored to a line or bounded, and each line is looked at a fixed
// number of times.

import { atxHeading } from '../text/headings';
import type { FolderConventions } from './kindConventionShapes';
import { isImperative } from './procedure';
import { baseName, dirName } from '../text/paths';
import { FenceTracker } from '../text/fences';
import { frontMatter } from '../text/frontMatter';

/** How much of a file is read: the first screens decide what a document is. */
export const READ_LIMIT = 16 * 1024;

export type Features = Map<string, number>;

/** Words that say nothing about a kind in any position (left out of token features). */
const STOP = new Set(
  'the a an and or of to in on for with by at is are be it this that as from how what why'.split(' ').concat(''),
);

/** Words of a name or heading: lower-cased letters, digits folded to `#`, stop words left out. */
export function tokens(text: string, limit = 24): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (out.length >= limit) break;
    const word = /^\d+$/.test(raw) ? '#' : raw.replace(/\d+/g, '#');
    if (word.length > 24 || STOP.has(word)) continue;
    out.push(word);
  }
  return out;
}

function add(f: Features, name: string, value = 1): void {
  f.set(name, Math.max(f.get(name) ?? 0, value));
}

/** A count on a log scale, so a page of 400 steps does not outweigh everything else. */
function scaled(n: number): number {
  return Math.min(3, Math.log2(1 + n) / 2);
}

/** Extensions that read as prose pages (the model's inputs); the rest are kinds by definition. */
export function proseExtension(path: string): string | null {
  const lower = path.toLowerCase();
  const name = baseName(lower);
  if (lower.endsWith('.md.erb') || lower.endsWith('.html.md')) return 'md';
  if (lower.endsWith('.html.erb')) return 'html.erb';
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  if (['md', 'mdx', 'markdown', 'rst', 'adoc', 'asciidoc', 'txt', 'org', 'textile'].includes(ext)) return ext;
  return /^readme$/.test(name) ? 'none' : null;
}

function pathFeatures(f: Features, path: string): void {
  const lower = path.toLowerCase();
  const slash = lower.lastIndexOf('/');
  const name = lower.slice(slash + 1);
  const stem = name.replace(/(\.[a-z0-9]+)+$/, '');
  add(f, `ext:${proseExtension(path) ?? 'other'}`);
  for (const t of tokens(stem, 8)) add(f, `name:${t}`);
  if (/^\d{1,5}[-_. ]/.test(stem) || /^[a-z]{2,5}[-_ ]?\d{2,5}([-_. ]|$)/.test(stem)) add(f, 'name#numbered');
  if (/^(readme|index|_index|home|overview)$/.test(stem)) add(f, 'name#landing');
  if (/(^|[-_ ])(19|20)\d\d[-_]?[01]\d([-_]?[0-3]\d)?([-_ ]|$)/.test(stem)) add(f, 'name#dated');
  const folders = slash < 0 ? [] : lower.slice(0, slash).split('/');
  add(f, `depth:${Math.min(folders.length, 4)}`);
  folders.forEach((folder, i) => {
    const parent = i === folders.length - 1;
    for (const t of tokens(folder, 6)) {
      add(f, `dir:${t}`);
      if (parent) add(f, `pdir:${t}`);
    }
    if (/^\d{1,5}[-_]/.test(folder)) add(f, parent ? 'pdir#numbered' : 'dir#numbered');
  });
}

/** Front matter's keys and the values of the keys that name a page's purpose. */
function frontMatterFeatures(f: Features, lines: string[]): number {
  const block = frontMatter(lines).lines;
  for (let end = 1; end < block - 1; end++) {
    const m = /^([A-Za-z_][\w-]{0,30}):[ \t]*(.{0,120})/.exec(lines[end]);
    if (!m) continue;
    const key = m[1].toLowerCase();
    add(f, `fmkey:${key}`);
    if (/^(type|layout|category|categories|kind|status|tags|section|doc_type|template)$/.test(key))
      for (const t of tokens(m[2], 4)) add(f, `fm:${key}=${t}`);
    if (key === 'title') {
      for (const t of tokens(m[2], 10)) add(f, `title:${t}`);
      titleFeatures(f, m[2].toLowerCase());
    }
  }
  return block;
}

/** A reStructuredText or setext heading: a line underlined by a run of = - ~ ^ * at least as long. */
function underline(line: string | undefined, above: string): boolean {
  return !!line && /^([=\-~^*#"+])\1{2,}[ \t]*$/.test(line) && line.trim().length >= above.trim().length - 1;
}

const SECTION_NAMES: Array<[string, RegExp]> = [
  ['motivation', /\bmotivation\b/],
  ['alternatives', /\balternatives?\b|\bconsidered options\b/],
  ['goals', /\b(non-)?goals\b/],
  ['drawbacks', /\bdrawbacks?\b|\bunresolved questions?\b/],
  ['design', /\b(detailed )?design\b|\bproposal\b|\bspecification\b/],
  ['timeline', /\btimeline\b/],
  ['impact', /\bimpact\b/],
  ['root_cause', /\broot cause|\bcauses?\b|\btrigger\b/],
  ['action_items', /\baction items?\b|\bfollow[- ]?ups?\b|\bcorrective\b|\bpreventi(ve|on)\b/],
  ['lessons', /\blessons?\b|\bwent (well|wrong|badly)\b|\bwhat went\b|\bwhere we got lucky\b/],
  ['detection', /\bdetect(ed|ion)?\b|\bhow we found\b/],
  ['contributing', /\bcontributing factors?\b|\bwhys\b|\broot causes? analysis\b|\brca\b/],
  ['duration', /\bduration\b|\bdowntime\b|\bincident (summary|details)\b|\bseverity\b/],
  ['context', /\bcontext\b|\bbackground\b|\bproblem\b/],
  ['decision', /\bdecision\b|\bdecided\b/],
  ['consequences', /\bconsequences?\b|\bimplications\b|\bpros and cons\b/],
  ['status', /\bstatus\b/],
  ['steps', /\bsteps?\b|\bprocedure\b|\bresolution\b|\bmitigation\b|\bremediation\b/],
  ['verify', /\bverif|\brollback\b|\broll back\b|\bdiagnos|\btroubleshoot|\bescalat|\brecover/],
  ['alert', /\balerts?\b|\bsymptoms?\b|\bdiagnos/],
  ['install', /\binstall|\bgetting started\b|\bquick ?start\b|\busage\b/],
  ['version', /^\[?v?\d+\.\d+|\bunreleased\b|\brelease\b/],
  ['inputs', /^(inputs|outputs|requirements|providers|modules|resources)$/],
];

/** Any section name at all: one test a heading or bold label must pass before each name is tried. */
const ANY_SECTION = new RegExp(SECTION_NAMES.map(([, pattern]) => pattern.source).join('|'));

function sectionFeatures(f: Features, lowered: string): void {
  if (!ANY_SECTION.test(lowered)) return;
  for (const [name, pattern] of SECTION_NAMES) if (pattern.test(lowered)) add(f, `sec:${name}`);
}

/** Sections that together make a document's shape: how many of each family it has, as one signal. */
const SECTION_FAMILIES: Record<string, string[]> = {
  proposal: ['motivation', 'alternatives', 'goals', 'drawbacks', 'design'],
  decision: ['status', 'context', 'decision', 'consequences', 'alternatives'],
  incident: ['timeline', 'impact', 'root_cause', 'action_items', 'lessons', 'detection', 'contributing', 'duration'],
  procedure: ['steps', 'alert', 'verify'],
};

function familyFeatures(f: Features): void {
  for (const [family, sections] of Object.entries(SECTION_FAMILIES)) {
    const n = sections.filter((name) => f.has(`sec:${name}`)).length;
    if (n) add(f, `family:${family}`, n / 2);
  }
}

interface Shape {
  lines: number;
  words: number;
  numbered: number;
  imperativeSteps: number;
  bullets: number;
  blocks: number;
  shellBlocks: number;
  prompts: number;
  commands: number;
  imperatives: number;
  tableLines: number;
  links: number;
  linkOnly: number;
  dates: number;
  times: number;
  statusLine: boolean;
  placeholders: number;
  boldLabels: number;
  nonAscii: number;
  headings: number;
  rfcMeta: boolean;
  generated: boolean;
  versionHeadings: number;
  timelineEntries: number;
  pastTense: number;
}

/** A release's heading in a changelog: `1.2.0`, `[v1.2] - 2024-01-02`, `Version 3`, `Unreleased`. */
const VERSION_HEADING = /^(\[?v?\d+\.\d+|\[?unreleased\b|(version|release|v)[ \t]+\d)/;

const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
/** A date as titles write one: 2025-03-01, 2025/3/1, 1 March 2025, March 1st, 2025. */
const TITLE_DATE = new RegExp(
  `\\b(19|20)\\d\\d[-/.][01]?\\d[-/.][0-3]?\\d\\b|\\b[0-3]?\\d(st|nd|rd|th)?[ \\t]+${MONTH}[ \\t,]+(19|20)\\d\\d\\b` +
    `|\\b${MONTH}[ \\t]+[0-3]?\\d(st|nd|rd|th)?,?[ \\t]+(19|20)\\d\\d\\b`,
);
/** A numbered record's title: `2. Use X`, `ADR 0002: …`, `KEP-1234: …`, `RFC 12 - …`. */
const TITLE_NUMBER = /^(\d{1,5}[.:)]?[ \t]|[a-z]{2,5}[- #]?\d{1,5}\b)/;
/** A timeline's entry: a line (or list item, table row) that opens with a time of day, maybe after a date. */
const TIMELINE_ENTRY = /^([-*+|][ \t]*)?(\*\*|__)?((19|20)\d\d-[01]\d-[0-3]\d[ T,]*)?[0-2]?\d:[0-5]\d\b/;

/** The features of a page's title (its front-matter title, else its first heading). */
function titleFeatures(f: Features, title: string): void {
  if (TITLE_DATE.test(title)) add(f, 'title#dated');
  if (TITLE_NUMBER.test(title)) add(f, 'title#numbered');
}

const COMMAND =
  /^[ \t]*(\$ |# |> )?(kubectl|aws|gcloud|az|helm|terraform|git|make|docker|curl|ssh|sudo|systemctl|psql)\b/;

const RULE_START = new Set(['=', '-', '~', '^', '*', '#', '"', '+']);
const PROPOSAL_METADATA =
  /^[-*][ \t]+(start date|rfc pr|feature name|rfc number|pep|author|authors|created|discussions?-to)[ \t]*:/i;
const PLACEHOLDER = /\{[A-Za-z][^{}]{2,60}\}|\[(short )?(title|name|description)[^\]]*\]|\bNNNN\b|\bYYYY-MM-DD\b/;

/** What one walk over a line's characters tells: its words, and which costlier tests are worth trying. */
interface LineScan {
  /** Runs of non-blank characters. */
  words: number;
  nonAscii: boolean;
  digit: boolean;
  /** A `{`, `[`, `NNNN` or `YYYY`: a placeholder may be there. */
  placeholderHint: boolean;
  /** A word told in the past tense: was, were, had, did, or a word of 5+ letters ending in -ed. */
  pastTense: boolean;
}

const scan: LineScan = { words: 0, nonAscii: false, digit: false, placeholderHint: false, pastTense: false };

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** One walk over a line (the scan object is reused: no allocation per line). */
function scanLine(line: string): LineScan {
  scan.words = 0;
  scan.nonAscii = scan.digit = scan.placeholderHint = scan.pastTense = false;
  let inWord = false;
  let letters = 0;
  let upperRun = 0;
  for (let i = 0; i <= line.length; i++) {
    const c = i < line.length ? line.charCodeAt(i) : 32;
    const blank = c <= 32;
    if (!blank && !inWord) scan.words++;
    inWord = !blank;
    if (isLetter(c)) {
      letters++;
      upperRun = c === 78 || c === 89 ? upperRun + 1 : 0;
      if (upperRun >= 4) scan.placeholderHint = true;
      continue;
    }
    if (letters >= 3 && !scan.pastTense) scan.pastTense = isPastTense(line, i, letters);
    letters = 0;
    upperRun = 0;
    if (c >= 128) scan.nonAscii = true;
    else if (c >= 48 && c <= 57) scan.digit = true;
    else if (c === 123 || c === 91) scan.placeholderHint = true;
  }
  return scan;
}

/** Whether the word of `length` letters ending before `end` is a past-tense verb. */
function isPastTense(line: string, end: number, length: number): boolean {
  const last = line.charCodeAt(end - 1) | 32;
  const before = line.charCodeAt(end - 2) | 32;
  if (length >= 5 && last === 100 && before === 101) return true; // …ed
  if (length !== 3 && length !== 4) return false;
  const word = line.slice(end - length, end).toLowerCase();
  return word === 'was' || word === 'were' || word === 'had' || word === 'did';
}

/** One pass over the lines: structure counts and heading vocabulary. */
function bodyFeatures(f: Features, lines: string[], start: number): void {
  const s: Shape = {
    lines: 0,
    words: 0,
    numbered: 0,
    imperativeSteps: 0,
    bullets: 0,
    blocks: 0,
    shellBlocks: 0,
    prompts: 0,
    commands: 0,
    imperatives: 0,
    tableLines: 0,
    links: 0,
    linkOnly: 0,
    dates: 0,
    times: 0,
    statusLine: false,
    placeholders: 0,
    boldLabels: 0,
    nonAscii: 0,
    headings: 0,
    rfcMeta: false,
    generated: false,
    versionHeadings: 0,
    timelineEntries: 0,
    pastTense: 0,
  };
  const fences = new FenceTracker();
  let title = '';
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const fence = fences.step(line);
    if (fence === 'open') {
      s.blocks++;
      if (/^(sh|bash|shell|console|zsh|powershell|ps1|terminal|cmd)\b/i.test(fences.info)) s.shellBlocks++;
    }
    if (fence === 'open' || fence === 'close') continue;
    if (fence === 'code') {
      if (/^[ \t]*\$ \S/.test(line)) s.prompts++;
      if (COMMAND.test(line)) s.commands++;
      continue;
    }
    // Each test below is guarded by a character it needs: most lines are plain prose, read once.
    if (line.includes('<!--') && /BEGIN_TF_DOCS|BEGIN_AUTOMATED_TF_DOCS|<!-- (BEGIN|END)[ _]/.test(line))
      s.generated = true;
    const trimmed = line.trim();
    if (!trimmed) continue;
    let heading: string | null = atxHeading(line)?.text ?? null;
    if (heading === null && RULE_START.has(lines[i + 1]?.[0]) && underline(lines[i + 1], line)) {
      if (!/^[=\-~^*#"+ ]+$/.test(trimmed)) heading = trimmed;
    }
    if (heading === null && RULE_START.has(line[0]) && underline(line, lines[i - 1] ?? '')) continue;
    if (heading !== null) {
      s.headings++;
      if (s.headings > 80) continue;
      const lowered = heading.toLowerCase();
      if (!title) {
        title = lowered;
        for (const t of tokens(lowered, 10)) add(f, `title:${t}`);
        titleFeatures(f, lowered);
      } else for (const t of tokens(lowered, 8)) add(f, `h:${t}`);
      if (VERSION_HEADING.test(lowered)) s.versionHeadings++;
      sectionFeatures(f, lowered);
      if (isImperative(heading)) s.imperatives++;
      continue;
    }
    s.lines++;
    const chars = scanLine(trimmed);
    s.words += chars.words;
    if (chars.nonAscii) s.nonAscii++;
    if (chars.pastTense) s.pastTense++;
    const imperative = isImperative(trimmed);
    if (imperative) s.imperatives++;
    const first = trimmed[0];
    if (first >= '0' && first <= '9' && /^\d{1,3}[.)][ \t]+\S/.test(trimmed)) {
      s.numbered++;
      if (imperative) s.imperativeSteps++;
    } else if ((first === '-' || first === '*' || first === '+') && /^[-*+][ \t]+\S/.test(trimmed)) s.bullets++;
    if (first === '|') s.tableLines++;
    if (first === '$' && /^\$ \S/.test(trimmed)) s.prompts++;
    // A command in a code span (`kubectl rollout restart …`) or an indented block counts as one in a fence.
    if (
      line.startsWith('    ')
        ? COMMAND.test(line)
        : line.includes('`') && COMMAND.test(/`([^`]{0,200})`/.exec(trimmed)?.[1] ?? '')
    )
      s.commands++;
    if (trimmed.includes('](') || trimmed.includes('`_')) {
      const links = trimmed.split('](').length - 1 + (trimmed.split('`_').length - 1);
      s.links += links;
      if (/^([-*+][ \t]+)?\[[^\]]*\]\([^)]*\)[ \t.]*$/.test(trimmed)) s.linkOnly++;
    }
    if (chars.digit) {
      if (/\b(19|20)\d\d-[01]\d-[0-3]\d\b/.test(trimmed)) s.dates++;
      if (/\b[0-2]?\d:[0-5]\d\b/.test(trimmed)) {
        s.times++;
        if (TIMELINE_ENTRY.test(trimmed)) s.timelineEntries++;
      }
    }
    if (!trimmed.includes(':')) {
      // No status line, metadata list or front-matter-like key on this line.
    } else if (/^(\*\*|__)?(status|state)(\*\*|__)?[ \t]*:|^:status:|^-[ \t]+status:/i.test(trimmed)) {
      s.statusLine = true;
      for (const t of tokens(trimmed.replace(/^[^:]*:+/, ''), 2)) add(f, `status:${t}`);
    }
    if (trimmed.includes(':') && PROPOSAL_METADATA.test(trimmed)) s.rfcMeta = true;
    if (
      i < 20 &&
      trimmed.includes(':') &&
      /^(pep|author|status|type|created|post-history|title|number)[ \t]*:/i.test(trimmed)
    )
      s.rfcMeta = true;
    if (chars.placeholderHint && PLACEHOLDER.test(trimmed)) s.placeholders++;
    const bold = trimmed.includes('**') ? /^([-*+][ \t]+)?\*\*([^*]{1,40})\*\*/.exec(trimmed) : null;
    if (bold) {
      s.boldLabels++;
      for (const t of tokens(bold[2], 3)) add(f, `bold:${t}`);
      sectionFeatures(f, bold[2].toLowerCase());
    }
  }
  add(f, 'body:lines', scaled(s.lines));
  add(f, 'body:words', scaled(s.words / 10));
  if (s.lines === 0) add(f, 'body:empty');
  else if (s.words < 30) add(f, 'body:short');
  add(f, 'body:headings', scaled(s.headings));
  add(f, 'body:numbered', scaled(s.numbered));
  add(f, 'body:imperative_steps', scaled(s.imperativeSteps));
  add(f, 'body:bullets', scaled(s.bullets));
  add(f, 'body:code_blocks', scaled(s.blocks));
  add(f, 'body:shell_blocks', scaled(s.shellBlocks));
  add(f, 'body:prompts', scaled(s.prompts));
  add(f, 'body:commands', scaled(s.commands));
  add(f, 'body:imperatives', scaled(s.imperatives));
  if (s.lines) add(f, 'body:imperative_share', Math.min(1, (s.imperatives * 4) / s.lines));
  add(f, 'body:tables', scaled(s.tableLines));
  add(f, 'body:links', scaled(s.links));
  if (s.lines) add(f, 'body:link_share', Math.min(1, s.links / s.lines));
  if (s.lines >= 2 && s.linkOnly * 10 >= s.lines * 8) add(f, 'body:link_list');
  add(f, 'body:dates', scaled(s.dates));
  add(f, 'body:version_headings', scaled(s.versionHeadings));
  if (s.headings >= 2 && s.versionHeadings * 2 >= s.headings) add(f, 'body:version_heading_share');
  add(f, 'body:timeline_entries', scaled(s.timelineEntries));
  if (s.lines) add(f, 'body:past_tense_share', s.pastTense / s.lines);
  add(f, 'body:times', scaled(s.times));
  add(f, 'body:placeholders', scaled(s.placeholders));
  add(f, 'body:bold_labels', scaled(s.boldLabels));
  if (s.lines && s.nonAscii * 2 >= s.lines) add(f, 'body:non_ascii');
  if (s.statusLine) add(f, 'body:status_line');
  if (s.rfcMeta) add(f, 'body:proposal_metadata');
  if (s.generated) add(f, 'body:generated_reference');
}

/** The repository's conventions around the file: its folder's siblings and the docs site's navigation. */
function conventionFeatures(f: Features, path: string, conventions: FolderConventions | undefined): void {
  if (!conventions) return;
  const folder = conventions.folders.get(dirName(path));
  if (folder) {
    add(f, 'sib:count', scaled(folder.files));
    if (folder.files >= 3) {
      add(f, 'sib:numbered_share', folder.numbered / folder.files);
      add(f, 'sib:prose_share', folder.prose / folder.files);
    }
    if (folder.subfolders) add(f, 'sib:subfolders', scaled(folder.subfolders));
    if (folder.hasIndexTwin && /(^|\/)readme\.[a-z]+$/i.test(path)) add(f, 'sib:page_readme');
    // A landing name (index.md, README.md) alone in its folder with no subfolders introduces nothing:
    // a folder-per-page site's page (Hugo, Jekyll, Docusaurus), judged by its content.
    // Its folder's name is its name (`how-to-start/index.md` reads as `how-to-start.md`).
    if (/(^|\/)(readme|index|_index)(\.[a-z]+)+$/i.test(path) && folder.prose <= 2 && !folder.subfolders) {
      add(f, 'sib:lone_landing');
      const own = dirName(path);
      for (const t of tokens(baseName(own), 8)) add(f, `name:${t}`);
    }
  }
  for (const t of conventions.nav.get(path) ?? []) add(f, `nav:${t}`);
}

export interface FeatureInput {
  path: string;
  text: string;
  conventions?: FolderConventions;
}

/** Every feature of a file, in a fixed order (the order the model's explanation breaks ties by). */
export function kindFeatures({ path, text, conventions }: FeatureInput): Features {
  const f: Features = new Map();
  add(f, 'bias');
  pathFeatures(f, path);
  const lines = text.slice(0, READ_LIMIT).split('\n');
  const start = frontMatterFeatures(f, lines);
  bodyFeatures(f, lines, start);
  familyFeatures(f);
  conventionFeatures(f, path, conventions);
  return f;
}
