// The workspace's files for the indexer: a walk that honours .gitignore files (root and nested,
// with the maintained `ignore` library), the discovery rules and the size cap, never follows
// symbolic links, and skips binary files.

import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { discoveryMatcher, type DiscoveryRules } from '../engine/index/discovery';
import type { FileSource, SourceFile } from '../engine';

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

export class WorkspaceFileSource implements FileSource {
  constructor(
    private readonly root: string,
    private readonly rules: DiscoveryRules = {},
  ) {}

  async list(): Promise<SourceFile[]> {
    const matcher = discoveryMatcher(this.rules);
    const files: SourceFile[] = [];
    const walk = (dir: string, scopes: Scope[]) => {
      const absolute = join(this.root, dir);
      let names: string[];
      try {
        names = readdirSync(absolute).sort();
      } catch {
        return; // unreadable folder: skipped, not fatal
      }
      let here = scopes;
      if (names.includes('.gitignore')) {
        try {
          here = [...scopes, { base: dir, rules: ignore().add(readFileSync(join(absolute, '.gitignore'), 'utf8')) }];
        } catch {
          // an unreadable .gitignore is ignored itself
        }
      }
      for (const name of names) {
        const path = dir ? `${dir}/${name}` : name;
        let stat;
        try {
          stat = lstatSync(join(this.root, path));
        } catch {
          continue;
        }
        if (stat.isSymbolicLink()) continue;
        if (stat.isDirectory()) {
          if (name === '.git' || matcher.skipsFolder(path) || ignoredByGit(here, path, true)) continue;
          walk(path, here);
        } else if (stat.isFile() && stat.size <= matcher.maxBytes && matcher.accepts(path) && !ignoredByGit(here, path, false)) {
          files.push({ path, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) });
        }
      }
    };
    walk('', []);
    return files;
  }

  async read(path: string): Promise<string> {
    const bytes = readFileSync(join(this.root, path));
    // A NUL byte means binary: it is indexed as empty rather than as garbage.
    return bytes.includes(0) ? '' : bytes.toString('utf8');
  }
}
