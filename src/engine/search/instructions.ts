// Agent instructions built only from what still holds (`lore export instructions`): which live
// records go into AGENTS.md, CLAUDE.md or a Cursor rule, rendered as one bounded block between
// Lore's own markers, and how that block replaces its previous copy in a file without touching a
// byte around it. A pure function of records and their verification: the caller reads the store.
//
// The records' text may come from agents: each field is folded onto one line and its `<`, `>` and
// backticks are escaped, so no record can close the block, open another, or start a heading.

import type { Verification } from './verification';

export const INSTRUCTION_FORMATS = ['agents-md', 'claude-md', 'cursor-rules'] as const;
export type InstructionFormat = (typeof INSTRUCTION_FORMATS)[number];

/** Where each format's block lives, relative to the repository root. */
export const INSTRUCTION_FILES: Record<InstructionFormat, string> = {
  'agents-md': 'AGENTS.md',
  'claude-md': 'CLAUDE.md',
  'cursor-rules': '.cursor/rules/lore.mdc',
};

/** The block's bound, markers included. */
export const INSTRUCTIONS_MAX_BYTES = 8192;
export const BLOCK_BEGIN = '<!-- lore:instructions begin';
export const BLOCK_END = '<!-- lore:instructions end -->';
const BEGIN_LINE = `${BLOCK_BEGIN} (written by \`lore export instructions\`; edits inside are replaced) -->`;

/** The record types agents are told about, in the order they are told. */
const SECTIONS: Array<{ type: string; heading: string }> = [
  { type: 'dead_end', heading: 'Dead ends (tried and failed: do not repeat without reading why)' },
  { type: 'decision', heading: 'Decisions' },
  { type: 'convention', heading: 'Conventions' },
];

/** Cursor reads a rule's front matter to decide when it applies: this one always does. */
const CURSOR_FRONT_MATTER =
  '---\ndescription: Decisions, conventions and dead ends of this repository that still hold (from Lore)\n' +
  'alwaysApply: true\n---\n';

export interface InstructionRecord {
  key: string;
  type: string;
  title: string;
  description: string;
  status: string;
  anchors: string[];
  valid_from: string;
  verification: Verification;
}

export interface LeftOut {
  key: string;
  why: string;
}

export interface InstructionBlock {
  /** The block, markers included, ending in a newline. Each record is one line: "- `key` **title** — …". */
  text: string;
  included: string[];
  left_out: LeftOut[];
}

/** Why a record does not belong in agent instructions, or null when it does. */
export function exclusionReason(r: InstructionRecord): string | null {
  if (!SECTIONS.some((s) => s.type === r.type)) return `a ${r.type} is not an instruction`;
  if (r.status !== 'active') return `${r.status}, not active`;
  const v = r.verification;
  if (v.state === 'unanchored' || !r.anchors.length) return 'no anchor to verify it against';
  if (v.state !== 'holds') return `${v.state.replace('_', ' ')}: ${v.reason}`;
  return null;
}

/** One line of untrusted text: controls and line breaks folded, markup that could leave the line escaped. */
export function inlineText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/`/g, '&#96;')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** An anchor as a code span; a backtick in it cannot close the span (HTML is not read inside one). */
function anchorSpan(anchor: string): string {
  const text = anchor
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/<!--|-->/g, (m) => m.split('').join(' '))
    .trim();
  const run = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(run + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function entry(r: InstructionRecord): string {
  const anchors = r.anchors.map(anchorSpan).join(', ');
  const description = inlineText(r.description);
  const said = description ? ` — ${description}` : '';
  return `- \`${inlineText(r.key)}\` **${inlineText(r.title)}**${said} (anchored to ${anchors})`;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * The block for these records: the active, verified (every anchor holds), non-contradicted
 * dead ends, decisions and conventions, newest first in each section, whole lines only, at most
 * INSTRUCTIONS_MAX_BYTES. Deterministic: the same records give the same bytes.
 */
