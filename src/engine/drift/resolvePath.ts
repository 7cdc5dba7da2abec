// Path resolution: a path, link or file name as written to the workspace file it names. Relative
// paths resolve against the referring document's folder, then its project and the root; links to
// published pages find their source (`x.html` → `x.html.md.erb`), folder links their index page;
// bare file names must be unique or they are reported ambiguous; placeholder paths are patterns.

import { RELEASE_NOTE, type RawReference } from './extract';
import { pagePath, pageSources, siteMayServe, siteOf, type DocSite } from './site';
import { patternFiles } from './patterns';
import { definitionsIn, lineRange, type Target } from './target';
import type { ReferenceForm } from './types';
import { basename, parentsOf, type Workspace } from './workspace';
import { dirName, joinPath } from '../text/paths';

export { joinPath };

export type Resolution =
  | { ok: true; form: ReferenceForm; target: Target }
  | { ok: false; form: ReferenceForm; detail: string; state?: 'ambiguous' };

/** Markdown documents: their `#fragment`s are headings, and they are the documents drift reads (service.ts). */
export const MARKDOWN = /\.(md|mdx|markdown|md\.erb)$/i;

export const dirOf = (path: string | null): string => (path ? dirName(path) : '');

/** A URL's fragment as the browser matches it: percent-decoded (`#3%EF%B8%8F⃣-x` is `#3️⃣-x`). */
function decodedFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment; // a malformed escape is kept as written
  }
}

function fragmentTarget(ws: Workspace, path: string, written: string | undefined): Target | string {
  if (!written) return { path, kind: 'file', symbol: null };
  const fragment = decodedFragment(written);
  // A file drift gets no text of (secret-bearing, binary, past the size cap) is watched whole: its lines,
  // headings and symbols cannot be seen, so a fragment in it is never called missing.
  if (ws.text(path) === null) return { path, kind: 'file', symbol: null };
  if (lineRange(fragment)) return { path, kind: 'lines', symbol: fragment };
  if (MARKDOWN.test(path)) return { path, kind: 'heading', symbol: fragment.toLowerCase() };
  if (definitionsIn(ws, path, fragment).length) return { path, kind: 'symbol', symbol: fragment };
  return `${fragment} is not defined in ${path}`;
}

/** A file found: resolved to it (narrowed by the fragment), or broken when the fragment is not in it. */
export function fileResolution(
  ws: Workspace,
  path: string,
  fragment: string | undefined,
  form: ReferenceForm,
): Resolution[] {
  const target = fragmentTarget(ws, path, fragment);
  return [typeof target === 'string' ? { ok: false, form, detail: target } : { ok: true, form, target }];
}

/**
 * The root of the project a document belongs to: the innermost folder above it that is a project of
 * its own (a `.github/`, a licence, a go.mod or package.json), so a monorepo's or a vendored
 * project's `pkg/x.go` resolves from there; '' is the repository root.
 */
export function projectRoot(ws: Workspace, source: string | null): string {
  if (!source) return '';
  for (const dir of parentsOf(source)) {
    if (
      ws.isDir(`${dir}/.github`) ||
      ['LICENSE', 'go.mod', 'package.json', 'Cargo.toml'].some((n) => ws.isFile(`${dir}/${n}`))
    )
      return dir;
  }
  return '';
}

export function candidatesFor(
  ws: Workspace,
  path: string,
  source: string | null,
  form: ReferenceForm,
  site: DocSite | null,
): string[] {
  const docDir = dirOf(source);
  const project = projectRoot(ws, source);
  const rooted = (p: string) => [
    site ? joinPath(site.root, p) : null,
    project ? joinPath(project, p) : null,
    joinPath('', p),
  ];
  if (path.startsWith('/')) return [...new Set(rooted(path).filter((p): p is string => p !== null))];
  const relative = joinPath(docDir, path);
  const root = joinPath('', path);
  const fromProject = project ? joinPath(project, path) : null;
  // A site that serves `a/b.md` at `/a/b/` resolves `../c/` from that folder URL.
  const fromPageUrl =
    site && source ? joinPath(`${site.root ? `${site.root}/` : ''}${pagePath(site, source)}`, path) : null;
  // Middleman's image helper finds a relative image under the site's images/ folder when it is not beside the page.
  const image =
    form === 'link' && site?.generator === 'tech-docs' && IMAGE.test(path)
      ? joinPath(`${site.root}/images`, path)
      : null;
  // A Hugo shortcode reads its file from the site's folder (kind's `static/examples/x.yaml` from site/).
  const fromSite = form === 'embed' && source ? siteFolderOf(ws, source, path) : null;
  // A command in a README runs from the repository root as often as from the README's folder.
  const order = form === 'link' ? [relative, fromPageUrl, image] : [relative, fromProject, fromSite, root];
  return [...new Set(order.filter((p): p is string => p !== null && p !== ''))];
}

