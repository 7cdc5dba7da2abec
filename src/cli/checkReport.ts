// `lore check --base REF`: which drift findings the change between REF and the working tree caused,
// and how each door of a pull request shows them (text, SARIF 2.1.0 for code scanning, GitHub
// Actions workflow commands). A finding the change did not touch was already broken: left out.

import { posix } from 'node:path';
import type { DriftFinding } from '../engine';
import type { ChangedPaths } from '../host/gitDiff';
import type { StaleInstructions } from './instructionsFile';

export const CHECK_RULES = {
  'broken-reference': 'A reference in a document or a memory anchor no longer resolves after this change',
  'relocated-reference':
    'A reference or memory anchor names a file this change moved (a broken link in a document; an anchor to re-verify)',
  'stale-decision': 'An ADR or RFC names code this change modifies: check the decision still holds',
  'stale-anchor': 'A memory is anchored to code this change modifies: re-verify it or supersede it',
  'stale-instructions':
    "Lore's block in AGENTS.md, CLAUDE.md or a Cursor rule no longer matches what `lore export instructions` writes",
} as const;
export type CheckRule = keyof typeof CHECK_RULES;

export interface CheckFinding {
  rule: CheckRule;
  level: 'error' | 'warning';
  /** Where to show it: the document and line, or for a memory the file its anchor names. */
  path: string;
  line?: number;
  message: string;
}

export interface CheckInput {
  findings: DriftFinding[];
  changed: ChangedPaths;
  /** Documents that record decisions (adr, rfc). */
  decisionDocs: Set<string>;
  /** Whether a document's reference was already there at the base (so not this change's doing). */
  existedBefore: (finding: DriftFinding) => boolean;
  /**
   * The document references that resolved at the base (checkBase.ts), so a store first opened after
   * the change still knows what held before it; absent: only the working tree's own findings count.
   */
  base?: HeldAtBase;
  /**
   * Lines of a document that Lore's own instruction block holds: its references are reported once,
   * as the block (`stale-instructions`), never one by one.
   */
  inOwnBlock?: (path: string, line: number) => boolean;
}

/** What held at the base, keyed by the document's path in the working tree and the reference as written. */
export interface HeldAtBase {
  /** The file a document's reference resolved to at the base, or undefined when it did not resolve there. */
  target(path: string, raw: string): string | undefined;
  /** Every reference that resolved at the base, with the working-tree path of its document. */
  references: ReadonlyArray<{ path: string; raw: string; target: string }>;
  /** The line of the working-tree document that still writes `raw`, or null when none does. */
  lineNaming(path: string, raw: string): number | null;
}

export interface CheckReport {
  base: string;
  new: CheckFinding[];
  /** Findings in a drifted state the change did not touch: broken before it. */
  already_broken: number;
}

const where = (f: DriftFinding) => (f.source.kind === 'memory' ? `memory ${f.source.key}` : f.source.path!);

function place(f: DriftFinding, target: string): Pick<CheckFinding, 'path' | 'line'> {
  return f.source.kind === 'doc' ? { path: f.source.path!, line: f.source.line } : { path: target };
}

/**
 * The removed (deleted or renamed) path a document's unresolved reference names, read relative to
 * the document and to the repository root. A store that first sees the repository after the change
 * (a fresh CI runner) never resolved the reference, so its finding carries no target: without this
 * every link a rename broke would count as already broken (found replaying tektoncd/community).
 */
