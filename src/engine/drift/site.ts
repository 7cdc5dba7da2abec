// The docs sites a repository builds, detected from the generator's own configuration: tech-docs
// (Middleman, `config/tech-docs.yml`), MkDocs (`mkdocs.yml` and its docs_dir), Jekyll
// (`_config.yml`), Hugo (`hugo.*`/`config.*` beside `content/`), Docusaurus
// (`docusaurus.config.*`) and mdBook (`book.toml`). A link in a page resolves the way that site
// resolves it: `/x` from the site root, a published `.html` or extension-less page to its source
// file, a folder to its index page. A link to a page the site generates (a tech-docs proxy or
// redirect, the gem's search page) is no finding; so is any unresolved page link of a site whose
// generated pages cannot be read from its configuration (code-built proxies, taxonomies, routes).

import { dirName } from '../text/paths';
import { basename, type Workspace } from './workspace';

export interface DocSite {
  generator: 'tech-docs' | 'mkdocs' | 'jekyll' | 'hugo' | 'docusaurus' | 'mdbook' | 'docsify';
  /** Workspace-relative folder the site's URLs start at ('' for the repository root). */
  root: string;
  /** The configuration file the site was detected from. */
  config?: string;
}

/** Source files a published page path (without `.html` or trailing slash) may come from, most specific first. */
export function pageSources(page: string): string[] {
  const base = page.replace(/\/+$/, '');
  const files = ['.html.md', '.html.md.erb', '.html.erb', '.md', '.md.erb', '.mdx', '.markdown', '.rst'].map(
    (ext) => `${base}${ext}`,
  );
  const index = [
    'index.html.md',
    'index.html.md.erb',
    'index.md',
    '_index.md',
    'README.md',
    'readme.md',
    'index.mdx',
  ].map((name) => `${base ? `${base}/` : ''}${name}`);
  return [...files, ...index];
}

const cache = new WeakMap<Workspace, DocSite[]>();

function join(dir: string, name: string): string {
  return [dir, name].filter(Boolean).join('/').replace(/\/+$/, '');
}

/** A file whose change can change what a site is or which pages it makes (its config, the project's Ruby). */
const SITE_INPUT = /(^|\/)(mkdocs\.ya?ml|tech-docs\.yml|config\.rb|_config\.ya?ml|[^/]+\.rb)$/;

/** After these paths changed: the sites and the pages they make are worked out again when next asked. */
export function forgetSites(ws: Workspace, paths: readonly string[]): void {
  if (!paths.some((p) => SITE_INPUT.test(p))) return;
  cache.delete(ws);
  generatedCache.delete(ws);
}

