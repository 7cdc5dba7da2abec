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
   * remember once the check has run: a check that fails leaves them to be checked again).
   */
  unchecked(paths: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const path of paths) {
      const now = this.digest(path);
      if (this.seen.get(path) !== now) out.set(path, now);
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
