// The remote URL a workspace's records are scoped by in a shared store: its git `origin` (else
// its only remote). The store keeps only the normalised host/path (postgres/repository.ts).

import { execFileSync } from 'node:child_process';
import { LoreError } from '../../engine';

function git(workspace: string, args: string[]): string {
  try {
    return execFileSync('git', ['-C', workspace, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}

export function workspaceRemote(workspace: string): string {
  const origin = git(workspace, ['remote', 'get-url', 'origin']).trim();
  if (origin) return origin;
  const remotes = git(workspace, ['remote']).split('\n').filter(Boolean);
  if (remotes.length === 1) return git(workspace, ['remote', 'get-url', remotes[0]]).trim();
  throw new LoreError(
    'INVALID_INPUT',
    remotes.length
      ? `a shared store scopes records by the repository's remote, and ${workspace} has several but no origin`
      : `a shared store scopes records by the repository's remote, and ${workspace} has none`,
    'add one (git remote add origin URL) so teammates name the same repository',
  );
}
