// An ADR folder's own index (a README.md or index.md listing its ADRs), kept up to date when
// Lore writes a new ADR: the new entry copies the format of the entries already there — a bullet
// list or a table row, its link text, numbering and title — and goes where the list's order puts
// it (after the last entry, or before the first when the newest comes first).

import type { RepoFiles } from './repoFiles';

const INDEX_NAMES = ['README.md', 'index.md', 'readme.md', 'Index.md'];
const NUMBER = /^[A-Za-z]*[-_]?(\d+)/;

export interface IndexEntry {
  /** The index file, workspace-relative. */
  path: string;
  /** The index's text with the new entry added. */
  content: string;
  /** The line added. */
  line: string;
}

interface Entry {
  at: number;
  file: string;
  number: number | null;
}

/** The lines of `text` that link to an ADR file of the folder (`0001-x.md`, `./0001-x.md`). */
function entries(text: string, files: ReadonlySet<string>): Entry[] {
  const out: Entry[] = [];
  text.split('\n').forEach((line, at) => {
    if (!/^\s*([-*+]|\d+[.)]|\|)\s*/.test(line)) return;
    const link = /\]\(\s*<?(?:\.\/)?([^)\s>#]+\.md)>?(?:#[^)]*)?\s*\)/i.exec(line);
    if (!link || !files.has(decodeURIComponent(link[1]))) return;
    const number = NUMBER.exec(link[1]);
    out.push({ at, file: decodeURIComponent(link[1]), number: number ? Number(number[1]) : null });
  });
  return out;
}

/** An ADR file's title as its first heading says it, without a leading number ("# 2. Deploy with Helm"). */
export function adrTitle(text: string | null): string | null {
  const heading = text ? /^#\s+(.+?)\s*#*\s*$/m.exec(text)?.[1] : undefined;
  if (!heading) return null;
  return heading.replace(/^(?:[A-Za-z]+[-_ ]?)?\d+\s*[.:\u2013-]?\s+/, '').trim() || heading;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The folder's index with an entry for the new ADR `file` (a name in `dir`) numbered `number`
 * and titled `title`, or null when the folder keeps no index listing its ADRs.
 */
export function indexWithEntry(
  repo: RepoFiles,
  dir: string,
  file: string,
  number: number | null,
  title: string,
): IndexEntry | null {
  const names = repo.list(dir) ?? [];
  const adrs = new Set(names.filter((n) => /\.md$/i.test(n) && !INDEX_NAMES.includes(n)));
  for (const name of INDEX_NAMES.filter((n) => names.includes(n))) {
    const path = dir ? `${dir}/${name}` : name;
    const text = repo.read(path);
    if (text === null) continue;
    const found = entries(text, adrs);
    if (!found.length) continue;
    const numbered = found.filter((e) => e.number !== null);
    const descending = numbered.length > 1 && numbered[0].number! > numbered[numbered.length - 1].number!;
    const model = descending ? found[0] : found[found.length - 1];
    const line = entryLike(text.split('\n')[model.at], model, repo.read(`${dir}/${model.file}`), file, number, title);
    const lines = text.split('\n');
    lines.splice(descending ? model.at : model.at + 1, 0, line);
    return { path, content: lines.join('\n'), line };
  }
  return null;
}

/**
 * `line` (an entry for `model`) rewritten for the new ADR: the file and title are set aside first,
 * so only the entry's own numbering is renumbered (padded "0002" and bare "2" alike).
 */
function entryLike(
  line: string,
  model: Entry,
  modelText: string | null,
  file: string,
  number: number | null,
  title: string,
): string {
  const FILE = '\u0000F\u0000';
  const TITLE = '\u0000T\u0000';
  let out = line.split(model.file).join(FILE);
  const oldTitle = adrTitle(modelText);
  if (oldTitle && out.includes(oldTitle)) out = out.split(oldTitle).join(TITLE);
  else out = out.replace(/\[[^\]]*\]\(/, (m) => (/\d/.test(m) ? m : `[${TITLE}](`));
  if (model.number !== null && number !== null) {
    const digits = NUMBER.exec(model.file)![1];
    const padded = String(number).padStart(digits.length, '0');
    out = out
      .replace(new RegExp(`(?<!\\d)${escapeRegExp(digits)}(?!\\d)`, 'g'), padded)
      .replace(new RegExp(`(?<![\\d.])${model.number}(?!\\d)`, 'g'), String(number));
  }
  return out.split(FILE).join(file).split(TITLE).join(title);
}
