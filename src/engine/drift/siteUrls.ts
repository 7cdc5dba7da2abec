// URLs of the repository's own published docs site, mapped back to the source file they are built
// from. Where the site lives is read from its generator's configuration: MkDocs `site_url`, Hugo
// `baseURL`, Docusaurus `url` + `baseUrl`, tech-docs `host`, Jekyll `url` + `baseurl`, and a docsify
// site (an `index.html` that sets `window.$docsify`) at its CNAME or the repository's GitHub Pages
// address. `https://<site>/<base>/guide/setup/#install` names `<site root>/guide/setup.md` (or its
// index page) and its `install` heading; a version segment first (`/tip/`, `/latest/`, `/v1.2/`) is
// the same page, as is a page path written with its source extension (`setup.md/`). A static asset
// (`/img/x.png`) is found in the site root or its `static/` folder.

import { pageSources, siteMayServe, docSites, type DocSite } from './site';
import { dirName } from '../text/paths';
import { basename, type Workspace } from './workspace';

export interface SiteAddress {
  site: DocSite;
  /** Lower-case host, without `www.`. */
  host: string;
  /** The path the site is served under, without slashes at either end ('' at the host's root). */
  base: string;
}

/** The page a site URL names: the source files it may be built from, most likely first, and its anchor. */
export interface SitePage {
  address: SiteAddress;
  candidates: string[];
  fragment?: string;
}

