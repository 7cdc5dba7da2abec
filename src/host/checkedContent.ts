// What the owner's drift check last saw of each changed file it checked: the content's digest (or
// that the file was gone). A save reaches the owner twice, by the editor's hint (POST /changed) and
// by its own file watcher; when the two fall into different settle windows, the second would check
// the same content again. A path whose content is what was last checked is left out of the next
// check; any other change (an edit, a delete, a re-creation) is checked as before.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Paths remembered at most (a branch switch touches thousands; the oldest are forgotten first). */
const REMEMBERED = 4096;
const GONE = 'gone';
/** How long reading digests holds the owner's thread before it turns it (ms). */
const SLICE_MS = 8;

export class CheckedContent {
  private readonly seen = new Map<string, string>();

  constructor(private readonly root: string) {}

  /** The digest of a workspace-relative path's content now, or `gone` when it cannot be read as a file. */
  digest(path: string): string {
    try {
      return createHash('sha256')
        .update(readFileSync(join(this.root, path)))
        .digest('base64');
    } catch {
      return GONE;
    }
  }

  /**
   * The paths whose content differs from what was last checked, each with its digest now (to
   * remember once the check has run: a check that fails leaves them to be checked again). A branch
   * switch's thousands of files are read a slice at a time, the thread turned between slices.
   */
  async unchecked(paths: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    let started = performance.now();
    for (const path of paths) {
      const now = this.digest(path);
      if (this.seen.get(path) !== now) out.set(path, now);
      if (performance.now() - started >= SLICE_MS) {
        await new Promise((turned) => setImmediate(turned));
        started = performance.now();
      }
    }
    return out;
  }

  /** Remembers what a finished check saw. */
  checked(digests: ReadonlyMap<string, string>): void {
    for (const [path, digest] of digests) {
      this.seen.delete(path);
      this.seen.set(path, digest);
    }
    for (const oldest of this.seen.keys()) {
      if (this.seen.size <= REMEMBERED) break;
      this.seen.delete(oldest);
    }
  }
}
