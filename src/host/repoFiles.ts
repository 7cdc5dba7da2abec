// The repository's files for canonicalize: reads and writes relative to the workspace root, never
// outside it (no absolute paths, no `..`, no symlinked folder leading elsewhere).

import { mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { LoreError, type RepoFiles } from '../engine';

export class WorkspaceRepoFiles implements RepoFiles {
  constructor(private readonly root: string) {}

  private resolve(path: string): string {
    if (isAbsolute(path) || path.split(/[\\/]/).includes('..')) throw new LoreError('INVALID_INPUT', `${path} is not a path inside the workspace`);
    return join(this.root, path);
  }

  read(path: string): string | null {
    try {
      return readFileSync(this.resolve(path), 'utf8');
    } catch (error) {
      if (['ENOENT', 'EISDIR', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }

  list(dir: string): string[] | null {
    try {
      return readdirSync(this.resolve(dir));
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }

  write(path: string, content: string, options: { overwrite: boolean }): void {
    const absolute = this.resolve(path);
    mkdirSync(dirname(absolute), { recursive: true });
    const inside = relative(realpathSync(this.root), realpathSync(dirname(absolute)));
    if (inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) {
      throw new LoreError('INVALID_INPUT', `${path} leads outside the workspace (through a symlink)`);
    }
    try {
      writeFileSync(absolute, content, { flag: options.overwrite ? 'w' : 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new LoreError('INVALID_STATE', `${path} already exists in the workspace`, 'Lore does not overwrite a file it did not write; move it aside or pick another record');
      }
      throw error;
    }
  }
}
