// A repository's identity in a shared store: its remote URL, normalised so that the SSH and HTTPS
// forms of one repository, with or without `.git`, name the same repository, and never carrying
// the credentials an HTTPS remote may embed (https://user:token@host/...).

import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { LoreError } from '../../../engine';

/** host/path, lower-case host, no scheme, user, password, port, `.git` or trailing slash. */
export function repositoryIdentity(remote: string): string {
  const text = remote.trim();
  let host: string;
  let path: string;
  // scp-like SSH: git@github.com:org/repo.git
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    [, host, path] = scp;
  } else {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new LoreError(
        'INVALID_INPUT',
        'the repository remote is not a URL or user@host:path',
        'check `git remote -v`',
      );
    }
    if (url.protocol === 'file:' || !url.hostname)
      throw new LoreError(
        'INVALID_INPUT',
        'a shared store scopes records by a remote URL, and this repository has only a local path',
        'add a remote (git remote add origin URL) so teammates name the same repository',
      );
    host = url.hostname;
    path = decodeURIComponent(url.pathname);
  }
  const cleanPath = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '');
  if (!cleanPath) throw new LoreError('INVALID_INPUT', 'the repository remote names no repository path');
  return `${host.toLowerCase()}/${cleanPath}`;
}

export interface RepositoryRow {
  id: number;
  remote: string;
  store_id: string;
}

/** The repository's row, made on first use (concurrent first uses agree on one row). */
export async function ensureRepository(client: PoolClient, remote: string): Promise<RepositoryRow> {
  const identity = repositoryIdentity(remote);
  await client.query('INSERT INTO repositories (remote, store_id) VALUES ($1, $2) ON CONFLICT (remote) DO NOTHING', [
    identity,
    randomUUID(),
  ]);
  const found = await client.query('SELECT id, remote, store_id FROM repositories WHERE remote = $1', [identity]);
  return found.rows[0] as RepositoryRow;
}
