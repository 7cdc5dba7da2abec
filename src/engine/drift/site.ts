// The docs sites a repository builds, detected from the generator's own configuration: tech-docs
// (Middleman, `config/tech-docs.yml`), MkDocs (`mkdocs.yml` and its docs_dir), Jekyll
// (`_config.yml`), Hugo (`hugo.*`/`config.*` beside `content/`), Docusaurus
// (`docusaurus.config.*`) and mdBook (`book.toml`). A link in a page resolves the way that site
// resolves it: `/x` from the site root, a published `.html` or extension-less page to its source
// file, a folder to its index page. Links the site generates pages for (proxies, taxonomies,
// routes) cannot be checked from the sources, so an unresolved root link in a site is no finding.

import { basename, type Workspace } from './workspace';

export interface DocSite {
  generator: 'tech-docs' | 'mkdocs' | 'jekyll' | 'hugo' | 'docusaurus' | 'mdbook';
  /** Workspace-relative folder the site's URLs start at ('' for the repository root). */
  root: string;
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

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function join(dir: string, name: string): string {
  return [dir, name].filter(Boolean).join('/').replace(/\/+$/, '');
}

/** Every site the workspace's configuration files declare, deepest root first. */
export function docSites(ws: Workspace): DocSite[] {
  let sites = cache.get(ws);
  if (sites) return sites;
  sites = [];
  for (const path of ws.allFiles()) {
    const name = basename(path);
    const dir = dirOf(path);
    if (path === 'config/tech-docs.yml' || path.endsWith('/config/tech-docs.yml'))
      sites.push({ generator: 'tech-docs', root: join(dirOf(dir), 'source') });
    else if (/^mkdocs\.ya?ml$/.test(name)) {
      const docsDir = /^docs_dir:\s*['"]?([^'"\s#]+)/m.exec(ws.text(path) ?? '')?.[1] ?? 'docs';
      sites.push({ generator: 'mkdocs', root: join(dir, docsDir) });
    } else if (name === '_config.yml' && !/(^|\/)\.github\//.test(path)) sites.push({ generator: 'jekyll', root: dir });
    else if (/^(hugo|config)\.(toml|ya?ml|json)$/.test(name) && ws.isDir(join(dir, 'content')))
      sites.push({ generator: 'hugo', root: join(dir, 'content') });
    else if (/^docusaurus\.config\.(js|ts|mjs|cjs)$/.test(name))
      sites.push({ generator: 'docusaurus', root: join(dir, 'docs') });
    else if (name === 'book.toml') {
      const src = /^src\s*=\s*['"]([^'"]+)/m.exec(ws.text(path) ?? '')?.[1] ?? 'src';
      sites.push({ generator: 'mdbook', root: join(dir, src) });
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
