// Resolution: from a reference as written to the workspace target(s) it names. Relative paths
// resolve against the referring document's folder, then the root; links to published pages find
// their source (`x.html` → `x.html.md.erb`), folder links their index page; same-repository
// GitHub URLs become paths (with `#L70` line anchors); bare file names must be unique or they are
// reported ambiguous; symbols are looked up in the symbol index and watched at each definition
// site (a handful at most: a name defined everywhere is no reference to one thing); a name nothing
// defines is watched where a few files beside the document use it (mention.ts).

import { cliFiles, isAutomaticFlag } from './commands';
import { RELEASE_NOTE, type RawReference } from './extract';
import { chartOf, isValuesFile, namedChart } from './helmValues';
import { mentionSites, Neighbours } from './mention';
import { pagePath, pageSources, siteMayServe, siteOf, type DocSite } from './site';
import { isPlaceholderPath, patternFiles } from './patterns';
import { sitePage, siteServesUnseen } from './siteUrls';
import { definitionsIn, lineRange, POD_ORDINAL, targetHash, type Target } from './target';
import type { ReferenceForm } from './types';
import { basename, parentsOf, type Site, type Workspace } from './workspace';
import { dirName } from '../text/paths';

const MAX_SYMBOL_SITES = 3;

export type Resolution =
  | { ok: true; form: ReferenceForm; target: Target }
  | { ok: false; form: ReferenceForm; detail: string; state?: 'ambiguous' };

/** Markdown documents: their `#fragment`s are headings, and they are the documents drift reads (service.ts). */
export const MARKDOWN = /\.(md|mdx|markdown|md\.erb)$/i;

const dirOf = (path: string | null): string => (path ? dirName(path) : '');

