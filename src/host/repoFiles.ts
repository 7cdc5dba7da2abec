// The repository's files for canonicalize: reads and writes relative to the workspace root, never
// outside it (no absolute paths, no `..`, no symlinked folder or file leading elsewhere — a
// repository could otherwise point its ADR template at a secret, or a record file at one of yours).

import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { LoreError, type RepoFiles } from '../engine';

export class WorkspaceRepoFiles implements RepoFiles {
  constructor(private readonly root: string) {}

  private resolve(path: string): string {
    if (isAbsolute(path) || path.split(/[\\/]/).includes('..'))
      throw new LoreError('INVALID_INPUT', `${path} is not a path inside the workspace`);
    return join(this.root, path);
  }

  /** Refuses `absolute` when it, or its nearest existing folder, really lies outside the workspace. */
  private contain(path: string, absolute: string): void {
    let existing = absolute;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    const inside = relative(realpathSync(this.root), realpathSync(existing));
    if (inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) {
      throw new LoreError(
        'INVALID_INPUT',
        `${path} leads outside the workspace (through a symlink)`,
        'Lore reads and writes only inside the workspace; replace the symlink with a real folder or file',
      );
    }
  }

  read(path: string): string | null {
    const absolute = this.resolve(path);
    try {
      this.contain(path, absolute);
      return readFileSync(absolute, 'utf8');
    } catch (error) {
      if (['ENOENT', 'EISDIR', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }

  list(dir: string): string[] | null {
    const absolute = this.resolve(dir);
    try {
      this.contain(dir, absolute);
      return readdirSync(absolute);
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }

  write(path: string, content: string, options: { overwrite: boolean }): void {
    const absolute = this.resolve(path);
    // Checked before any folder is made, so nothing is created outside either.
    this.contain(path, absolute);
    mkdirSync(dirname(absolute), { recursive: true });
    this.contain(path, dirname(absolute));
    // Never write through a symlink, even one pointing inside: overwrite replaces only a real file.
    if (lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new LoreError(
        'INVALID_INPUT',
        `${path} is a symlink; Lore does not write through it`,
        'replace it with a real file or remove it',
      );
    }
    try {
      writeFileSync(absolute, content, { flag: options.overwrite ? 'w' : 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new LoreError(
          'INVALID_STATE',
          `${path} already exists in the workspace`,
          'Lore does not overwrite a file it did not write; move it aside or pick another record',
        );
      }
      throw error;
    }
  }
}
