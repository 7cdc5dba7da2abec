// The workspace's files for the indexer: a walk that honours .gitignore files (root and nested,
// with the maintained `ignore` library), the discovery rules and the size cap, lists only plain
// files (no symbolic links, no second hard link: workspacePath.ts), and reads no binary file.

import { lstatSync, readFileSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import {
  discoveryMatcher,
  MAX_INDEXED_BYTES,
  type DiscoveryMatcher,
  type DiscoveryRules,
} from '../engine/indexing/discovery';
import type { FileSource, SourceFile } from '../engine';
import { fileHead, fileText } from './fileText';
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

/**
 * The walk's rule for one file (`stat` asked only once the rules accept the path, or it may be an
 * extensionless script, whose first bytes are then read only when it is executable).
 */
function listed(
  matcher: DiscoveryMatcher,
  scopes: Scope[],
  path: string,
  stat: Stats | null | (() => Stats | null),
  absolute: string,
): SourceFile | null {
  const named = matcher.accepts(path);
  if ((!named && !matcher.mayBeScript(path)) || ignoredByGit(scopes, path, false)) return null;
  const found = typeof stat === 'function' ? stat() : stat;
  if (!found || !isPlainFile(found) || found.size > matcher.maxBytes) return null;
  if (!named && !matcher.acceptsFile(path, found.mode, () => fileHead(absolute))) return null;
  return { path, size: found.size, mtimeMs: Math.floor(found.mtimeMs) };
}

const FOLDER_DONE = Symbol('folder done');
const FOLDERS_PER_TURN = 4;

/** Told of each folder the walk enters (before it is read), and what the walk found there. */
export interface WalkObserver {
  folder(dir: string): void;
}

export class WorkspaceFileSource implements FileSource {
  /** The .gitignore scopes of each folder the last walk entered, kept only for an observed walk (fileAt). */
  private readonly scopes = new Map<string, Scope[]>();
  private readonly matcher: DiscoveryMatcher;

  constructor(
    private readonly root: string,
    private readonly rules: DiscoveryRules = {},
    private readonly observer?: WalkObserver,
  ) {
    this.matcher = discoveryMatcher(rules);
  }

  /**
   * One path as the last observed walk would list it now (null: it would not), without walking:
   * its folder's rules are the ones that walk read. A path in a folder that walk skipped is null.
   */
  fileAt(path: string): SourceFile | null {
    const cut = path.lastIndexOf('/');
    const here = this.scopes.get(cut < 0 ? '' : path.slice(0, cut));
    if (!here || path.split('/').includes('.git')) return null;
    return listed(this.matcher, here, path, lstatOrNull(join(this.root, path)), join(this.root, path));
  }

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
    const { matcher, root, observer, scopes } = this;
    scopes.clear();
    function* folder(dir: string, parentScopes: Scope[]): Generator<SourceFile | typeof FOLDER_DONE> {
      const absolute = join(root, dir);
      let entries: Dirent[];
      try {
        // With the entries' types, only files the rules accept are stat'ed (for size, mtime, links).
        entries = readdirSync(absolute, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
      } catch {
        observer?.folder(dir);
        return; // unreadable folder: skipped, not fatal
      }
      // A folder named like output (`build/`) is skipped once its entries show a build tool wrote it.
      if (
        dir &&
        matcher.isOutputFolder(
          dir,
          entries.map((entry) => entry.name),
        )
      )
        return;
      observer?.folder(dir);
      let here = parentScopes;
      if (entries.some((entry) => entry.name === '.gitignore')) {
        try {
          here = [...here, { base: dir, rules: ignore().add(readFileSync(join(absolute, '.gitignore'), 'utf8')) }];
        } catch {
          // an unreadable .gitignore is ignored itself
        }
      }
      if (observer) scopes.set(dir, here);
      for (const entry of entries) {
        const name = entry.name;
        const path = dir ? `${dir}/${name}` : name;
        if (entry.isSymbolicLink()) continue;
        // A file system that reports no type (DT_UNKNOWN) is asked with lstat.
        const known = entry.isDirectory() || entry.isFile();
        const stat = known ? undefined : lstatOrNull(join(root, path));
        if (!known && (!stat || stat.isSymbolicLink())) continue;
        if (known ? entry.isDirectory() : stat!.isDirectory()) {
          if (name === '.git' || matcher.skipsFolder(path) || ignoredByGit(here, path, true)) continue;
          yield* folder(path, here);
          continue;
        }
        const file = listed(matcher, here, path, stat ?? (() => lstatOrNull(join(root, path))), join(root, path));
        if (file) yield file;
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
