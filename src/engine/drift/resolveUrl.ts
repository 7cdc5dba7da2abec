// URL resolution: a GitHub URL of this repository's own file (`blob/<branch>/<path>`, raw, with
// `#L70` line anchors) becomes its path; a URL of the repository's published docs site (siteUrls.ts)
// becomes the page's source file and heading.

import type { RawReference } from './extract';
import { sitePage, siteServesUnseen } from './siteUrls';
import { targetHash } from './target';
import { fileResolution, projectRoot, resolvePath, type Resolution } from './resolvePath';
import { basename, type Workspace } from './workspace';

const GITHUB =
  /^https?:\/\/(?:www\.)?github\.com\/([^/]+)\/([^/]+)\/(?:blob|tree)\/([^/]+)\/([^#?]+)(?:\?[^#]*)?(?:#(.*))?$/i;
const RAW = /^https?:\/\/raw\.githubusercontent\.com\/([^/]+)\/([^/]+)\/([^/]+)\/([^#?]+)/i;
/** A commit id: a URL pinned to one names the file as it was then, not the tree now. */
const COMMIT = /^[0-9a-f]{7,40}$/i;

/** Whether a URL is a GitHub URL of one of `repositories` (this repository's remotes). */
export function isOwnRepositoryUrl(raw: string, repositories: readonly string[]): boolean {
  const m = GITHUB.exec(raw) ?? RAW.exec(raw);
  if (!m) return false;
  const repo = `${m[1]}/${m[2].replace(/\.git$/, '')}`.toLowerCase();
  return repositories.some((r) => r.toLowerCase() === repo);
}

export function resolveUrl(
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
