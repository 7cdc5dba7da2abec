// A repository's own conventions, as the kind model sees them (issue 23, point 4): for each folder,
// how many files it holds and how many of them are numbered (a folder of NNNN-*.md proposals or
// decisions) or prose, how many subfolders it introduces; and for each page the section titles the
// docs site's navigation puts it under (mkdocs.yml `nav:`, GitBook/mdBook SUMMARY.md, docsify
// _sidebar.md). Built once per index from the path list and the few navigation files, in time
// linear in the paths.

import { dirName as folderOf } from '../text/paths';
import type { FolderConventions, FolderShape } from './kindConventionShapes';
import { tokens } from './kindFeatures';

export type { FolderConventions, FolderShape } from './kindConventionShapes';

const PROSE = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt|erb)$/i;
const NUMBERED = /^(\d{1,5}[-_. ]|[a-z]{2,5}[-_ ]?\d{2,5}([-_. ]|$))/i;

/** Navigation files the conventions read when a repository has them. */
export const NAV_FILES = /(^|\/)(mkdocs\.ya?ml|SUMMARY\.md|_sidebar\.md)$/;

/** Folder shapes from the repository's path list. */
export function folderConventionsOf(
  paths: Iterable<string>,
  navFiles: Array<{ path: string; text: string }> = [],
): FolderConventions {
  const folders = new Map<string, FolderShape>();
  const shape = (folder: string) =>
    folders.get(folder) ??
    folders.set(folder, { files: 0, numbered: 0, prose: 0, subfolders: 0, hasIndexTwin: false }).get(folder)!;
  const seen = new Set<string>();
  const twins = new Map<string, { readme: boolean; index: boolean; other: boolean }>();
  for (const path of paths) {
    const folder = folderOf(path);
    const name = path.slice(folder.length ? folder.length + 1 : 0);
    const here = shape(folder);
    here.files++;
    if (NUMBERED.test(name)) here.numbered++;
    if (PROSE.test(name)) here.prose++;
    const twin = twins.get(folder) ?? twins.set(folder, { readme: false, index: false, other: false }).get(folder)!;
    if (/^readme\.(md|markdown|mdx|rst)$/i.test(name)) twin.readme = true;
    else if (/^index\.(md|markdown|mdx|rst|html\.md)$/i.test(name)) twin.index = true;
    else if (!name.startsWith('.')) twin.other = true;
    // Each folder is counted once as its parent's subfolder; the walk up stops at a folder seen.
    for (let up = folder; up && !seen.has(up); up = folderOf(up)) {
      seen.add(up);
      shape(folderOf(up)).subfolders++;
      const parentTwin = twins.get(folderOf(up));
      if (parentTwin) parentTwin.other = true;
      else twins.set(folderOf(up), { readme: false, index: false, other: true });
    }
  }
  for (const [folder, t] of twins) if (t.readme && t.index && !t.other) shape(folder).hasIndexTwin = true;
  const nav = new Map<string, string[]>();
  for (const file of navFiles) readNav(file.path, file.text.slice(0, 256 * 1024), nav);
  return { folders, nav };
}

/** Records, for each page a navigation file links, the words of the sections above it. */
function readNav(navPath: string, text: string, nav: Map<string, string[]>): void {
  const mkdocs = /\.ya?ml$/i.test(navPath);
  const base = folderOf(navPath);
  // mkdocs pages are relative to docs_dir (docs/ unless set); SUMMARY and _sidebar to their folder.
  const docsDir = mkdocs ? join(base, /^docs_dir:[ \t]*['"]?([^'"\n]+?)['"]?[ \t]*$/m.exec(text)?.[1] ?? 'docs') : base;
  const stack: Array<{ indent: number; words: string[] }> = [];
  let inNav = !mkdocs;
  for (const line of text.split('\n')) {
    if (mkdocs) {
      if (/^nav:/.test(line)) inNav = true;
      else if (/^\S/.test(line)) inNav = false;
      if (!inNav) continue;
    }
    const heading = /^#{1,6}[ \t]+(.{1,120})$/.exec(line);
    if (heading && !mkdocs) {
      stack.length = 0;
      stack.push({ indent: -1, words: tokens(heading[1], 6) });
      continue;
    }
    const item = mkdocs
      ? /^([ \t]*)-[ \t]+(?:['"]?([^:'"\n]{1,120})['"]?:)?[ \t]*['"]?([^'"\n]*?)['"]?[ \t]*$/.exec(line)
      : /^([ \t]*)[-*+][ \t]+(?:\[([^\]\n]{1,120})\]\(([^)\n]*)\)|(.{1,120}))$/.exec(line);
    if (!item) continue;
    const indent = item[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const title = item[2] ?? item[4] ?? '';
    const target = (item[3] ?? '').replace(/#.*$/, '').trim();
    const above = stack.flatMap((s) => s.words).slice(0, 12);
    if (target && /\.(md|mdx|markdown|rst)$/i.test(target) && !/^[a-z]+:/i.test(target))
      nav.set(join(docsDir, target.replace(/^\.?\//, '')), above);
    stack.push({ indent, words: tokens(title, 6) });
  }
}

function join(folder: string, path: string): string {
  const parts = folder ? folder.split('/') : [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}
