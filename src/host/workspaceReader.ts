// Drift's view of the workspace on disk: every file a reference may name — code, images and large
// files included, not only what the index covers — under the same walk (gitignore honoured,
// dependencies, build output and secret-bearing files left out, no symlinks), plus the
// repository's GitHub remotes so URLs to this repository count as references. A path asked for
// directly (a memory's anchor, a saved path) must stay inside the workspace with no symbolic link
// on the way, and is never a secret-bearing file.

import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import type { SymbolParser, WorkspaceReader } from '../engine';
import { DEFAULT_EXCLUDE, MAX_INDEXED_BYTES, type DiscoveryRules } from '../engine/index/discovery';
import { WorkspaceFileSource } from './fileSource';

/** Where discovery's secret-bearing defaults start (`.env`, keys, tfvars, credentials…). */
const FIRST_SECRET_GLOB = '**/*.tfvars';

/** Files up to this size are fingerprinted by their bytes when they are not text; larger ones by their size. */
const MAX_DIGEST_BYTES = 64 * 1024 * 1024;

// Every file is listed whatever its size (a link to a large file is no broken link); texts are
// still read only up to the index's cap.
const RULES: DiscoveryRules = { include: ['**'], maxBytes: Number.MAX_SAFE_INTEGER };

export class DiskWorkspaceReader implements WorkspaceReader {
  private readonly walker: WorkspaceFileSource;
  // A path named directly (an anchor) may be a file the walk leaves out as noise (a lock file,
  // build output) and is still read; never one of the secret-bearing kinds.
  private readonly secretBearing = picomatch([...DEFAULT_EXCLUDE.slice(DEFAULT_EXCLUDE.indexOf(FIRST_SECRET_GLOB))], { dot: true });
  private realRoot: string | null = null;

  /** `parser`: symbols located by a real parser where it has a grammar (symbols/treeSitter.ts). */
  constructor(
    private readonly root: string,
    readonly parser?: SymbolParser,
  ) {
    this.walker = new WorkspaceFileSource(root, RULES);
  }

  list(): Array<{ path: string; size: number; mtimeMs: number }> {
    return this.walker.listSync();
  }

  stat(path: string): { size: number; mtimeMs: number } | null {
    if (!this.allowed(path)) return null;
    try {
      const absolute = join(this.root, path);
      // No symbolic link anywhere on the way, so no path leads outside the workspace.
      this.realRoot ??= realpathSync.native(this.root);
      if (relative(this.realRoot, realpathSync.native(absolute)).split(sep).join('/') !== path) return null;
      const stat = statSync(absolute);
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

  digest(path: string): string | null {
    const stat = this.stat(path);
    if (!stat) return null;
    if (stat.size > MAX_DIGEST_BYTES) return `size:${stat.size}`;
    try {
      return `sha256:${createHash('sha256').update(readFileSync(join(this.root, path))).digest('hex')}`;
    } catch {
      return null;
    }
  }

  /** A plain workspace-relative path (with `/`), outside .git, and not a secret-bearing file. */
  private allowed(path: string): boolean {
    if (!path || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
    const parts = path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git')) return false;
    return !this.secretBearing(path);
  }
}

/** `owner/name` of the GitHub remotes in .git/config (none when there is no repository). */
/** The remotes, read again whenever `.git/config` changes (a remote added after the store opened counts). */
export function liveRepositories(root: string): () => string[] {
  let seen: number | null = null;
  let repositories: string[] = [];
  return () => {
    const mtime = statSync(join(root, '.git', 'config'), { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (mtime !== seen) {
      seen = mtime;
      repositories = githubRepositories(root);
    }
    return repositories;
  };
}

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