function parseAddress(url: string): { host: string; path: string } | null {
  const m = /^https?:\/\/(?:www\.)?([^/?#:]+)(?::\d+)?(\/[^?#]*)?/i.exec(url.trim());
  return m ? { host: m[1].toLowerCase(), path: (m[2] ?? '').replace(/^\/+|\/+$/g, '') } : null;
}

/** The first value a configuration sets for `key` (YAML `key: v`, TOML `key = "v"`, JS `key: 'v'`). */
function setting(text: string, key: string): string | null {
  const m = new RegExp(`^[ \\t]*["']?${key}["']?[ \\t]*[:=][ \\t]*["'\`]?([^"'\`\\s,#]+)`, 'mi').exec(text);
  return m ? m[1] : null;
}

function addressOf(site: DocSite, url: string | null, base: string | null): SiteAddress | null {
  const parsed = url ? parseAddress(url) : null;
  if (!parsed) return null;
  const path = [parsed.path, (base ?? '').replace(/^\/+|\/+$/g, '')].filter(Boolean).join('/');
  return { site, host: parsed.host, base: path };
}

/** A docsify site: the folders whose `index.html` starts docsify, served at their CNAME or GitHub Pages. */
function docsifyAddresses(ws: Workspace, repositories: readonly string[]): SiteAddress[] {
  const out: SiteAddress[] = [];
  for (const path of ws.withBasename('index.html')) {
    if (!/window\.\$docsify\b/.test(ws.text(path) ?? '')) continue;
    const root = dirName(path);
    const site: DocSite = { generator: 'docsify', root, config: path };
    const cname = ws.text(root ? `${root}/CNAME` : 'CNAME')?.trim();
    if (cname) out.push({ site, host: cname.toLowerCase().replace(/^www\./, ''), base: '' });
    for (const repo of repositories) {
      const [owner, name] = repo.split('/');
      if (owner && name) out.push({ site, host: `${owner.toLowerCase()}.github.io`, base: name });
    }
  }
  return out;
}

/** Every address the workspace's sites declare they are published at. */
export function siteAddresses(ws: Workspace, repositories: readonly string[] = []): SiteAddress[] {
  const out: SiteAddress[] = [];
  for (const site of docSites(ws)) {
    const config = site.config ? (ws.text(site.config) ?? '') : '';
    const found =
      site.generator === 'mkdocs'
        ? addressOf(site, setting(config, 'site_url'), null)
        : site.generator === 'hugo'
          ? addressOf(site, setting(config, 'baseURL'), null)
          : site.generator === 'docusaurus'
            ? addressOf(site, setting(config, 'url'), setting(config, 'baseUrl'))
            : site.generator === 'tech-docs'
              ? addressOf(site, setting(config, 'host'), null)
              : site.generator === 'jekyll'
                ? addressOf(site, setting(config, 'url'), setting(config, 'baseurl'))
                : null;
    if (found) out.push(found);
  }
  out.push(...docsifyAddresses(ws, repositories));
  return out;
}

/** A first segment that names a version of the docs rather than a page. */
const VERSION = /^(tip|latest|main|master|stable|next|dev|current|v?\d+(\.\d+)*(\.x)?)$/i;

function within(root: string, path: string): string {
  return [root, path].filter(Boolean).join('/');
}

/** The source files a page path of a site may be built from. */
function sourcesOf(address: SiteAddress, page: string): string[] {
  const { site } = address;
  const roots = [site.root];
  // Hugo and Docusaurus serve `static/` at the site root; Hugo sites often build content/ from docs/.
  if (site.generator === 'hugo' || site.generator === 'docusaurus') {
    const project = dirName(site.root);
    roots.push(within(project, 'static'));
    if (site.generator === 'hugo') roots.push(within(project, 'docs'), 'docs');
  }
  const out: string[] = [];
  for (const root of roots) {
    const at = within(root, page);
    if (/\.(md|mdx|markdown)$/i.test(page) || /\.[A-Za-z0-9]{1,5}$/.test(basename(page))) out.push(at);
    if (!/\.(png|jpe?g|gif|svg|webp|ico|pdf|css|js|json|xml|txt|zip)$/i.test(page))
      out.push(...pageSources(at.replace(/\.html?$/i, '')));
  }
  return [...new Set(out)];
}

/** The page of one of this repository's sites a URL names, or null when the URL is not one of them. */
export function sitePage(ws: Workspace, url: string, repositories: readonly string[] = []): SitePage | null {
  const parsed = parseAddress(url);
  if (!parsed) return null;
  const hash = url.indexOf('#');
  const fragment = hash >= 0 ? url.slice(hash + 1) || undefined : undefined;
  // A repository may hold several sites at one address (test fixtures' configs): the one that has the page, else the
  // shallowest (the repository's own site).
  const addresses = siteAddresses(ws, repositories).sort((a, b) => a.site.root.length - b.site.root.length);
  let first: SitePage | null = null;
  for (const address of addresses) {
    if (address.host !== parsed.host) continue;
    if (address.base && parsed.path !== address.base && !parsed.path.startsWith(`${address.base}/`)) continue;
    let path = address.base ? parsed.path.slice(address.base.length).replace(/^\/+/, '') : parsed.path;
    let anchor = fragment;
    // docsify routes in the fragment: `#/guide/setup` is guide/setup.md (`?id=x` its heading).
    if (address.site.generator === 'docsify' && anchor?.startsWith('/')) {
      const [route, query] = anchor.slice(1).split('?');
      path = route;
      anchor = /(?:^|&)id=([^&]+)/.exec(query ?? '')?.[1];
    }
    try {
      path = decodeURIComponent(path);
    } catch {
      // kept as written
    }
    path = path.replace(/\/+$/, '');
    const candidates = sourcesOf(address, path);
    const segment = path.split('/')[0];
    if (VERSION.test(segment) && path.includes('/'))
      candidates.push(...sourcesOf(address, path.slice(segment.length + 1)));
    const page: SitePage = { address, candidates: [...new Set(candidates)], fragment: anchor };
    if (page.candidates.some((p) => ws.isFile(p))) return page;
    first ??= page;
  }
  return first;
}

/** Whether the site may serve the page although no source of it is found (a generated page). */
export function siteServesUnseen(ws: Workspace, page: SitePage): boolean {
  if (page.address.site.generator === 'docsify') return false;
  return siteMayServe(ws, page.address.site, page.candidates);
}