/** Joins and normalises; null when the result leaves the workspace. */
export function joinPath(base: string, relative: string): string | null {
  const parts = base ? base.split('/') : [];
  for (const part of relative.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

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
function fileResolution(ws: Workspace, path: string, fragment: string | undefined, form: ReferenceForm): Resolution[] {
  const target = fragmentTarget(ws, path, fragment);
  return [typeof target === 'string' ? { ok: false, form, detail: target } : { ok: true, form, target }];
}

/**
 * The root of the project a document belongs to: the innermost folder above it that is a project of
 * its own (a `.github/`, a licence, a go.mod or package.json), so a monorepo's or a vendored
 * project's `pkg/x.go` resolves from there; '' is the repository root.
 */
function projectRoot(ws: Workspace, source: string | null): string {
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

function candidatesFor(
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

function resolvePath(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
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

function resolveFilename(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
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

/** How many leading folders two paths share. */
function sharedDepth(a: string, b: string): number {
  const x = a.split('/');
  const y = dirOf(b).split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] && x[n] === y[n]) n++;
  return n;
}

/** This repository's program a command line runs (commands.ts), found from the document as a path would be. */
function programFiles(ws: Workspace, command: string, source: string | null): string[] {
  return cliFiles(ws, command, command.includes('/') ? candidatesFor(ws, command, source, 'path', null) : []);
}

/**
 * A name written in a code span of a document that nothing defines and no file or folder is named:
 * the few files beside the document that use it (mention.ts), each watched on its lines using it.
 */
function resolveMention(ws: Workspace, ref: RawReference, source: string | null, near: Neighbours): Resolution[] {
  const name = ref.symbol!;
  if (ref.form !== 'symbol' || ref.inBlock || ref.deliberate || !source) return [];
  if (ws.withBasename(name).length || ws.dirsNamed(name).length) return [];
  return mentionSites(near, name, source).map((path) => ({
    ok: true as const,
    form: ref.form,
    target: { path, kind: 'mention' as const, symbol: name },
  }));
}

function resolveSymbol(
  ws: Workspace,
  ref: RawReference,
  source: string | null = null,
  near = new Neighbours(ws),
): Resolution[] {
  const name = ref.symbol!;
  if (ref.form === 'symbol' && !name.includes('.')) {
    const dirs = ws.dirsNamed(name);
    if (dirs.length === 1)
      return [{ ok: true, form: 'directory', target: { path: dirs[0], kind: 'dir', symbol: null } }];
  }
  // A template reading a Helm value does not define it: the reads are watched beside the definitions (below).
  const found = ws.sitesOf(name);
  const reads = found.filter((s) => s.defs.every((d) => d.kind === 'value'));
  let sites = found.filter((s) => !reads.includes(s));
  const pod = POD_ORDINAL.exec(name);
  if (!sites.length && pod)
    sites = ws.sitesOf(pod[1]).filter((s) => s.defs.some((d) => d.kind === 'resource' && d.workload === 'StatefulSet'));
  if (!sites.length) {
    if (ref.deliberate)
      return [{ ok: false, form: ref.form, detail: `${name} is not defined anywhere in the workspace` }];
    const undeclared = undeclaredVariable(ws, ref);
    if (undeclared) return [undeclared];
    if (!found.length) {
      const mentions = resolveMention(ws, ref, source, near);
      if (mentions.length) return mentions;
    }
    return [];
  }
  // A chart's README naming a value means that chart's value, not a namesake elsewhere: when some
  // definitions share folders with the document, only the closest are watched.
  if (source && sites.length > 1) {
    const depth = sites.map((s) => sharedDepth(dirOf(source), s.path));
    const best = Math.max(...depth);
    if (best > 0) sites = sites.filter((_, i) => depth[i] === best);
  }
  // A value several charts define, in a document outside them: the chart the document names.
  if (source && sites.length > 1) {
    const chart = namedChart(
      ws,
      sites.map((s) => s.path),
      ws.text(source) ?? '',
    );
    if (chart) sites = sites.filter((s) => chartOf(ws, s.path) === chart);
  }
  if (sites.length > MAX_SYMBOL_SITES) {
    return ref.deliberate
      ? [
          {
            ok: false,
            form: ref.form,
            state: 'ambiguous',
            detail: `ambiguous: ${name} is defined in ${sites.length} files`,
          },
        ]
      : [];
  }
  return [...sites, ...onlyReaders(ws, sites, reads)].map((s) => ({
    ok: true as const,
    form: ref.form,
    target: { path: s.path, kind: 'symbol' as const, symbol: name },
  }));
}

const terraformCache = new WeakMap<Workspace, boolean>();

/**
 * `var.region` written in a code span of prose, in a repository of Terraform, that no `variable
 * "region"` block declares: the doc names an input the configuration no longer has. (In a code block it
 * is as often the reader's own configuration calling the module, so only spans count.)
 */
function undeclaredVariable(ws: Workspace, ref: RawReference): Resolution | null {
  const m = /^var\.([A-Za-z_][\w-]*)$/.exec(ref.symbol!);
  if (!m || ref.inBlock || ref.form !== 'symbol') return null;
  let terraform = terraformCache.get(ws);
  if (terraform === undefined) terraformCache.set(ws, (terraform = ws.allFiles().some((p) => p.endsWith('.tf'))));
  if (!terraform) return null;
  return {
    ok: false,
    form: ref.form,
    detail: `${ref.symbol} is declared by no variable "${m[1]}" block in the workspace`,
  };
}

/**
 * The template that is the only one of its chart to read a value the chart defines: what makes the
 * documented value do anything, so deleting it is drift although the key stays (helmValues.ts).
 */
function onlyReaders(ws: Workspace, sites: readonly Site[], reads: readonly Site[]): Site[] {
  if (!reads.length) return [];
  const charts = new Set(sites.filter((s) => isValuesFile(s.path)).map((s) => chartOf(ws, s.path)));
  charts.delete(null);
  const out: Site[] = [];
  for (const chart of charts) {
    const readers = reads.filter((r) => chartOf(ws, r.path) === chart);
    if (readers.length === 1) out.push(readers[0]);
  }
  return out;
}

/**
 * An Ansible role: a `roles/<name>/` folder (the one closest to the document when several are), run
 * from its tasks/main.yml — what the role is, and what a rename of the role moves.
 */
function resolveRole(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const name = ref.symbol!;
  const entry = (dir: string) =>
    ['tasks/main.yml', 'tasks/main.yaml'].map((f) => `${dir}/${f}`).find((p) => ws.isFile(p));
  let roles = ws.dirsNamed(name).filter((d) => basename(dirOf(d)) === 'roles' && entry(d));
  if (source && roles.length > 1) {
    const depth = roles.map((d) => sharedDepth(dirOf(source), `${d}/x`));
    roles = roles.filter((_, i) => depth[i] === Math.max(...depth));
  }
  if (roles.length > 1)
    return [
      {
        ok: false,
        form: 'role',
        state: 'ambiguous',
        detail: `ambiguous: ${roles.length} roles are named ${name} (${roles.slice(0, 5).join(', ')})`,
      },
    ];
  return roles.length ? fileResolution(ws, entry(roles[0])!, undefined, 'role') : [];
}

const GITHUB =
  /^https?:\/\/(?:www\.)?github\.com\/([^/]+)\/([^/]+)\/(?:blob|tree)\/([^/]+)\/([^#?]+)(?:\?[^#]*)?(?:#(.*))?$/i;
const RAW = /^https?:\/\/raw\.githubusercontent\.com\/([^/]+)\/([^/]+)\/([^/]+)\/([^#?]+)/i;
/** A commit id: a URL pinned to one names the file as it was then, not the tree now. */
const COMMIT = /^[0-9a-f]{7,40}$/i;

function resolveUrl(
  ws: Workspace,
  ref: RawReference,
  repositories: readonly string[],
  source: string | null,
): Resolution[] {
  const m = GITHUB.exec(ref.raw) ?? RAW.exec(ref.raw);
  if (!m) return resolveSiteUrl(ws, ref, repositories);
  const repo = `${m[1]}/${m[2].replace(/\.git$/, '')}`.toLowerCase();
  const ours = repositories.some((r) => r.toLowerCase() === repo);
  // A link to another project's README or LICENSE is about that project, not the file of the same name here.
  if (!ours && repositories.length) return [];
  if (COMMIT.test(m[3])) return [];
  let path = m[4];
  try {
    path = decodeURIComponent(path);
  } catch {
    // kept as written
  }
  const segments = path.replace(/\/+$/, '').split('/');
  // The path under `root` the URL names: a branch name may hold slashes (`blob/release/1.2/docs/x.md`),
  // so it is the longest tail that exists — and only segments that are no folder there can be part of
  // the branch (`examples/fargate/main.tf` is not `main.tf`).
  const locate = (root: string): string | null => {
    const at = (p: string) => (root ? `${root}/${p}` : p);
    const exists = (p: string) => ws.isFile(at(p)) || ws.isDir(at(p));
    if (exists(segments.join('/'))) return segments.join('/');
    const tails = [1, 2, 3].filter(
      (skip) => !segments.slice(0, skip).some((_, i) => ws.isDir(at(segments.slice(0, i + 1).join('/')))),
    );
    return tails.map((skip) => segments.slice(skip).join('/')).find((t) => t && exists(t)) ?? null;
  };
  // Without a known remote, the document's own project may be the repository the URL names — a folder
  // with its licence named like that repository (`istio/` for istio/istio, in a workspace of several):
  // its path is looked for there first, then from the root.
  const own = ours ? '' : projectRoot(ws, source);
  const project = own && basename(own).toLowerCase() === m[2].replace(/\.git$/, '').toLowerCase() ? own : '';
  const inProject = project ? locate(project) : null;
  const found = inProject ?? locate('');
  // `tree/release/v1`: a branch whose name holds a slash, with no path after it.
  if (!found && segments.length === 1 && /\/tree\//.test(ref.raw)) return [];
  const inBase = inProject ? `${project}/${inProject}` : (found ?? path);
  const resolved = resolvePath(
    ws,
    { ...ref, form: 'url', path: inBase, fragment: m[5], deliberate: ours, inBlock: false },
    null,
  );
  // Without a known remote, a URL counts when its path exists here; one that does not is no reference of ours.
  // Without a known remote, a URL counts only where it resolves here: a heading another copy of the file has is no
  // finding.
  return ours ? resolved : resolved.filter((r) => r.ok && targetHash(ws, r.target) !== null);
}

/**
 * A URL of one of this repository's published docs sites (siteUrls.ts): the source file the page is
 * built from, and its heading. A page no source of is broken unless the site may generate it.
 */
function resolveSiteUrl(ws: Workspace, ref: RawReference, repositories: readonly string[]): Resolution[] {
  const page = sitePage(ws, ref.raw, repositories);
  if (!page) return [];
  const found = page.candidates.find((p) => ws.isFile(p));
  if (found) return fileResolution(ws, found, page.fragment, 'site');
  if (siteServesUnseen(ws, page)) return [];
  const { site } = page.address;
  return [
    {
      ok: false,
      form: 'site',
      detail:
        `${ref.raw} is a page of this repository's ${site.generator} site, ` +
        `and no source of it is in ${site.root || 'the repository root'}/`,
    },
  ];
}

/**
 * A path with placeholders (patterns.ts), from the document's folder, its project or the root: watched
 * as a pattern where files match it; matching none when first seen, it names no file of ours.
 */
function resolvePattern(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const path = ref.path!.replace(/^\.\//, '');
  const bases = [dirOf(source), projectRoot(ws, source), ''];
  for (const base of [...new Set(bases)]) {
    const pattern = joinPath(base, path);
    if (pattern !== null && patternFiles(ws, pattern).length)
      return [{ ok: true, form: ref.form, target: { path: pattern, kind: 'pattern', symbol: null } }];
  }
  return [];
}

/** `near`: the listing by folder a scan or a check shares between its documents (mention.ts). */
export function resolveReference(
  ws: Workspace,
  ref: RawReference,
  source: string | null,
  repositories: readonly string[] = [],
  near = new Neighbours(ws),
): Resolution[] {
  if (ref.form === 'url') {
    const resolved = resolveUrl(ws, ref, repositories, source);
    return ref.loose ? resolved.filter((r) => r.ok) : resolved;
  }
  // An in-page anchor names a heading of the document it is written in.
  if (ref.form === 'heading' && ref.path === undefined)
    return source && ref.fragment ? fileResolution(ws, source, ref.fragment, 'heading') : [];
  if (ref.form === 'role') return resolveRole(ws, ref, source);
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
  if (ref.symbol) return resolveSymbol(ws, ref, source, near);
  return [];
}

/**
 * A flag is a reference of the program its line runs, when that program is one of this repository's
 * and declares flags drift can see: it is watched where that program declares it. Declared elsewhere
 * only (a shared package), it is not tied to anything; declared nowhere, it is broken — unless the
 * argument parser adds it itself (`--help`). A generic flag (`--dry-run`, `-v`) after another program,
 * or on its own, is never tied to a script of ours that happens to declare it.
 */
function resolveFlag(ws: Workspace, ref: RawReference, source: string | null): Resolution[] {
  const name = ref.symbol!;
  if (!ref.command) return [];
  const program = programFiles(ws, ref.command, source);
  if (!program.length) return [];
  const sites = ws.sitesOf(name).filter((s) => program.includes(s.path));
  if (sites.length)
    return sites.map((s) => ({
      ok: true as const,
      form: 'flag',
      target: { path: s.path, kind: 'symbol' as const, symbol: name },
    }));
  if (isAutomaticFlag(name) || ws.sitesOf(name).length) return [];
  const shown = program.slice(0, 3).join(', ') + (program.length > 3 ? ', …' : '');
  const detail = `${name} is not defined anywhere in the workspace: not by ${ref.command} (${shown}), nor elsewhere`;
  return [{ ok: false, form: 'flag', detail }];
}
