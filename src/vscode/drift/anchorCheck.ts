// The fallback drift check, used when the host has no drift engine: each memory's anchors
// (`path` or `path#symbol`) get a fingerprint — the file's content hash, or the named symbol's own
// text — kept as a baseline; after a save the anchors into the saved files are checked against it.
// Only memories' anchors are covered here (docs' references need the drift engine).

import { createHash } from 'node:crypto';
import type { DriftFinding, DriftState } from '../contract';

export interface Anchor {
  path: string;
  symbol: string | null;
}

export interface AnchoredMemory {
  key: string;
  anchors: string[];
}

/** Where baselines live (the extension's workspace state; a Map in tests). */
export interface BaselineStore {
  get(id: string): string | undefined;
  set(id: string, fingerprint: string): void;
}

/** Reads a workspace-relative file; undefined when it does not exist. */
export type ReadFile = (path: string) => string | undefined;

/** `src/a.ts#parse` → path and symbol; URLs, absolute paths and line anchors carry no symbol to check. */
export function parseAnchor(anchor: string): Anchor | null {
  const trimmed = anchor.trim();
  if (!trimmed || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || trimmed.startsWith('/')) return null;
  const hash = trimmed.indexOf('#');
  const path = (hash < 0 ? trimmed : trimmed.slice(0, hash)).replace(/^\.\//, '');
  const rest = hash < 0 ? '' : trimmed.slice(hash + 1);
  if (!path || path.includes('..')) return null;
  return { path, symbol: rest && !/^L\d+(-L?\d+)?$/.test(rest) ? rest : null };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The declaring line and body of `symbol` (the last segment of `A.b`), or null when not found. */
export function symbolBlock(text: string, symbol: string): { start: number; end: number; text: string } | null {
  const name = escape(symbol.split('.').pop()!);
  const declaration = new RegExp(
    `(\\b(function|class|interface|type|enum|const|let|var|def|func|fn|struct|trait|impl|module|namespace|resource|data|module)\\b[^\\n]*\\b${name}\\b)|(^\\s*(export\\s+)?(public\\s+|private\\s+|protected\\s+|static\\s+|async\\s+|readonly\\s+)*${name}\\s*[(:=<])`,
  );
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => declaration.test(line));
  if (start < 0) return null;
  const base = indentOf(lines[start]);
  let end = start;
  // The body: every following line indented deeper, plus a closing line at the same depth.
  for (let i = start + 1; i < lines.length && i < start + 400; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    if (indentOf(line) > base) {
      end = i;
      continue;
    }
    if (/^\s*[}\])]|^\s*end\b/.test(line)) end = i;
    break;
  }
  return { start, end, text: lines.slice(start, end + 1).join('\n') };
}

export function fingerprint(text: string, symbol: string | null): string | null {
  const subject = symbol ? symbolBlock(text, symbol)?.text : text;
  return subject === undefined || subject === null ? null : createHash('sha256').update(subject).digest('hex');
}

export const baselineId = (key: string, anchor: string) => `${key}|${anchor}`;

function finding(memory: AnchoredMemory, raw: string, anchor: Anchor, state: DriftState, detail: string, at: string): DriftFinding {
  return {
    id: baselineId(memory.key, raw),
    source: { kind: 'memory', key: memory.key },
    reference: { raw, form: 'anchor', target_path: anchor.path, symbol: anchor.symbol },
    state,
    evidence: { detail },
    detected_at: at,
  };
}

/**
 * Checks the anchors that point into `paths` (every anchor when null). An anchor seen for the first
 * time gets its baseline and counts as current; a missing file or symbol is `gone`; a fingerprint
 * that differs from the baseline is `changed`. Every checked anchor is returned, current ones too.
 */
export function checkAnchors(memories: AnchoredMemory[], paths: string[] | null, read: ReadFile, baselines: BaselineStore, now = new Date()): DriftFinding[] {
  const wanted = paths ? new Set(paths) : null;
  const at = now.toISOString();
  const out: DriftFinding[] = [];
  const texts = new Map<string, string | undefined>();
  for (const memory of memories) {
    for (const raw of memory.anchors) {
      const anchor = parseAnchor(raw);
      if (!anchor || (wanted && !wanted.has(anchor.path))) continue;
      if (!texts.has(anchor.path)) texts.set(anchor.path, read(anchor.path));
      const text = texts.get(anchor.path);
      if (text === undefined) {
        out.push(finding(memory, raw, anchor, 'gone', `${anchor.path} no longer exists`, at));
        continue;
      }
      const print = fingerprint(text, anchor.symbol);
      if (print === null) {
        out.push(finding(memory, raw, anchor, 'gone', `${anchor.symbol} is no longer found in ${anchor.path}`, at));
        continue;
      }
      const id = baselineId(memory.key, raw);
      const baseline = baselines.get(id);
      if (baseline === undefined) baselines.set(id, print);
      const changed = baseline !== undefined && baseline !== print;
      out.push(finding(memory, raw, anchor, changed ? 'changed' : 'current', changed ? `${raw} changed since the memory was last verified` : `${raw} is as it was`, at));
    }
  }
  return out;
}

/** Re-verify without a drift engine: the anchors' current fingerprints become the baselines. */
export function refreshBaselines(memory: AnchoredMemory, read: ReadFile, baselines: BaselineStore): number {
  let refreshed = 0;
  for (const raw of memory.anchors) {
    const anchor = parseAnchor(raw);
    const text = anchor ? read(anchor.path) : undefined;
    const print = anchor && text !== undefined ? fingerprint(text, anchor.symbol) : null;
    if (print) {
      baselines.set(baselineId(memory.key, raw), print);
      refreshed++;
    }
  }
  return refreshed;
}
