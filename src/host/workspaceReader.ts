// Drift's view of the workspace on disk: every text file a reference may name — code included,
// not only what the index covers — under the same walk (gitignore honoured, dependencies, build
// output and secret-bearing files left out, no symlinks), plus the repository's GitHub remotes so
// URLs to this repository count as references.

import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceReader } from '../engine';
import { MAX_INDEXED_BYTES } from '../engine/index/discovery';
import { WorkspaceFileSource } from './fileSource';

export class DiskWorkspaceReader implements WorkspaceReader {
  private readonly walker: WorkspaceFileSource;

  constructor(private readonly root: string) {
    this.walker = new WorkspaceFileSource(root, { include: ['**'] });
  }

  list(): Array<{ path: string; size: number; mtimeMs: number }> {
    return this.walker.listSync();
  }

  stat(path: string): { size: number; mtimeMs: number } | null {
    if (!safe(path)) return null;
    try {
      const stat = statSync(join(this.root, path));
      return stat.isFile() ? { size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) } : null;
    } catch {
      return null;
    }
  }

  read(path: string): string | null {
    const stat = this.stat(path);
    if (!stat || stat.size > MAX_INDEXED_BYTES) return null;
    try {
      const bytes = readFileSync(join(this.root, path));
      return bytes.includes(0) ? null : bytes.toString('utf8');
    } catch {
      return null;
    }
  }
}

/** A workspace-relative path that stays inside the workspace. */
function safe(path: string): boolean {
  return !!path && !path.startsWith('/') && !path.split('/').includes('..') && !path.includes('\0');
}

/** `owner/name` of the GitHub remotes in .git/config (none when there is no repository). */
export function githubRepositories(root: string): string[] {
  let config: string;
  try {
    config = readFileSync(join(root, '.git', 'config'), 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const m of config.matchAll(/url\s*=\s*\S*github\.com[:/]([^/\s]+)\/([^\s]+?)(?:\.git)?\s*$/gm)) out.add(`${m[1]}/${m[2]}`);
  return [...out];
}
