// Mentions: a name a document writes in a code span that nothing defines and no file is named
// (a Kubernetes Secret, a bucket, a label value), but that a few files beside the document use —
// the Makefile recipe or script that reads `istio-ca-secret`. Such a file is what makes the
// document's sentence true, so its lines using the name are watched: the fingerprint is those lines
// only (a line shifting, or an edit elsewhere in the file, is no change). A name that many files
// beside the document use is a common word, not a reference to any one of them, and stays unwatched.

import { RELEASE_NOTE } from './extract';
import type { Workspace } from './workspace';
import { dirName } from '../text/paths';

/** More files than this using the name beside the document: a common word, not a reference. */
export const MAX_MENTION_FILES = 3;
/** A document's folder is searched for names only when it holds at most this many code or config files… */
const MAX_NEIGHBOUR_FILES = 100;
/** …of at most this many bytes together. */
const MAX_NEIGHBOUR_BYTES = 8 * 1024 * 1024;

/**
 * Prose beside the document (and release notes, prose written as YAML) repeats the name, and a
 * diagram (an SVG, a draw.io file) draws it: neither uses it.
 */
const NOT_USERS = /\.(md|mdx|markdown|md\.erb|rst|txt|adoc|asciidoc|html?|svg|drawio)$/i;
/** A line this long is generated or minified: an edit anywhere in it says nothing about the name. */
const MAX_LINE = 500;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The name as a whole token: not part of a longer name (`istio-ca-secret-2`, `my_istio-ca-secret`). */
function tokenPattern(name: string): RegExp {
  return new RegExp(`(?:^|[^A-Za-z0-9_-])${escape(name)}(?:$|[^A-Za-z0-9_-])`);
}

/** The lines of `text` that use `name`, in order: what a mention's fingerprint covers; null when none does. */
export function mentionLines(text: string, name: string): string | null {
  // Most files beside a document never contain the name: a plain search rules them out cheaply.
  if (!text.includes(name)) return null;
  const token = tokenPattern(name);
  if (!token.test(text)) return null;
  const lines = text.split(/\r?\n/).filter((line) => line.length <= MAX_LINE && token.test(line));
  return lines.length ? lines.join('\n') : null;
}

/**
 * The files directly in each folder, listed once per operation (a scan or a check resolves every
 * document's mentions from one listing, service.ts), so looking beside a document costs no walk.
 * The texts of one folder are kept while its documents are resolved (a scan goes folder by folder),
 * never the whole tree's.
 */
export class Neighbours {
  private byFolder: Map<string, string[]> | null = null;
  private folder: string | null = null;
  private texts = new Map<string, string | null>();

  constructor(readonly ws: Workspace) {}

  filesIn(folder: string): string[] {
    if (!this.byFolder) {
      this.byFolder = new Map();
      for (const path of this.ws.allFiles()) {
        const dir = dirName(path);
        const list = this.byFolder.get(dir);
        if (list) list.push(path);
        else this.byFolder.set(dir, [path]);
      }
    }
    return this.byFolder.get(folder) ?? [];
  }

  /** A file's text, kept until a file of another folder is asked for. */
  text(path: string): string | null {
    const folder = dirName(path);
    if (folder !== this.folder) {
      this.folder = folder;
      this.texts.clear();
    }
    if (!this.texts.has(path)) this.texts.set(path, this.ws.reader.read(path));
    return this.texts.get(path)!;
  }
}

/** Whether a file beside a document can be what uses a name: code or config, not prose or a diagram. */
function implementsNames(path: string, source: string): boolean {
  return path !== source && !NOT_USERS.test(path) && !RELEASE_NOTE.test(path);
}

/**
 * The files in the document's own folder that use `name` as a whole token: one to MAX_MENTION_FILES
 * of them, or none (no file uses it, or so many that it is a common word).
 */
export function mentionSites(near: Neighbours, name: string, source: string): string[] {
  const out: string[] = [];
  const candidates = near.filesIn(dirName(source)).filter((p) => implementsNames(p, source));
  // A folder of many or large files beside the document (fixtures, data) is not its code: searching
  // it for every name the document writes would cost names × bytes.
  if (candidates.length > MAX_NEIGHBOUR_FILES) return [];
  let bytes = 0;
  for (const path of candidates) bytes += near.ws.stat(path)?.size ?? 0;
  if (bytes > MAX_NEIGHBOUR_BYTES) return [];
  for (const path of candidates.sort()) {
    const text = near.text(path);
    if (text === null || mentionLines(text, name) === null) continue;
    out.push(path);
    if (out.length > MAX_MENTION_FILES) return [];
  }
  return out;
}

/**
 * Where the lines using a name may have gone when they left their file (the file renamed, or the
 * lines moved to a neighbour): the other files of its folder. Asked only for a mention found gone.
 */
export function mentionCandidates(ws: Workspace, path: string): string[] {
  const folder = dirName(path);
  return ws.allFiles().filter((p) => p !== path && dirName(p) === folder);
}
