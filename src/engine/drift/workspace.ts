// The workspace as resolution sees it, built lazily over the reader: the file list, folders,
// files by base name, and a symbol index (every definition in every file that defines symbols),
// each made only when a reference needs it. A drift service keeps one between checks and
// refreshes the paths a save or watcher event names, so per-save checks walk the tree at most
// once (when a new reference first needs the listing). A memory's save builds a fresh one: an
// anchor that is not a plain file path (a folder, a bare name) costs that save a walk.

import { locateAll, type FileDefinitions } from './finders';
import type { SymbolDefinition } from './symbolDefinition';
import { definesSymbols } from './symbols';
import type { FileStat, WorkspaceReader } from './types';
import { ancestors, baseName } from '../text/paths';

const basename = baseName;
const parentsOf = ancestors;

export interface Site {
  path: string;
  defs: SymbolDefinition[];
}

/** A path's file name, and the folders holding it (innermost first): drift's names for text/paths. */
export { basename, parentsOf };

export class Workspace {
  private files: Map<string, FileStat> | null = null;
  private dirs = new Map<string, number>();
  private byBase = new Map<string, Set<string>>();
  private dirsByBase = new Map<string, Set<string>>();
  private texts = new Map<string, string | null>();
  private stats = new Map<string, FileStat | null>();
  private defs = new Map<string, FileDefinitions>();
  private symbols: Map<string, Set<string>> | null = null;
  /** The listed paths in order, for a folder's files (filesUnder); dropped when a path comes or goes. */
  private sorted: string[] | null = null;
  /** Whether the parser had loaded when the symbol index was built: once it has, the index is built again. */
  private indexedParsed = false;
  /** Paths refreshed while a symbol index is being built in steps (indexingSymbols), one set per build. */
  private readonly building = new Set<Set<string>>();
  /** What was worked out from a path's text and stat (a target's fingerprint), dropped when they are (memo). */
  private readonly derived = new Map<string, Map<string, unknown>>();

  constructor(readonly reader: WorkspaceReader) {}

  private listed(): Map<string, FileStat> {
    if (!this.files) {
      this.files = new Map();
      for (const f of this.reader.list()) this.addFile(f.path, { size: f.size, mtimeMs: f.mtimeMs });
    }
    return this.files;
  }

  private addFile(path: string, stat: FileStat): void {
    if (!this.files!.has(path)) this.sorted = null;
    this.files!.set(path, stat);
    add(this.byBase, basename(path), path);
    for (const dir of parentsOf(path)) {
      const n = this.dirs.get(dir) ?? 0;
      this.dirs.set(dir, n + 1);
      if (!n) add(this.dirsByBase, basename(dir), dir);
    }
  }

  private removeFile(path: string): void {
    if (!this.files?.delete(path)) return;
    this.sorted = null;
    this.byBase.get(basename(path))?.delete(path);
    for (const dir of parentsOf(path)) {
      const n = (this.dirs.get(dir) ?? 1) - 1;
      if (n) this.dirs.set(dir, n);
      else {
        this.dirs.delete(dir);
        this.dirsByBase.get(basename(dir))?.delete(dir);
      }
    }
  }

  /** Forgets what is known about these paths; the next question reads them again. */
  refresh(paths: readonly string[]): void {
    for (const path of paths) {
      for (const changed of this.building) changed.add(path);
      this.texts.delete(path);
      this.stats.delete(path);
      this.derived.delete(path);
      const before = this.defs.get(path);
      this.defs.delete(path);
      if (this.symbols && this.indexedParsed !== this.parsing()) this.symbols = null;
      if (this.symbols && before) for (const d of before.offered) this.symbols.get(d.name)?.delete(path);
      if (!this.files) continue;
      const stat = this.reader.stat(path);
      const sorted = this.sorted;
      const was = this.files.has(path);
      this.removeFile(path);
      // A file that is still there keeps its place in the order.
      if (was && stat) this.sorted = sorted;
      if (stat) {
        this.addFile(path, stat);
        if (this.symbols) this.indexSymbols(path);
      }
    }
  }

  /**
   * Texts and unlisted stats are kept for one operation only; definitions (small) are kept until their file changes.
   */
  forgetTexts(): void {
    this.texts.clear();
    this.stats.clear();
    this.derived.clear();
  }