export function renderInstructions(records: InstructionRecord[]): InstructionBlock {
  const left_out: LeftOut[] = [];
  const eligible: InstructionRecord[] = [];
  for (const r of records) {
    const why = exclusionReason(r);
    if (why) left_out.push({ key: r.key, why });
    else eligible.push(r);
  }
  const head = [
    BEGIN_LINE,
    '## Engineering memory (Lore)',
    '',
    'What this repository decided, agreed and tried without success, checked against the code when this ' +
      'block was written: each still holds at its anchor. Read the anchored code before changing it; ' +
      'ask Lore (recall) for the reasons and for anything not listed here.',
  ];
  const tail = [BLOCK_END];
  // Room for the "left out for room" line, which is written only when something was.
  let room = INSTRUCTIONS_MAX_BYTES - bytes(head.join('\n') + '\n' + tail.join('\n') + '\n') - 120;
  const body: string[] = [];
  const included: string[] = [];
  const newestFirst = (a: InstructionRecord, b: InstructionRecord) =>
    b.valid_from.localeCompare(a.valid_from) || a.key.localeCompare(b.key);
  let dropped = 0;
  for (const section of SECTIONS) {
    const lines: string[] = [];
    const headingCost = bytes(`\n### ${section.heading}\n`);
    for (const r of eligible.filter((x) => x.type === section.type).sort(newestFirst)) {
      const line = entry(r);
      const cost = bytes(line) + 1 + (lines.length ? 0 : headingCost);
      if (cost > room) {
        dropped++;
        left_out.push({ key: r.key, why: `no room within ${INSTRUCTIONS_MAX_BYTES} bytes` });
        continue;
      }
      room -= cost;
      lines.push(line);
      included.push(r.key);
    }
    if (lines.length) body.push('', `### ${section.heading}`, '', ...lines);
  }
  if (!included.length) body.push('', 'Nothing verified to list yet.');
  if (dropped) body.push('', `${dropped} more left out for room: ask Lore (recall) for them.`);
  const text = [...head, ...body, '', ...tail].join('\n') + '\n';
  assertOneBlock(text);
  return { text, included, left_out };
}

/** Defence in depth: a rendered block holds exactly one begin and one end marker, at its ends. */
function assertOneBlock(text: string): void {
  const count = (needle: string) => text.split(needle).length - 1;
  if (count(BLOCK_BEGIN) !== 1 || count(BLOCK_END) !== 1 || !text.startsWith(BLOCK_BEGIN))
    throw new Error('an instruction block must hold exactly one pair of Lore markers');
}

export interface BlockSpan {
  start: number;
  /** Just past the end marker's line (its newline included when there is one). */
  end: number;
}

/**
 * Where Lore's block is in a file: null when it has none. A file with a begin marker and no end,
 * or with more than one block, is refused (a caller must not guess which bytes are Lore's).
 */
export function findBlock(file: string): BlockSpan | null {
  const begins = indexesOf(file, BLOCK_BEGIN);
  const ends = indexesOf(file, BLOCK_END);
  if (!begins.length && !ends.length) return null;
  if (begins.length !== 1 || ends.length !== 1 || ends[0] < begins[0])
    throw new Error(
      `it holds ${begins.length} begin and ${ends.length} end marker(s) of Lore's block out of order; ` +
        'leave exactly one pair (or none) and export again',
    );
  const lineStart = file.lastIndexOf('\n', begins[0]) + 1;
  let end = ends[0] + BLOCK_END.length;
  if (file.startsWith('\r\n', end)) end += 2;
  else if (file[end] === '\n') end += 1;
  return { start: lineStart, end };
}

function indexesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** The block a file holds now (markers included), or null. */
export function currentBlock(file: string): string | null {
  const span = findBlock(file);
  return span ? file.slice(span.start, span.end) : null;
}

/**
 * The file with Lore's block replaced (or appended after one blank line, or the whole file when
 * `file` is null). Every byte outside the block is kept as it was.
 */
export function spliceBlock(file: string | null, block: string, format: InstructionFormat): string {
  if (file === null || file === '') return (format === 'cursor-rules' ? CURSOR_FRONT_MATTER + '\n' : '') + block;
  const span = findBlock(file);
  if (span) return file.slice(0, span.start) + block + file.slice(span.end);
  const separator = file.endsWith('\n\n') ? '' : file.endsWith('\n') ? '\n' : '\n\n';
  return file + separator + block;
}
