// Heading ids as the generator that publishes a page makes them, one rule per engine, chosen per
// page from the site that holds it (site.ts): GitHub (and Docusaurus, which uses the same slugger),
// kramdown (Jekyll, Middleman without tech-docs), Goldmark as Hugo configures it, Python-Markdown's
// toc extension (MkDocs) with its `slugify` setting, and Redcarpet as tech-docs numbers it
// (target.ts TechDocsIds). Each rule was checked against the engine's own implementation:
//   - GitHub / github-slugger: lower case; every character that is not a letter, mark, decimal or
//     letter number, connector punctuation, `-` or a space is removed; each space becomes `-`;
//     a repeat takes `-1`, `-2`.
//   - kramdown `basic_generate_id` over the header's source text: leading characters up to the first
//     ASCII letter dropped, then only `a-zA-Z0-9`, space and `-` kept, spaces to `-`, lower case;
//     empty is `section`; a repeat takes `-1`, `-2`.
//   - Hugo's Goldmark ids (`autoHeadingIDType`, default `github`): trimmed; `-` and space give `-`;
//     letters, digits and `_` lower-cased; everything else dropped (`github-ascii` also drops
//     non-ASCII after removing accents); empty is `heading`; a repeat takes `-1`, `-2`.
//   - Python-Markdown toc `slugify`: NFKD, non-ASCII dropped (not with `slugify_unicode` or
//     pymdownx's `uslugify`), `[^\w\s-]` removed, trimmed, lower case, runs of `-` and spaces one
//     `-`; a repeat (or an empty id) takes `_1`, `_2`.
// Explicit ids (`{#id}`, `{: #id}`) are read by target.ts for every engine that honours them.

import { siteOf } from './site';
import type { Workspace } from './workspace';

export type SlugEngine = 'github' | 'kramdown' | 'goldmark' | 'python-markdown' | 'redcarpet';

export interface SlugRule {
  engine: SlugEngine;
  /** Python-Markdown's slugify_unicode / uslugify: non-ASCII letters kept. */
  unicode?: boolean;
  /** Hugo's `github-ascii`: accents removed, other non-ASCII dropped. */
  ascii?: boolean;
}

/** One heading's id per page, in order: what a repeat is numbered against. */
export interface Slugger {
  /** `source`: the heading as written (kramdown slugs that); `rendered`: as the page shows it. */
  next(source: string, rendered: string): string;
}

function githubBase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function kramdownBase(text: string): string {
  const id = text
    .replace(/^[^a-zA-Z]+/, '')
    .replace(/[^a-zA-Z0-9 -]/g, '')
    .replace(/ /g, '-')
    .toLowerCase();
  return id || 'section';
}

function goldmarkBase(text: string, ascii: boolean): string {
  let out = '';
  const source = ascii ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text;
  for (const ch of source.trim()) {
    if (ascii && ch.charCodeAt(0) > 0x7f) continue;
    if (ch === '-' || ch === ' ') out += '-';
    else if (ch === '_' || /[\p{L}\p{Nd}]/u.test(ch)) out += ch.toLowerCase();
  }
  return out || 'heading';
}

function pythonMarkdownBase(text: string, unicode: boolean): string {
  // eslint-disable-next-line no-control-regex
  const value = unicode ? text : text.normalize('NFKD').replace(/[^\x00-\x7f]/g, '');
  return value
    .replace(unicode ? /[^\p{L}\p{N}_\s-]/gu : /[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '-');
}

/** A per-page id generator for one engine (not Redcarpet: target.ts numbers tech-docs ids). */
export function newSlugger(rule: SlugRule): Slugger {
  const used = new Map<string, number>();
  const dashed = (base: string) => {
    // github-slugger, kramdown and Goldmark: the first is bare, then `-1`, `-2`, skipping ids taken.
    let id = base;
    if (used.has(base)) {
      let n = used.get(base)!;
      do id = `${base}-${++n}`;
      while (used.has(id));
      used.set(base, n);
    }
    used.set(id, used.get(id) ?? 0);
    return id;
  };
  if (rule.engine === 'python-markdown')
    return {
      next: (_source, rendered) => {
        // Python-Markdown's `unique`: `x`, then `x_1`, `x_2`; an empty id is `_1`.
        let id = pythonMarkdownBase(rendered, !!rule.unicode);
        while (used.has(id) || !id) {
          const m = /^(.*)_([0-9]+)$/.exec(id);
          id = m ? `${m[1]}_${Number(m[2]) + 1}` : `${id}_1`;
        }
        used.set(id, 0);
        return id;
      },
    };
  if (rule.engine === 'kramdown') return { next: (source) => dashed(kramdownBase(source)) };
  if (rule.engine === 'goldmark') return { next: (_s, rendered) => dashed(goldmarkBase(rendered, !!rule.ascii)) };
  return { next: (_s, rendered) => dashed(githubBase(rendered.trim())) };
}

/** The configuration value a site's config sets for a key, as written (YAML, TOML or JSON). */
function configValue(text: string, key: string): string | null {
  const m = new RegExp(`["']?${key}["']?\\s*[:=]\\s*(?:!!python/name:)?["']?([\\w.:/-]+)`, 'i').exec(text);
  return m ? m[1] : null;
}

/** The id rule of the page at `path`: the engine of the site that publishes it, else GitHub's. */
export function slugRuleOf(ws: Workspace, path: string): SlugRule {
  const site = siteOf(ws, path);
  if (!site) return { engine: 'github' };
  const config = site.config ? (ws.text(site.config) ?? '') : '';
  switch (site.generator) {
    case 'tech-docs':
      return { engine: 'redcarpet' };
    case 'jekyll':
      return { engine: 'kramdown' };
    case 'hugo': {
      const type = configValue(config, 'autoHeadingIDType');
      return { engine: 'goldmark', ascii: type === 'github-ascii' };
    }
    case 'mkdocs': {
      const slugify = configValue(config, 'slugify') ?? '';
      return { engine: 'python-markdown', unicode: /slugify_unicode|uslugify/.test(slugify) };
    }
    default:
      // Docusaurus slugs with github-slugger; mdBook's ids differ from GitHub's only in what it keeps of
      // punctuation, which the letters-and-digits comparison (target.ts anchorKey) already forgives.
      return { engine: 'github' };
  }
}
