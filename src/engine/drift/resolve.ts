// Resolution: from a reference as written to the workspace target(s) it names. Relative paths
// resolve against the referring document's folder, then the root; links to published pages find
// their source (`x.html` → `x.html.md.erb`), folder links their index page; same-repository
// GitHub URLs become paths (with `#L70` line anchors); bare file names must be unique or they are
// reported ambiguous; symbols are looked up in the symbol index and watched at each definition
// site (a handful at most: a name defined everywhere is no reference to one thing); a name nothing
// defines is watched where a few files beside the document use it (mention.ts).
//
// This module picks the resolver for a reference's form: resolvePath.ts (paths, links, file names,
// patterns), resolveUrl.ts (GitHub and docs-site URLs), resolveSymbol.ts (symbols, roles, flags).

import { resolveVariable } from './ansibleVars';
import type { RawReference } from './extract';
import { Neighbours } from './mention';
import { isPlaceholderPath } from './patterns';
import { fileResolution, resolveFilename, resolvePath, resolvePattern, type Resolution } from './resolvePath';
import { resolveFlag, resolveRole, resolveSymbol } from './resolveSymbol';
import { isOwnRepositoryUrl, resolveUrl } from './resolveUrl';
import { targetHash } from './target';
import type { Workspace } from './workspace';

export { joinPath, MARKDOWN, type Resolution } from './resolvePath';

/** `near`: the listing by folder a scan or a check shares between its documents (mention.ts). */
export function resolveReference(
  ws: Workspace,
  ref: RawReference,
  source: string | null,
  repositories: readonly string[] = [],
  near = new Neighbours(ws),
): Resolution[] {
  // A code comment's path or URL counts only when it names a file of this repository that is there now
  // (codeComments.ts): a folder, or a heading or line it names that is not found, is no reference either.
  if (ref.comment) {
    if (ref.form === 'url' && !isOwnRepositoryUrl(ref.raw, repositories)) return [];
    const resolved = resolveReference(ws, { ...ref, comment: false }, source, repositories, near);
    return resolved.filter((r) => r.ok && r.target.kind !== 'dir' && targetHash(ws, r.target) !== null);
  }
  if (ref.form === 'url') {
    const resolved = resolveUrl(ws, ref, repositories, source);
    return ref.loose ? resolved.filter((r) => r.ok) : resolved;
  }
  // An in-page anchor names a heading of the document it is written in.
  if (ref.form === 'heading' && ref.path === undefined)
    return source && ref.fragment ? fileResolution(ws, source, ref.fragment, 'heading') : [];
  if (ref.form === 'role') return resolveRole(ws, ref, source);
  if (ref.form === 'variable') return resolveVariable(ws, ref);
  // An embed names its file as the tool reads it (from the document's folder or the root), never by bare name.
  if (ref.form === 'embed') return resolvePath(ws, ref, source);
  if (ref.path !== undefined && isPlaceholderPath(ref.path)) return resolvePattern(ws, ref, source);
  if (ref.path !== undefined) {
    if (ref.form === 'filename' || (!ref.path.includes('/') && ref.form !== 'link')) {
      const asFile = resolveFilename(ws, ref, source);
      if (ref.symbol && !asFile.some((r) => r.ok)) {
        const asSymbol = resolveSymbol(ws, { ...ref, form: 'symbol' }, source, near);
        if (asSymbol.some((r) => r.ok)) return asSymbol;
      }
      return asFile;
    }
    return resolvePath(ws, ref, source);
  }
  if (ref.form === 'flag') return resolveFlag(ws, ref, source);
  // A memory's bare-word anchor that names a file at the root (`Dockerfile`, `Makefile`) is that file:
  // anchors are written from the root, and such a file has no extension to say it is one.
  if (ref.symbol && ref.form === 'anchor' && ref.path === undefined && ref.raw === ref.symbol && ws.isFile(ref.raw))
    return fileResolution(ws, ref.raw, undefined, 'anchor');
  if (ref.symbol) return resolveSymbol(ws, ref, source, near);
  return [];
}