/** Every site the workspace's configuration files declare, deepest root first. */
export function docSites(ws: Workspace): DocSite[] {
  let sites = cache.get(ws);
  if (sites) return sites;
  sites = [];
  for (const path of ws.allFiles()) {
    const name = basename(path);
    const dir = dirName(path);
    if (path === 'config/tech-docs.yml' || path.endsWith('/config/tech-docs.yml'))
      sites.push({ generator: 'tech-docs', root: join(dirName(dir), 'source'), config: path });
    else if (/^mkdocs\.ya?ml$/.test(name)) {
      const docsDir = /^docs_dir:\s*['"]?([^'"\s#]+)/m.exec(ws.text(path) ?? '')?.[1] ?? 'docs';
      sites.push({ generator: 'mkdocs', root: join(dir, docsDir), config: path });
    } else if (name === '_config.yml' && !/(^|\/)\.github\//.test(path))
      sites.push({ generator: 'jekyll', root: dir, config: path });
    else if (/^(hugo|config)\.(toml|ya?ml|json)$/.test(name) && ws.isDir(join(dir, 'content')))
      sites.push({ generator: 'hugo', root: join(dir, 'content'), config: path });
    else if (/^docusaurus\.config\.(js|ts|mjs|cjs)$/.test(name))
      sites.push({ generator: 'docusaurus', root: join(dir, 'docs'), config: path });
    else if (name === 'book.toml') {
      const src = /^src\s*=\s*['"]([^'"]+)/m.exec(ws.text(path) ?? '')?.[1] ?? 'src';
      sites.push({ generator: 'mdbook', root: join(dir, src), config: path });
    }
  }
  sites.sort((a, b) => b.root.length - a.root.length);
  cache.set(ws, sites);
  return sites;
}

/**
 * The site a document is a page of: the deepest site whose root holds it (a repository-wide Jekyll site holds
 * everything).
 */
export function siteOf(ws: Workspace, source: string | null): DocSite | null {
  if (!source) return null;
  return docSites(ws).find((s) => s.root === '' || source.startsWith(`${s.root}/`)) ?? null;
}

/** The published page path of a source file: `source/manual/x.html.md` → `manual/x`, relative to the site root. */
export function pagePath(site: DocSite, source: string): string {
  const inside = site.root ? source.slice(site.root.length + 1) : source;
  return inside
    .replace(/(\.html)?\.(md|mdx|markdown|rst|erb)(\.erb)?$/, '')
    .replace(/(^|\/)(index|_index|README)$/i, '');
}

/** What a site serves beyond its sources: exact pages and folders of pages (site-relative, no `.html`). */
interface Generated {
  pages: Set<string>;
  prefixes: string[];
}

const generatedCache = new WeakMap<Workspace, Map<string, Generated | null>>();

/** A published path as generated pages are compared: no leading slash, `.html`, `index` or trailing slash. */
function pageKey(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.html?$/, '')
    .replace(/(^|\/)index$/, '');
}

/**
 * tech-docs (Middleman): the pages `proxy "/path…"` calls in the project's Ruby make (a path built with
 * `#{…}` is a folder of pages up to it), the `redirects:` of config/tech-docs.yml and the gem's own
 * pages. Null when a proxy's path is not a string the source shows, or Ruby rewrites the resource list.
 */
function techDocsGenerated(ws: Workspace, site: DocSite): Generated | null {
  const project = dirName(site.root);
  const out: Generated = { pages: new Set(['search', 'sitemap.xml', 'api/pages.json']), prefixes: [] };
  const inProject = (p: string) => (project ? p.startsWith(`${project}/`) : true);
  for (const path of ws.allFiles()) {
    if (!path.endsWith('.rb') || !inProject(path) || path.startsWith(`${site.root}/`)) continue;
    const text = ws.text(path) ?? '';
    if (/\bmanipulate_resource_list\b/.test(text)) return null;
    for (const call of text.matchAll(/(?<![\w.:])proxy(?!\w)\s*\(?\s*(?:(["'])([^\n]*?)\1)?/g)) {
      if (!call[1]) return null;
      const cut = call[1] === '"' ? call[2].indexOf('#{') : -1;
      if (cut >= 0) out.prefixes.push(call[2].slice(0, cut).replace(/^\/+/, ''));
      else out.pages.add(pageKey(call[2]));
    }
  }
  const config = ws.text(join(project, 'config/tech-docs.yml')) ?? '';
  const redirects = /^redirects:[ \t]*\r?\n((?:[ \t]+.*\r?\n?)*)/m.exec(config)?.[1] ?? '';
  for (const m of redirects.matchAll(/^[ \t]+["']?([^"':\s]+)["']?\s*:/gm)) out.pages.add(pageKey(m[1]));
  return out;
}

/** MkDocs plugins that arrange, include or link content without adding pages of their own. */
const MKDOCS_PAGELESS_PLUGINS = new Set([
  'search',
  'autorefs',
  'literate-nav',
  'awesome-pages',
  'include-markdown',
  'mkdocstrings',
  'macros',
  'minify',
  'git-revision-date-localized',
  'git-revision-date',
  'glightbox',
  'tags',
  'section-index',
  'offline',
  'privacy',
  'social',
  'mermaid2',
  'table-reader',
  'markdownextradata',
]);

/**
 * MkDocs: the theme's 404 page, the search index and sitemap, `extra_templates`/`static_templates` and the
 * redirects plugin's `redirect_maps`. Null with `hooks:` or any plugin not known to add no page (gen-files,
 * blog, i18n, monorepo...): they make pages the configuration does not list.
 */
function mkdocsGenerated(ws: Workspace, site: DocSite): Generated | null {
  const config = site.config ? (ws.text(site.config) ?? '') : '';
  if (/^hooks:/m.test(config)) return null;
  const out: Generated = {
    pages: new Set(['404', 'search/search_index.json', 'sitemap.xml', 'sitemap.xml.gz']),
    prefixes: [],
  };
  const plugins = /^plugins:[ \t]*\r?\n((?:(?:[ \t]+.*|[ \t]*)\r?\n?)*)/m.exec(config)?.[1] ?? '';
  const inline = /^plugins:[ \t]*\[([^\]]*)\]/m.exec(config)?.[1];
  // The plugins are the list items of the least indent: deeper ones are a plugin's options (`lang: [en]`).
  const items = [...plugins.matchAll(/^([ \t]*)-[ \t]+["']?([\w.-]+)/gm)];
  // A loop, not Math.min(...items): a configuration of many list items must not overflow the stack.
  let indent = Infinity;
  for (const m of items) indent = Math.min(indent, m[1].length);
  const names = inline
    ? inline.split(',').map((n) => n.trim().replace(/^["']|["']$/g, ''))
    : items.filter((m) => m[1].length === indent).map((m) => m[2]);
  for (const name of names) if (name !== 'redirects' && !MKDOCS_PAGELESS_PLUGINS.has(name)) return null;
  for (const m of config.matchAll(/^[ \t]+["']?([^"':\s]+\.md)["']?[ \t]*:/gm))
    out.pages.add(pageKey(m[1].replace(/\.md$/, '')));
  const templates = /^(?:extra|static)_templates:[ \t]*\r?\n((?:[ \t]+-.*\r?\n?)*)/gm;
  for (const block of config.matchAll(templates))
    for (const m of block[1].matchAll(/-[ \t]+["']?([^"'\s]+)/g)) out.pages.add(pageKey(m[1]));
  return out;
}

function generatedBy(ws: Workspace, site: DocSite): Generated | null {
  let perSite = generatedCache.get(ws);
  if (!perSite) generatedCache.set(ws, (perSite = new Map()));
  const key = `${site.generator}:${site.root}`;
  if (!perSite.has(key))
    perSite.set(
      key,
      site.generator === 'tech-docs'
        ? techDocsGenerated(ws, site)
        : site.generator === 'mkdocs'
          ? mkdocsGenerated(ws, site)
          : null,
    );
  return perSite.get(key)!;
}

/** Template engines Middleman and Jekyll run a source through: `x.css.scss` is served as `x.css`. */
const TEMPLATE_EXTENSIONS = ['.erb', '.scss', '.sass', '.haml', '.slim', '.builder', '.liquid'];

/**
 * Whether the site may serve one of these workspace paths (what an unresolved link may be) although no
 * source is there: a page it generates, a file a template engine makes, or any path of a site whose
 * generated pages are unknown.
 */
export function siteMayServe(ws: Workspace, site: DocSite, paths: readonly string[]): boolean {
  const generated = generatedBy(ws, site);
  if (!generated) return true;
  for (const path of paths) {
    if (TEMPLATE_EXTENSIONS.some((ext) => ws.isFile(`${path}${ext}`))) return true;
    if (site.root && !path.startsWith(`${site.root}/`) && path !== site.root) continue;
    const page = pageKey(site.root ? path.slice(site.root.length + 1) : path);
    if (generated.pages.has(page) || generated.prefixes.some((p) => page.startsWith(p))) return true;
  }
  return false;
}
