// What a change between a git ref and the working tree touched, read from `git diff --name-status`:
// paths added, modified, deleted and renamed (old → new), a file's text at the ref, and the ref's
// files. The ref is a revision name, never an option (a leading "-" is refused), and git runs
// without a shell.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
 * A clone missing some of the ref's objects (a partial or shallow mirror) is written file by file
 * instead, a file whose bytes are absent written empty: drift at the base asks which files exist.
 */
export function exportRevision(root: string, ref: string, dest: string): void {
  checkRef(ref);
  const archive = join(dest, '.lore-base.tar');
  try {
    git(root, ['archive', '--format=tar', '-o', archive, ref]);
    execFileSync('tar', ['-xf', archive, '-C', dest], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    rmSync(archive, { force: true });
    exportFileByFile(root, ref, dest);
  } finally {
    rmSync(archive, { force: true });
  }
}

/** Blobs larger than this are written empty by the file-by-file export (their existence is what counts). */
const MAX_EXPORTED_BLOB = 1024 * 1024;

function exportFileByFile(root: string, ref: string, dest: string): void {
  let listing: string;
  try {
    listing = git(root, ['ls-tree', '-r', '-l', '-z', ref]);
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')[0];
    throw new LoreError('INVALID_INPUT', `--base ${ref}: its files could not be read (${detail})`);
  }
  const blobs: Array<{ sha: string; path: string; size: number }> = [];
  for (const entry of listing.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\s+(\d+|-)\t(.+)$/s.exec(entry);
    if (m && !m[3].split('/').includes('..')) blobs.push({ sha: m[1], path: m[3], size: Number(m[2]) || 0 });
  }
  const wanted = blobs.filter((b) => b.size <= MAX_EXPORTED_BLOB);
  const bytes = new Map<string, Buffer>();
  const out = spawnSync('git', ['-C', root, 'cat-file', '--batch'], {
    input: wanted.map((b) => b.sha).join('\n') + '\n',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const data = out.stdout ?? Buffer.alloc(0);
  for (let at = 0; at < data.length;) {
    const eol = data.indexOf(10, at);
    if (eol < 0) break;
    const [sha, type, size] = data.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (type === 'missing' || size === undefined) continue;
    bytes.set(sha, data.subarray(at, at + Number(size)));
    at += Number(size) + 1;
  }
  for (const blob of blobs) {
    const path = join(dest, blob.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes.get(blob.sha) ?? '');
  }
}
