// What the editor shows where a person works, as plain data (no `vscode` import, so it is unit
// tested): the records anchored to a file grouped by the line they belong on (an anchored symbol's
// declaration or section heading, else the top of the file), the lens's words ("1 dead end ·
// 2 decisions", dead ends first so they are read before the code is changed again), and the hover's
// Markdown with its actions.

import { typeInfo, type AnchoredRecord } from '../../engine';
import type { Definition } from '../anchorAt';

/** Records that belong on one line of the file. */
export interface LensGroup {
  line: number;
  /** The symbol or heading they are anchored to; null for the file as a whole. */
  symbol: string | null;
  records: AnchoredRecord[];
}

/** Kinds in the order the lens names them: dead ends first, ADRs (a doc kind) beside decisions. */
const LENS_ORDER = [
  'dead_end',
  'decision',
  'adr',
  'convention',
  'runbook',
  'incident',
  'postmortem',
  'fact',
  'preference',
  'reference',
] as const;

/** One kind as a person names it: "dead end", "ADR", "runbook note". */
export function kindWord(kind: string, count = 1): string {
  if (kind === 'adr') return count === 1 ? 'ADR' : 'ADRs';
  const info = typeInfo(kind);
  if (!info) return kind.replace(/_/g, ' ');
  return count === 1 ? info.word : info.plural;
}

/** "1 dead end · 2 decisions", with a warning mark when a dead end is among them. */
export function lensTitle(records: readonly AnchoredRecord[]): string {
  const parts: string[] = [];
  for (const kind of LENS_ORDER) {
    const n = records.filter((r) => r.kind === kind).length;
    if (n) parts.push(`${n} ${kindWord(kind, n)}`);
  }
  const drifted = records.filter((r) => r.state !== 'current').length;
  if (drifted) parts.push(`${drifted} drifted`);
  const warn = records.some((r) => r.kind === 'dead_end') ? '$(warning) ' : '';
  return warn + parts.join(' · ');
}

/** `Class.method` or `method`: the definition an anchor's symbol names, by its full or last name. */
function definitionLine(symbol: string, definitions: readonly Definition[]): number | undefined {
  const exact = definitions.find((d) => d.name === symbol);
  if (exact) return exact.start;
  const last = symbol.split('.').pop();
  return definitions.find((d) => d.name.split('.').pop() === last)?.start;
}

/**
 * Groups `records` by the line they are shown on: a symbol's declaration (code), a heading's line
 * (Markdown: `headings`), or line 0 for the whole file and for a symbol the file no longer has.
 */
export function lensGroups(
  records: readonly AnchoredRecord[],
  definitions: readonly Definition[],
  headings: readonly { line: number; slug: string }[] = [],
): LensGroup[] {
  const groups = new Map<number, LensGroup>();
  for (const record of records) {
    const symbol = record.symbol && !/^L\d+/.test(record.symbol) ? record.symbol : null;
    const heading = symbol ? headings.find((h) => h.slug === symbol.toLowerCase())?.line : undefined;
    const found = symbol ? (heading ?? definitionLine(symbol, definitions)) : undefined;
    const line = found ?? 0;
    const group = groups.get(line) ?? { line, symbol: found === undefined ? null : symbol, records: [] };
    group.records.push(record);
    groups.set(line, group);
  }
  return [...groups.values()].sort((a, b) => a.line - b.line);
}

const STATE_WORDS: Record<string, string> = {
  current: 'unchanged since it was checked',
  changed: 'the code changed since it was checked',
  relocated: 'the code moved since it was checked',
  gone: 'the code it names is gone',
  broken: 'its anchor no longer resolves',
  ambiguous: 'its anchor matches several places',
};

/** The argument of a `command:` link in hover Markdown. */
function commandLink(label: string, command: string, arg: unknown): string {
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify([arg]))} "${label}")`;
}

/** What the hover says for the records of one line: each one's title, kind, status, drift and its actions. */
export function hoverMarkdown(folder: string, group: LensGroup): string {
  const where = group.symbol ? `\`${group.symbol}\`` : 'this file';
  const blocks = group.records.map((r) => {
    const kind = kindWord(r.kind);
    const head = `${r.kind === 'dead_end' ? '$(warning) ' : ''}**${escape(r.title)}** — ${kind}`;
    const status = r.source === 'memory' ? r.status : 'in the repository';
    const drift = STATE_WORDS[r.state] ?? r.state;
    const about = r.description ? `\n\n${escape(r.description)}` : '';
    const open =
      r.source === 'memory'
        ? commandLink('Open', 'lore.open', { folder, key: r.id })
        : commandLink('Open', 'vscode.open', joinUri(folder, r.id));
    const related = commandLink('Recall related', 'lore.recallRelated', { folder, query: r.title });
    const reverify =
      r.source === 'memory'
        ? commandLink('Re-verify', 'lore.reverify', { folder, key: r.id })
        : commandLink('Re-verify', 'lore.reverifyAnchored', { folder, finding: r.finding });
    return `${head}${about}\n\n${status} · ${drift}\n\n${open} · ${related} · ${reverify}`;
  });
  return `Anchored to ${where}:\n\n${blocks.join('\n\n---\n\n')}`;
}

/** A file URI for `vscode.open`, built without the `vscode` module. */
function joinUri(folder: string, path: string): string {
  const full = `${folder.replace(/\/$/, '')}/${path}`;
  return `file://${full.split('/').map(encodeURIComponent).join('/')}`;
}

/** Markdown's own characters in a record's text are shown, not interpreted. */
function escape(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+!|<>])/g, '\\$1');
}
