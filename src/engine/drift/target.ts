// Targets and their fingerprints: a file's content hash, a folder's listing, a symbol's own text
// (every definition of that name in the file, so an edit elsewhere in the file does not count), a
// markdown section under a heading, or a range of lines.

import { sha256 } from '../trust/digest';
import { symbolText, type SymbolDefinition } from './symbols';
import type { TargetKind } from './types';
import type { Workspace } from './workspace';

export interface Target {
  path: string;
  kind: TargetKind;
  /** The symbol name, heading slug or `L10-L20` the fingerprint is narrowed to. */
  symbol: string | null;
}

export interface Print {
  fingerprint: string;
  size: number;
  mtimeMs: number;
}

const POD_ORDINAL = /^(.+)-\d+$/;

/** Definitions of `name` in a file; a StatefulSet's pod (`<name>-0`) is found through its StatefulSet. */
export function definitionsIn(ws: Workspace, path: string, name: string): SymbolDefinition[] {
  const defs = ws.definitions(path);
  const exact = defs.filter((d) => d.name === name);
  if (exact.length) return exact;
  const pod = POD_ORDINAL.exec(name);
  return pod ? defs.filter((d) => d.name === pod[1] && d.kind === 'resource' && d.workload === 'StatefulSet') : [];
}

export function slugify(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The text of the section under a heading whose GitHub-style slug is `slug`, up to the next heading of its level or above. */
export function sectionText(text: string, slug: string): string | null {
  const lines = text.split(/\r?\n/);
  let start = -1;
  let level = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(lines[i]);
    if (!m) continue;
    if (start >= 0 && m[1].length <= level) return lines.slice(start, i).join('\n');
    if (start < 0 && slugify(m[2]) === slug.toLowerCase()) {
      start = i;
      level = m[1].length;
    }
  }
  return start >= 0 ? lines.slice(start).join('\n') : null;
}

export function lineRange(spec: string): [number, number] | null {
  const m = /^L(\d+)(?:-L?(\d+))?$/.exec(spec);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] ? Number(m[2]) : from;
  return from >= 1 && to >= from ? [from, to] : null;
}

/** The text a target's fingerprint covers, or null when it is not there (file missing, symbol or heading absent). */
export function targetText(ws: Workspace, target: Target): string | null {
  if (target.kind === 'dir') {
    const files = ws.filesUnder(target.path);
    return files.length ? files.map(([p, s]) => `${p.slice(target.path.length + 1)} ${s.size}`).join('\n') : null;
  }
  const text = ws.text(target.path);
  if (text === null) return null;
  if (target.kind === 'file' || !target.symbol) return text;
  if (target.kind === 'heading') return sectionText(text, target.symbol);
  if (target.kind === 'lines') {
    const range = lineRange(target.symbol);
    const lines = text.split(/\r?\n/);
    return range && range[1] <= lines.length ? lines.slice(range[0] - 1, range[1]).join('\n') : null;
  }
  const defs = definitionsIn(ws, target.path, target.symbol);
  return defs.length ? symbolText(text.split(/\r?\n/), defs) : null;
}

export function fingerprintOf(ws: Workspace, target: Target): Print | null {
  const text = targetText(ws, target);
  if (text === null) return null;
  const stat = target.kind === 'dir' ? { size: 0, mtimeMs: 0 } : ws.stat(target.path) ?? { size: 0, mtimeMs: 0 };
  return { fingerprint: sha256(text), size: stat.size, mtimeMs: stat.mtimeMs };
}
