// The owner's live listing of its workspace: the first index walks the tree and watches every
// folder that walk entered (so the discovery rules and .gitignore files decide what is watched, and
// node_modules never is); later index runs take that listing with the changed paths re-checked,
// instead of walking again. A change to a folder, a .gitignore or the workspace config walks again;
// a watcher that fails, or a tree past MAX_WATCHED_FOLDERS, falls back to walking on every run.

import { lstatSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { DiscoveryRules } from '../engine/indexing/discovery';
import type { FileSource, Logger, SourceFile } from '../engine';
import { WorkspaceFileSource } from './fileSource';
import { WORKSPACE_CONFIG } from './workspaceConfig';

/**
 * inotify spends a watch per folder (and Node about 4 KB with it); past this many the owner walks
 * instead, warning once. A system whose inotify limit is lower fails to add one and walks too.
 */
export const MAX_WATCHED_FOLDERS = 50_000;

export class WorkspaceWatch {
  /** Full walks so far (the first index's, then one per folder-level change). */
  walks = 0;
  private listing: Map<string, SourceFile> | undefined;
  private walker: WorkspaceFileSource | undefined;
  private rulesKey = '';
  private readonly watchers = new Map<string, FSWatcher>();
  private changed = new Set<string>();
  /** Files reported changed since drift last took them, indexed or not (an index request takes `changed`). */
  private touched = new Set<string>();
  private rewalk = false;
  private broken: string | null = null;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
    /** Called on every reported change (the owner debounces its re-index). */
    private readonly onChange: () => void,
    private readonly maxFolders = MAX_WATCHED_FOLDERS,
  ) {}

  /** Whether index runs take the watched listing (false: it fell back to walking, or has not walked yet). */
  get watching(): boolean {
    return this.broken === null && this.listing !== undefined && !this.closed;
  }

  /** Whether a change is waiting for the next index run. */
  get pending(): boolean {
    return this.broken === null && !this.closed && (this.rewalk || this.changed.size > 0);
  }

  /**
   * The files reported changed since the last call, whether the index takes them or not: the
   * references docs make into code, scripts and config the index leaves out are checked from these.
   */
  takeTouched(): string[] {
    const paths = [...this.touched];
    this.touched = new Set();
    return paths;
  }

  /**
   * Paths a client says changed (workspace-relative, already checked to stay inside): drift takes
   * them, and the next index run re-reads them once there is a listing to keep current.
   */
  hint(paths: readonly string[]): void {
    for (const path of paths) {
      this.touched.add(path);
      if (this.listing && !this.broken && !this.closed) this.changed.add(path);
    }
  }

  /** Whether the listing (what the index takes) holds this path. */
  lists(path: string): boolean {
    return this.listing?.has(path) ?? false;
  }

  /** The index's file source for these rules (a client may send its own globs: other rules walk again). */
  source(rules: DiscoveryRules): FileSource {
    const reader = new WorkspaceFileSource(this.root, rules);
    return { list: () => this.list(rules), read: (path) => reader.read(path) };
  }

  close(): void {
    this.closed = true;
    this.unwatch();
  }

  private async list(rules: DiscoveryRules): Promise<SourceFile[]> {
    if (this.broken || this.closed) return new WorkspaceFileSource(this.root, rules).list();
    const key = JSON.stringify(rules);
    if (!this.listing || !this.walker || this.rewalk || key !== this.rulesKey) return this.walk(rules, key);
    const changed = this.changed;
    this.changed = new Set();
    for (const path of changed) {
      const file = this.walker.fileAt(path);
      if (file) this.listing.set(path, file);
      else this.listing.delete(path);
    }
    return [...this.listing.values()];
  }

  private async walk(rules: DiscoveryRules, key: string): Promise<SourceFile[]> {
    this.unwatch();
    this.rewalk = false;
    this.changed = new Set();
    const walker = new WorkspaceFileSource(this.root, rules, { folder: (dir) => this.watchFolder(dir) });
    const files = await walker.list();
    this.walks++;
    if (this.broken || this.closed) {
      this.unwatch();
      this.listing = undefined;
      return files;
    }
    this.listing = new Map(files.map((file) => [file.path, file]));
    this.walker = walker;
    this.rulesKey = key;
    return files;
  }

  private watchFolder(dir: string): void {
    if (this.broken || this.closed) return;
    if (this.watchers.size >= this.maxFolders) {
      this.fail(`the workspace has more than ${this.maxFolders} folders to index`);
      return;
    }
    const absolute = join(this.root, dir);
    try {
      const watcher = watch(absolute, { persistent: false }, (_event, name) => this.event(dir, name));
      watcher.on('error', (error) => {
        // A watched folder that was removed ends its watcher: that is a change, not a failure.
        if (exists(absolute)) this.fail(error.message);
        else this.changedFolder();
      });
      this.watchers.set(dir, watcher);
    } catch (error) {
      // A folder removed while the walk reached it is not a failure either.
      if (exists(absolute)) this.fail((error as Error).message);
    }
  }

  private event(dir: string, name: string | Buffer | null): void {
    if (this.closed) return;
    if (name === null) return this.changedFolder();
    const path = dir ? `${dir}/${name}` : String(name);
    if (
      String(name) === '.gitignore' ||
      path === WORKSPACE_CONFIG ||
      this.watchers.has(path) ||
      isFolder(join(this.root, path))
    )
      return this.changedFolder();
    this.changed.add(path);
    this.touched.add(path);
    this.onChange();
  }

  private changedFolder(): void {
    this.rewalk = true;
    this.onChange();
  }

  private fail(reason: string): void {
    if (this.broken) return;
    this.broken = reason;
    this.unwatch();
    this.listing = undefined;
    this.logger.warn(`not watching the workspace for changes (${reason}); each index walks it instead`);
  }

  private unwatch(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