const IMAGE = /\.(png|jpe?g|gif|svg|webp)$/i;

/** `path` from the folder of the Hugo site the document is a page of (its config's folder): where readFile reads. */
function siteFolderOf(ws: Workspace, source: string, path: string): string | null {
  const site = siteOf(ws, source);
  const folder = site?.generator === 'hugo' && site.config ? dirOf(site.config) : '';
  return folder ? joinPath(folder, path) : null;
}

/**
 * Source files of a published page (`x.html` → `x.html.md`...) or of a folder or extension-less link (its index page).
 */
function publishedSources(path: string): Array<[string, ReferenceForm]> {
  const base = path.replace(/\/$/, '');
  if (/\.html?$/.test(base)) return pageSources(base.replace(/\.html?$/, '')).map((p) => [p, 'published']);
  if (!/\.[A-Za-z0-9]+$/.test(base) || path.endsWith('/')) return pageSources(base).map((p) => [p, 'index']);
  return [];
}

/** Why a link finds nothing, with the file it probably meant: one at that path from the repository root. */
function missingDetail(ws: Workspace, path: string, source: string | null): string {
  const fromRoot = joinPath('', path.replace(/\\/g, '/'));
  const meant = source && dirOf(source) && fromRoot && ws.isFile(fromRoot) ? fromRoot : null;
  return meant
    ? `${path} does not exist relative to ${dirOf(source)}/ (the repository has /${meant})`
    : `${path} does not exist in the workspace`;
}

