// The workspace's files for the indexer: a walk that honours .gitignore files (root and nested,
// with the maintained `ignore` library), the discovery rules and the size cap, lists only plain
// files (no symbolic links, no second hard link: workspacePath.ts), and reads no binary file.

import { lstatSync, readFileSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { discoveryMatcher, MAX_INDEXED_BYTES, type DiscoveryRules } from '../engine/indexing/discovery';
import type { FileSource, SourceFile } from '../engine';
import { fileText } from './fileText';
import { isPlainFile, locateInWorkspace } from './workspacePath';

interface Scope {
  base: string;
  rules: Ignore;
}

function ignoredByGit(scopes: Scope[], path: string, isDir: boolean): boolean {
  for (const scope of scopes) {
    const relative = scope.base ? (path.startsWith(scope.base + '/') ? path.slice(scope.base.length + 1) : null) : path;
    if (relative && scope.rules.ignores(isDir ? `${relative}/` : relative)) return true;
  }
  return false;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

const FOLDER_DONE = Symbol('folder done');
const FOLDERS_PER_TURN = 4;

export class WorkspaceFileSource implements FileSource {
  constructor(
    private readonly root: string,
    private readonly rules: DiscoveryRules = {},
  ) {}

  /**
   * The walk, giving the event loop a turn every few folders: an owner process keeps answering its
   * agents while it lists a large workspace.
   */
  async list(): Promise<SourceFile[]> {
    const files: SourceFile[] = [];
    let folders = 0;
    for (const found of this.walk()) {
      if (found === FOLDER_DONE) {
        if (++folders % FOLDERS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      } else files.push(found);
    }
    return files;
  }

  /** The same walk, synchronously (drift reads the workspace inside a save). */
  listSync(): SourceFile[] {
    return [...this.walk()].filter((found): found is SourceFile => found !== FOLDER_DONE);
  }

  /** Depth-first over the workspace: each accepted file, and a marker after each folder. */
  private *walk(): Generator<SourceFile | typeof FOLDER_DONE> {
    const matcher = discoveryMatcher(this.rules);
    const root = this.root;
    function* folder(dir: string, scopes: Scope[]): Generator<SourceFile | typeof FOLDER_DONE> {
      const absolute = join(root, dir);
      let entries: Dirent[];
      try {
        // With the entries' types, only files the rules accept are stat'ed (for size, mtime, links).
        entries = readdirSync(absolute, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
      } catch {
        return; // unreadable folder: skipped, not fatal
      }
      let here = scopes;
      if (entries.some((entry) => entry.name === '.gitignore')) {
        try {
          here = [...scopes, { base: dir, rules: ignore().add(readFileSync(join(absolute, '.gitignore'), 'utf8')) }];
        } catch {
          // an unreadable .gitignore is ignored itself
        }
      }
      for (const entry of entries) {
        const name = entry.name;
        const path = dir ? `${dir}/${name}` : name;
        if (entry.isSymbolicLink()) continue;
        // A file system that reports no type (DT_UNKNOWN) is asked with lstat.
        const known = entry.isDirectory() || entry.isFile();
        let stat = known ? undefined : lstatOrNull(join(root, path));
        if (!known && (!stat || stat.isSymbolicLink())) continue;
        if (known ? entry.isDirectory() : stat!.isDirectory()) {
          if (name === '.git' || matcher.skipsFolder(path) || ignoredByGit(here, path, true)) continue;
          yield* folder(path, here);
          continue;
        }
        if (!matcher.accepts(path) || ignoredByGit(here, path, false)) continue;
        stat ??= lstatOrNull(join(root, path));
        if (stat && isPlainFile(stat) && stat.size <= matcher.maxBytes)
          yield { path, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) };
      }
      yield FOLDER_DONE;
    }
    yield* folder('', []);
  }

  /** The file's text; null when it is binary, past the cap, or no longer a plain file inside the workspace. */
  async read(path: string): Promise<string | null> {
    // Checked again at read time: the file may have been swapped for a link since the walk.
    const located = locateInWorkspace(this.root, path);
    if (!located.ok) return null;
    // Asynchronous, so other requests to the owner run between files.
    return fileText(await readFile(located.absolute), this.rules.maxBytes ?? MAX_INDEXED_BYTES);
  }
}
