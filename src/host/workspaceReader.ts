// Drift's view of the workspace on disk: every file a reference may name — code, images and large
// files included, not only what the index covers — under the same walk (gitignore honoured,
// dependencies and build output left out, secret-bearing files listed but never read, no symlinks), plus the
// repository's GitHub remotes so URLs to this repository count as references. A path asked for
// directly (a memory's anchor, a saved path) must stay inside the workspace with no symbolic link
// on the way (workspacePath.ts); a secret-bearing file (secretFiles.ts) is never read or hashed.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { driftReadsText, type SymbolParser, type WorkspaceReader } from '../engine';
import { MAX_INDEXED_BYTES, type DiscoveryRules } from '../engine/indexing/discovery';
import { isSecretFile } from '../engine/indexing/secretFiles';
import { WorkspaceFileSource } from './fileSource';
import { fileText } from './fileText';
import { locateInWorkspace, workspaceRelative } from './workspacePath';

/** Files up to this size are fingerprinted by their bytes when they are not text; larger ones by their size. */
const MAX_DIGEST_BYTES = 64 * 1024 * 1024;

// Every file is listed whatever its size (a link to a large file is no broken link); texts are
// still read only up to the index's cap. Secret-bearing files are listed too: the secret rule hides
// a file's content, never its existence (a link to `prod.tfvars` is no broken link).
const RULES: DiscoveryRules = { include: ['**'], maxBytes: Number.MAX_SAFE_INTEGER, listSecrets: true };

export class DiskWorkspaceReader implements WorkspaceReader {
  private readonly walker: WorkspaceFileSource;

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
    const located = this.located(path, true);
    return located ? { size: located.stat.size, mtimeMs: Math.floor(located.stat.mtimeMs) } : null;
  }

  read(path: string): string | null {
    const located = this.located(path);
    if (!located || !driftReadsText(path, located.stat.size)) return null;
    try {
      return fileText(readFileSync(located.absolute), MAX_INDEXED_BYTES);
    } catch {
      return null;
    }
  }

  digest(path: string): string | null {
    const located = this.located(path, true);
    if (!located) return null;
    // A secret-bearing file is known by its size and time alone: its bytes are never read or hashed.
    if (isSecretFile(path)) return `stat:${located.stat.size}:${Math.floor(located.stat.mtimeMs)}`;
    if (located.stat.size > MAX_DIGEST_BYTES) return `size:${located.stat.size}`;
    try {
      return `sha256:${createHash('sha256').update(readFileSync(located.absolute)).digest('hex')}`;
    } catch {
      return null;
    }
  }

  /**
   * A path named directly (an anchor) may be a file the walk leaves out as noise (a lock file,
   * build output) and is still read; never a secret-bearing one (`sealed`: only its existence and
   * stat are asked), one under .git, or one that is not already in plain form (`a/../b`, `./a`),
   * and only a plain file inside the workspace.
   */
  private located(path: string, sealed = false) {
    const rel = workspaceRelative(this.root, path);
    if ('refusal' in rel || rel.path !== path || path.split('/').includes('.git')) return null;
    if (!sealed && isSecretFile(path)) return null;
    const located = locateInWorkspace(this.root, path);
    return located.ok ? located : null;
  }
}

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

/** `owner/name` of the GitHub remotes in .git/config (none when there is no repository). */
export function githubRepositories(root: string): string[] {
  let config: string;
  try {
    config = readFileSync(join(root, '.git', 'config'), 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const m of config.matchAll(/url\s*=\s*\S*github\.com[:/]([^/\s]+)\/([^\s]+?)(?:\.git)?\s*$/gm))
    out.add(`${m[1]}/${m[2]}`);
  return [...out];
}
