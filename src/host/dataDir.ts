// Where a workspace's store lives: outside the repo, in the per-user data directory (or
// LORE_HOME), in a folder keyed by the workspace root's real path.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { LoreError } from '../engine/errors';

export interface StorePaths {
  workspaceRoot: string;
  home: string;
  dir: string;
  database: string;
  owner: string;
}

/** The per-user data directory for Lore; `loreHome` (from LORE_HOME or a setting) wins. */
export function loreHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.LORE_HOME) return env.LORE_HOME;
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'lore');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'lore');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'lore');
}

/**
 * The workspace a command run from `start` means: the nearest folder at or above it that holds a
 * repository (`.git`) or Lore's own records (`.lore`), so a command run from a subfolder uses the
 * repository's store; `start` itself when there is none.
 */
export function findWorkspaceRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git')) || existsSync(join(dir, '.lore'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

export function resolveWorkspaceRoot(dir: string): string {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    throw new LoreError(
      'INVALID_INPUT',
      `workspace folder ${dir} does not exist`,
      'pass an existing folder with --workspace',
    );
  }
  if (!statSync(root).isDirectory())
    throw new LoreError('INVALID_INPUT', `workspace ${dir} is not a folder`, 'pass a folder with --workspace');
  return root;
}

export function storePaths(workspaceDir: string, home: string = loreHome()): StorePaths {
  const workspaceRoot = resolveWorkspaceRoot(workspaceDir);
  const id = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 16);
  const name =
    basename(workspaceRoot)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  const dir = join(home, 'workspaces', `${name}-${id}`);
  return { workspaceRoot, home, dir, database: join(dir, 'lore.db'), owner: join(dir, 'owner.json') };
}

export function ensureStoreDir(paths: StorePaths): void {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  // A note for people who find the folder: which workspace it belongs to.
  writeFileSync(join(paths.dir, 'workspace.json'), JSON.stringify({ root: paths.workspaceRoot }, null, 2) + '\n', {
    mode: 0o600,
  });
}