export function resolvePath(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const path = ref.path!.replace(/\/+$/, '') || ref.path!;
  // `[x]("https://…")`: the quotes make the address a relative path that exists nowhere, another site's or ours.
  if (ref.form === 'link' && /^["'\u201c]/.test(path))
    return [
      { ok: false, form: ref.form, detail: `malformed link: the address ${ref.raw} is quoted (remove the quotes)` },
    ];
  const site = ref.form === 'link' ? siteOf(ws, source) : null;
  for (const candidate of candidatesFor(ws, path, source, ref.form, site)) {
    if (ws.isFile(candidate)) {
      return fileResolution(ws, candidate, ref.fragment, ref.form);
    }
    if (ws.isDir(candidate) && !ref.fragment) {
      if (ref.form !== 'link')
        return [{ ok: true, form: ref.form, target: { path: candidate, kind: 'dir', symbol: null } }];
    }
    // `folder#section`: GitHub shows the folder's README, and the anchor is one of its headings.
    if (ws.isDir(candidate) && ref.fragment) {
      const readme = ['README.md', 'README.MD', 'readme.md', 'README.markdown', 'index.md']
        .map((n) => `${candidate}/${n}`)
        .find((p) => ws.isFile(p));
      if (readme) return fileResolution(ws, readme, ref.fragment, ref.form);
    }
    if (ref.form === 'link') {
      for (const [published, form] of publishedSources(candidate)) {
        if (ws.isFile(published)) {
          return fileResolution(ws, published, ref.fragment, form);
        }
      }
      if (ws.isDir(candidate))
        return [{ ok: true, form: ref.form, target: { path: candidate, kind: 'dir', symbol: null } }];
    }
  }
  // A site generates pages and serves assets its sources do not hold (proxies, taxonomies, a static folder):
  // a root link or a page link there that matches no source is broken only when the site is known not to.
  const pageLink = path.startsWith('/') || !/\.(md|mdx|markdown|rst|erb)$/i.test(path);
  if (site && pageLink && siteMayServe(ws, site, candidatesFor(ws, path, source, ref.form, site))) return [];
  // A release note is published on the project's website: its root links (`/docs/ops/…`) are that site's pages.
  if (path.startsWith('/') && source && RELEASE_NOTE.test(source)) return [];
  if (ref.deliberate) return [{ ok: false, form: ref.form, detail: missingDetail(ws, ref.path!, source) }];
  if (ref.inBlock) return [];
  // A path in a code span is ours when it starts where ours do; `kubernetes.io/ingress.class` is not.
  // Its folder must be here too: docs describe other repositories' `config/locales/en.yml` as often as ours.
  // A path mentioned in a code span that is not here when first seen is as often another repository's
  // (`pkg/apis/` in a proposal about Kubernetes, `config/locales/en.yml` in a guide to an app) as a
  // dead one of ours: only a path written relative to the document (`./x.sh`, `../y.md`), in a folder
  // that exists, is reported broken. A mention that resolved once is tracked like any reference.
  const relative = /^\.\.?\//.test(path);
  const joined = relative ? joinPath(dirOf(source), path) : null;
  const named = /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(path) || ref.path!.endsWith('/');
  const ours = relative && named && joined !== null && (dirOf(joined) === '' || ws.isDir(dirOf(joined)));
  if (ours && path.startsWith('./')) return commandFile(ws, ref, path);
  return ours ? [{ ok: false, form: ref.form, detail: `${path} does not exist in the workspace` }] : [];
}

/**
 * `./delete-accounts.sh` in a code span, not beside the document: a command run from the folder the page
 * tells the reader to be in. It is the one file in the repository at that path's tail; several are
 * ambiguous, none is broken.
 */
function commandFile(ws: Workspace, ref: RawReference, path: string): Resolution[] {
  const tail = path.slice(2);
  const matches = ws.withBasename(basename(tail)).filter((p) => p === tail || p.endsWith(`/${tail}`));
  if (matches.length === 1) return fileResolution(ws, matches[0], ref.fragment, ref.form);
  if (matches.length > 1)
    return [
      {
        ok: false,
        form: ref.form,
        state: 'ambiguous',
        detail: `ambiguous: ${matches.length} files are at ${tail} (${matches.slice(0, 5).join(', ')})`,
      },
    ];
  return [{ ok: false, form: ref.form, detail: `${path} does not exist in the workspace` }];
}

export function resolveFilename(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const name = ref.path!;
  const sibling = joinPath(dirOf(source), name);
  if (sibling && ws.isFile(sibling)) return resolvePath(ws, { ...ref, form: 'filename' }, source);
  if (ws.isFile(name)) return resolvePath(ws, { ...ref, form: 'filename' }, null);
  const matches = ws.withBasename(name);
  if (matches.length === 1) return fileResolution(ws, matches[0], ref.fragment, 'filename');
  if (matches.length > 1 && !ref.inBlock) {
    const shown = matches.slice(0, 5).join(', ') + (matches.length > 5 ? `, and ${matches.length - 5} more` : '');
    return [
      {
        ok: false,
        form: 'filename',
        state: 'ambiguous',
        detail: `ambiguous: ${matches.length} files are named ${name} (${shown})`,
      },
    ];
  }
  return ref.deliberate ? [{ ok: false, form: 'filename', detail: `no file named ${name} in the workspace` }] : [];
}

/**
 * A path with placeholders (patterns.ts), from the document's folder, its project or the root: watched
 * as a pattern where files match it; matching none when first seen, it names no file of ours.
 */
export function resolvePattern(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const path = ref.path!.replace(/^\.\//, '');
  const bases = [dirOf(source), projectRoot(ws, source), ''];
  for (const base of [...new Set(bases)]) {
    const pattern = joinPath(base, path);
    if (pattern !== null && patternFiles(ws, pattern).length)
      return [{ ok: true, form: ref.form, target: { path: pattern, kind: 'pattern', symbol: null } }];
  }
  return [];
}
