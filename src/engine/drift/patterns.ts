// Paths written with placeholders (`config/variables-<ENV>.tf`, `envs/<name>/main.tf`): a claim that
// files of that shape exist, not about one of them. Such a reference is watched as a pattern: it holds
// while at least one file matches, and is gone when none does (the files renamed or the layout
// changed). Adding or removing one environment's file is no drift.

import type { Workspace } from './workspace';

const PLACEHOLDER = /<[A-Za-z_][\w-]*>/;
const PLACEHOLDER_TOKEN = /(?:^|[\s"'`(=])([\w.@+~/-]*<[A-Za-z_][\w-]*>[\w.@+~/<>-]*)/g;
const PATHISH = /^[\w.@+~-]+(?:\/[\w.@+~-]+)*$/;

export function isPlaceholderPath(path: string): boolean {
  return PLACEHOLDER.test(path);
}

/** Placeholder paths a line of code names: a folder in them or an extension, and a path once filled in. */
export function placeholderPaths(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(PLACEHOLDER_TOKEN)) {
    const token = m[1].replace(/[.,;:]+$/, '');
    const filled = token.replace(/<[A-Za-z_][\w-]*>/g, 'x');
    if (!PATHISH.test(filled) || filled.includes('..')) continue;
    if (token.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(token)) out.push(token);
  }
  return out;
}

/** The files a workspace-relative placeholder path matches (a placeholder is one or more characters, no `/`). */
export function patternFiles(ws: Workspace, pattern: string): string[] {
  const source = pattern
    .split(/(<[A-Za-z_][\w-]*>)/)
    .map((part, i) => (i % 2 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^${source}$`);
  return ws.allFiles().filter((p) => re.test(p));
}

/** What a pattern's fingerprint covers: the pattern itself while a file matches it, else nothing. */
export function patternText(ws: Workspace, pattern: string): string | null {
  return patternFiles(ws, pattern).length ? pattern : null;
}
