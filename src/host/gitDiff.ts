// What a change between a git ref and the working tree touched, read from `git diff --name-status`:
// paths added, modified, deleted and renamed (old → new), a file's text at the ref, and the ref's
// files. The ref is a revision name, never an option (a leading "-" is refused), and git runs
// without a shell.

import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../engine';

export interface ChangedPaths {
  added: Set<string>;
  modified: Set<string>;
  deleted: Set<string>;
  /** old path → new path */
  renamed: Map<string, string>;
}

function git(root: string, args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function checkRef(ref: string): void {
  if (!ref || ref.startsWith('-') || /[\s\0]/.test(ref))
    throw new LoreError('INVALID_INPUT', `--base must name a git revision, e.g. origin/main; got "${ref}"`);
}

export function changedSince(root: string, ref: string): ChangedPaths {
  checkRef(ref);
  let out: string;
  try {
    out = git(root, ['diff', '--name-status', '-M', '-z', ref, '--']);
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')[0];
    throw new LoreError('INVALID_INPUT', `--base ${ref}: git could not compare it with the working tree (${detail})`);
  }
  const changed: ChangedPaths = { added: new Set(), modified: new Set(), deleted: new Set(), renamed: new Map() };
  const fields = out.split('\0').filter((f) => f !== '');
  for (let i = 0; i < fields.length;) {
    const status = fields[i++];
    if (status.startsWith('R') || status.startsWith('C')) {
      const [from, to] = [fields[i++], fields[i++]];
      if (status.startsWith('R')) changed.renamed.set(from, to);
      else changed.added.add(to);
    } else {
      const path = fields[i++];
      if (status === 'D') changed.deleted.add(path);
      else if (status === 'A') changed.added.add(path);
      else changed.modified.add(path);
    }
  }
  return changed;
}

/** A file's text at the ref, or null when it did not exist there. */
export function textAt(root: string, ref: string, path: string): string | null {
  checkRef(ref);
  try {
    return git(root, ['show', `${ref}:${path}`]);
  } catch {
    return null;
  }
}

/**
 * The tracked files of the ref written into `dest` (an empty folder): `git archive` to a file in it,
 * unpacked by tar and removed. What a checkout of the ref would hold, without touching the repository.
 */
export function exportRevision(root: string, ref: string, dest: string): void {
  checkRef(ref);
  const archive = join(dest, '.lore-base.tar');
  try {
    git(root, ['archive', '--format=tar', '-o', archive, ref]);
    execFileSync('tar', ['-xf', archive, '-C', dest], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')[0];
    throw new LoreError('INVALID_INPUT', `--base ${ref}: its files could not be read (${detail})`);
  } finally {
    rmSync(archive, { force: true });
  }
}