function removedNamed(f: DriftFinding, removed: Set<string>): string | undefined {
  if (f.source.kind !== 'doc' || !f.source.path) return undefined;
  const raw = f.reference.raw.split('#')[0].split('?')[0].trim();
  if (!raw || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return undefined;
  const candidates = raw.startsWith('/')
    ? [posix.normalize(raw.slice(1))]
    : [posix.normalize(posix.join(posix.dirname(f.source.path), raw)), posix.normalize(raw)];
  for (const candidate of candidates.map((c) => c.replace(/\/$/, ''))) {
    if (candidate.startsWith('..')) continue;
    if (removed.has(candidate)) return candidate;
    for (const path of removed) if (path.startsWith(`${candidate}/`)) return candidate;
  }
  return undefined;
}

/**
 * References that resolved at the base to a file this change removed, still written in the
 * document, which the working tree's scan does not list at all: a name in a code span
 * (`site/config.toml`) is a reference only while it resolves, so a store first opened after the
 * change never saw it (agrc/status-page ff3804e3ee, the history replay's one miss).
 */
function heldButUnread(input: CheckInput, removed: Set<string>): CheckFinding[] {
  if (!input.base) return [];
  const listed = new Set(
    input.findings.filter((f) => f.source.kind === 'doc').map((f) => `${f.source.path}\0${f.reference.raw}`),
  );
  const out: CheckFinding[] = [];
  const seen = new Set<string>();
  for (const ref of input.base.references) {
    const key = `${ref.path}\0${ref.raw}`;
    if (listed.has(key) || seen.has(key)) continue;
    const moved =
      removed.has(ref.target) ||
      [...removed].some((r) => ref.target.startsWith(`${r}/`) || r.startsWith(`${ref.target}/`));
    if (!moved) continue;
    const line = input.base.lineNaming(ref.path, ref.raw);
    if (line === null || input.inOwnBlock?.(ref.path, line)) continue;
    seen.add(key);
    const to = input.changed.renamed.get(ref.target);
    out.push({
      rule: to ? 'relocated-reference' : 'broken-reference',
      level: 'error',
      path: ref.path,
      line,
      message: to
        ? `${ref.path} refers to ${ref.raw}, which this change moved to ${to}`
        : `${ref.path} refers to ${ref.raw}: gone — this change deleted ${ref.target}`,
    });
  }
  return out;
}

export function selectNew(input: CheckInput): Omit<CheckReport, 'base'> {
  const { changed } = input;
  const removed = new Set([...changed.deleted, ...changed.renamed.keys()]);
  const touchedDocs = new Set([...changed.added, ...changed.modified, ...changed.renamed.values()]);
  const out: CheckFinding[] = [];
  let already = 0;
  const heldTarget = (f: DriftFinding) =>
    f.source.kind === 'doc' ? input.base?.target(f.source.path!, f.reference.raw) : undefined;
  for (const f of input.findings) {
    const held = heldTarget(f);
    const target = f.evidence.old_path ?? f.reference.target_path ?? removedNamed(f, removed) ?? held ?? '';
    if (f.state === 'gone' || f.state === 'broken') {
      const introduced = f.source.kind === 'doc' && touchedDocs.has(f.source.path!) && !input.existedBefore(f);
      const gone = target !== '' && (removed.has(target) || [...removed].some((r) => r.startsWith(`${target}/`)));
      // A reference that resolved at the base and does not now was broken by this change.
      if (!gone && !introduced && held === undefined) {
        already++;
        continue;
      }
      out.push({
        rule: 'broken-reference',
        level: 'error',
        ...place(f, target),
        message:
          `${where(f)} refers to ${f.reference.raw}: ${f.state} — ${f.evidence.detail}` +
          (changed.renamed.has(target) ? ` (this change moved ${target} to ${changed.renamed.get(target)})` : ''),
      });
    } else if (f.state === 'relocated' && removed.has(target)) {
      // A document's link to a moved file no longer opens anything (an error, with where it went);
      // a memory's anchor is followed by Lore itself, so it only needs re-verifying (a warning).
      out.push({
        rule: 'relocated-reference',
        level: f.source.kind === 'doc' ? 'error' : 'warning',
        ...place(f, target),
        message:
          `${where(f)} refers to ${f.reference.raw}, which this change moved to ` +
          `${f.evidence.new_path ?? changed.renamed.get(target) ?? '?'}`,
      });
    } else if (changed.modified.has(f.reference.target_path ?? '')) {
      const path = f.reference.target_path!;
      if (f.source.kind === 'memory')
        out.push({
          rule: 'stale-anchor',
          level: 'warning',
          path,
          message:
            `memory ${f.source.key} is anchored to ${f.reference.raw}, which this change modifies: ` +
            `re-verify it (lore reverify ${f.source.key}) or supersede it`,
        });
      // A decision naming its own headings is not about code the change modifies.
      else if (input.decisionDocs.has(f.source.path!) && path !== f.source.path)
        out.push({
          rule: 'stale-decision',
          level: 'warning',
          ...place(f, path),
          message:
            `${f.source.path} names ${f.reference.raw}, which this change modifies: ` +
            'check the decision still holds',
        });
    } else if (f.state !== 'current') already++;
  }
  out.push(...heldButUnread(input, removed));
  return { new: out, already_broken: already };
}

/**
 * A committed instruction block that differs from what export writes now: an error when it still
 * tells agents a record that no longer holds, a warning when it only misses newer ones.
 */
export function staleInstructionFindings(stale: StaleInstructions[]): CheckFinding[] {
  return stale.map((s) => {
    const parts: string[] = [];
    if (s.dropped.length)
      parts.push(`still lists what no longer holds: ${s.dropped.map((d) => `${d.key} (${d.why})`).join('; ')}`);
    if (s.added.length) parts.push(`misses ${s.added.join(', ')}`);
    if (!parts.length) parts.push('its text differs');
    return {
      rule: 'stale-instructions' as const,
      level: s.dropped.length ? ('error' as const) : ('warning' as const),
      path: s.path,
      line: s.line,
      message: `Lore's instruction block ${parts.join('; ')}: run lore export instructions and commit the result`,
    };
  });
}

export function renderText(report: CheckReport): string {
  const errors = report.new.filter((f) => f.level === 'error').length;
  const head =
    `lore check against ${report.base}: ${report.new.length} new (${errors} broken), ` +
    `${report.already_broken} already broken before it left out`;
  return [
    head,
    ...report.new.map((f) => `${f.level.padEnd(7)} ${f.path}${f.line ? `:${f.line}` : ''}  ${f.message}`),
  ].join('\n');
}

/** SARIF 2.1.0: one run, Lore's rules, each result located in the repository (uriBaseId SRCROOT). */
export function renderSarif(report: CheckReport, version: string): string {
  const rules = Object.entries(CHECK_RULES).map(([id, text]) => ({
    id,
    shortDescription: { text },
    defaultConfiguration: { level: id === 'broken-reference' ? 'error' : 'warning' },
  }));
  const results = report.new.map((f) => ({
    ruleId: f.rule,
    ruleIndex: Object.keys(CHECK_RULES).indexOf(f.rule),
    level: f.level,
    message: { text: f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: f.path, uriBaseId: 'SRCROOT' },
          ...(f.line ? { region: { startLine: f.line } } : {}),
        },
      },
    ],
  }));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Lore', version, informationUri: 'https://github.com/lore-dev/lore', rules } },
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2);
}

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub Actions workflow commands: one ::error or ::warning line per finding, on the diff. */
export function renderGithub(report: CheckReport): string {
  return report.new
    .map(
      (f) =>
        `::${f.level} file=${escapeProperty(f.path)}${f.line ? `,line=${f.line}` : ''},` +
        `title=${escapeProperty(`Lore: ${f.rule}`)}::${escapeData(f.message)}`,
    )
    .join('\n');
}
