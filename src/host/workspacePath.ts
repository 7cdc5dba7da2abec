// The one "inside the workspace" check, for the indexer's walk and reads, drift, read_file and
// the MCP resources: a path is a plain file of the workspace when it stays under the root
// lexically and every step to it is a real folder or file — no symbolic link anywhere on the way,
// and no file with a second hard link (its other name may be outside, and Lore cannot tell).
// Links are never followed, and a path that leaves the root is judged before the disk is asked,
// so a refusal never reveals whether something outside the workspace exists.

import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';

export type PathRefusal = 'invalid' | 'outside' | 'linked' | 'missing' | 'not-a-file';

export type Located =
  { ok: true; absolute: string; relativePath: string; stat: Stats } | { ok: false; refusal: PathRefusal };

/** A file the walk may list and read: a regular file with one name (not a link of either kind). */
export function isPlainFile(stat: Stats): boolean {
  return stat.isFile() && !stat.isSymbolicLink() && stat.nlink <= 1;
}

/** The workspace-relative form of `requested` (with `/`), or why it is not one; the disk is not asked. */
export function workspaceRelative(root: string, requested: unknown): { path: string } | { refusal: PathRefusal } {
  if (typeof requested !== 'string' || !requested.trim() || requested.includes('\0')) return { refusal: 'invalid' };
  let path = requested.replace(/\\/g, '/');
  if (isAbsolute(requested)) {
    const under = [root, safeRealpath(root)]
      .map((r) => relative(r, requested))
      .find((r) => r && !r.startsWith('..') && !isAbsolute(r));
    if (under === undefined) return { refusal: 'outside' };
    path = under.split(sep).join('/');
  }
  const normal = posix.normalize(path).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../') || normal === '.' || normal === '') return { refusal: 'outside' };
  return { path: normal };
}

/** Resolves `requested` to a plain file inside `root`, stepping through each part with lstat. */
export function locateInWorkspace(root: string, requested: unknown): Located {
  const rel = workspaceRelative(root, requested);
  if ('refusal' in rel) return { ok: false, refusal: rel.refusal };
  const realRoot = safeRealpath(root);
  const parts = rel.path.split('/');
  let absolute = realRoot;
  let stat: Stats | undefined;
  for (const part of parts) {
    absolute = join(absolute, part);
    try {
      stat = lstatSync(absolute);
    } catch {
      return { ok: false, refusal: 'missing' };
    }
    if (stat.isSymbolicLink()) return { ok: false, refusal: 'linked' };
  }
  if (!stat!.isFile()) return { ok: false, refusal: 'not-a-file' };
  if (!isPlainFile(stat!)) return { ok: false, refusal: 'linked' };
  return { ok: true, absolute, relativePath: rel.path, stat: stat! };
}

function safeRealpath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