  /**
   * `compute()`'s answer about one path's text and stat (`key` says which question), computed once for as long as
   * they are kept: refreshing the path or forgetting texts drops it. An index's check fingerprints the same section
   * or file for every link into it.
   */
  memo<V>(path: string, key: string, compute: () => V): V {
    let byKey = this.derived.get(path);
    if (!byKey) this.derived.set(path, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as V;
    const value = compute();
    byKey.set(key, value);
    return value;
  }

  stat(path: string): FileStat | null {
    if (this.files) return this.files.get(path) ?? null;
    // Unlisted, each path is asked of the disk once per operation (a check weighs many candidates for each vanished
    // target).
    if (!this.stats.has(path)) this.stats.set(path, this.reader.stat(path));
    return this.stats.get(path)!;
  }

  isFile(path: string): boolean {
    return this.stat(path) !== null;
  }

  isDir(path: string): boolean {
    return this.listed() && this.dirs.has(path);
  }

  allFiles(): string[] {
    return [...this.listed().keys()];
  }

  filesUnder(dir: string): Array<[string, FileStat]> {
    const prefix = `${dir}/`;
    const files = this.listed();
    const sorted = (this.sorted ??= [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // The first path at or after the prefix: a folder's files follow it, in order.
    let lo = 0;
    for (let hi = sorted.length; lo < hi;) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: Array<[string, FileStat]> = [];
    for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++)
      out.push([sorted[i], files.get(sorted[i])!]);
    return out;
  }

  withBasename(name: string): string[] {
    return [...(this.listed(), this.byBase.get(name) ?? [])].sort();
  }

  dirsNamed(name: string): string[] {
    return [...(this.listed(), this.dirsByBase.get(name) ?? [])].sort();
  }

  /** A path's text as another reader just read it (the index's batch): kept as if read here, until refreshed. */
  knownText(path: string, text: string): void {
    this.texts.set(path, text);
  }

  text(path: string): string | null {
    if (!this.texts.has(path)) this.texts.set(path, this.reader.read(path));
    return this.texts.get(path)!;
  }

  /** The bytes' fingerprint, for a listed file that has no text (binary or large). */
  digest(path: string): string | null {
    return this.isFile(path) ? this.reader.digest(path) : null;
  }

  /**
   * The definitions a new reference may name: the parser's where it has loaded the file's grammar (finders.ts), else
   * the patterns'.
   */
  definitions(path: string): SymbolDefinition[] {
    return this.located(path).offered;
  }

  /** Every definition the patterns find, for references the patterns fingerprinted. */
  patternDefinitions(path: string): SymbolDefinition[] {
    return this.located(path).patterns;
  }

  /** The parser finder that reads this path now, or null. */
  parserFinder(path: string): string | null {
    return this.reader.parser?.finderFor(path) ?? null;
  }

  private parsing(): boolean {
    return this.reader.parser?.ready() ?? false;
  }

  private located(path: string): FileDefinitions {
    const finder = this.parserFinder(path);
    let defs = this.defs.get(path);
    if (!defs || defs.finder !== finder) {
      const held = this.texts.has(path);
      const text = definesSymbols(path) || finder ? this.text(path) : null;
      defs = locateAll(path, text, this.reader.parser);
      this.defs.set(path, defs);
      // Definitions are kept, a text read for them is not: a full scan would otherwise hold the whole tree.
      if (!held) this.texts.delete(path);
    }
    return defs;
  }

  private indexSymbols(path: string): void {
    for (const d of this.definitions(path)) add(this.symbols!, d.name, path);
  }

  /** Every file defining `name`, with the definitions of that name. */
  sitesOf(name: string): Site[] {
    if (!this.symbols || this.indexedParsed !== this.parsing()) {
      const build = this.indexingSymbols();
      while (!build.next().done);
    }
    return [...(this.symbols!.get(name) ?? [])]
      .sort()
      .map((path) => ({ path, defs: this.definitions(path).filter((d) => d.name === name) }));
  }

  /**
   * Builds the symbol index (when there is none, or the parser has loaded since) a file at a time,
   * a step each, for a caller that lets other work run between steps: a path refreshed meanwhile
   * is indexed again at the end, and an index someone else built meanwhile is kept.
   */
  *indexingSymbols(): Generator<void> {
    if (this.symbols && this.indexedParsed === this.parsing()) return;
    const parsed = this.parsing();
    const symbols = new Map<string, Set<string>>();
    const changed = new Set<string>();
    this.building.add(changed);
    try {
      for (const path of [...this.listed().keys()]) {
        if (!changed.has(path) && (definesSymbols(path) || this.parserFinder(path))) {
          for (const d of this.definitions(path)) add(symbols, d.name, path);
          yield;
        }
      }
    } finally {
      this.building.delete(changed);
    }
    if (this.symbols && this.indexedParsed === this.parsing()) return;
    for (const path of changed) for (const paths of symbols.values()) paths.delete(path);
    this.symbols = symbols;
    this.indexedParsed = parsed;
    for (const path of changed) if (this.files?.has(path)) this.indexSymbols(path);
  }
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}
