// Files a doc tool embeds into a page, as the page's source writes the directive: mdox
// (`<!--mdox-exec="sed -n '3,20p' path/to/file.go"-->`, `mdox-exec="cat path"`) and embedmd
// (`[embedmd]:# (path/to/file.go go /start/ /end/)`). The reference is the directive's argument as
// written (one per embed, so two ranges of one file are two references); it resolves to the file,
// narrowed to `L3-L20` for a sed range — lines that shift make the range pick other code, which is
// drift. embedmd's `/start/ /end/` regexes find their lines by content, so the whole file is watched.
// Hugo shortcodes that read a file (`{{< readfile file="x" >}}`, `{{% include "x" %}}`, kind's
// `{{< codeFromFile file="x" >}}`) name it from the site's folder: the reference is the path itself.

export interface EmbedParts {
  /** The file as the directive names it. */
  path: string;
  /** sed's `A,Bp` range, 1-based and inclusive. */
  range?: [number, number];
}

const MDOX = /mdox-exec\s*=\s*"([^"]*)"/g;
const EMBEDMD = /^\s{0,3}\[embedmd\]:\s*#\s*\(([^)]*)\)/;
const SED_RANGE = /^sed\s+-n\s+(["']?)(\d+),(\d+)p\1\s+(\S+)$/;
const CAT = /^cat\s+(\S+)$/;
const PATHISH = /^[\w.@+~/-]+$/;

/**
 * A Hugo shortcode call: `{{<`/`{{%`, a name starting with a letter (an escaped example, `{{<` then a
 * comment opener, is none), its arguments up to `}}`. No brace inside and a name that cannot give
 * back a character, so each call is read once whatever the line holds.
 */
const SHORTCODE = /\{\{[<%]\s*([A-Za-z][\w/.-]*)(?![\w/.-])([^{}]*)\}\}/g;
/** Shortcodes whose first positional argument is a file they read in (Hugo's docs, Docsy, kind's readFile). */
const READS_FILE = /^(?:readfile|include|codefromfile|code|readcode|embedcode|snippet)$/i;
const FILE_ARGUMENT = /(?:^|\s)file\s*=\s*"([^"]+)"/;
const FIRST_ARGUMENT = /^\s*"([^"]+)"/;

/** The file each Hugo shortcode on a line reads in: `file="x"`, or a reading shortcode's first argument. */
export function shortcodeFiles(line: string): string[] {
  const out: string[] = [];
  if (!line.includes('{{')) return out;
  for (const m of line.matchAll(SHORTCODE)) {
    if (!/[>%]\s*$/.test(m[2])) continue;
    const args = m[2].replace(/\s*[>%]\s*$/, '');
    const file = FILE_ARGUMENT.exec(args)?.[1] ?? (READS_FILE.test(m[1]) ? FIRST_ARGUMENT.exec(args)?.[1] : undefined);
    if (file && PATHISH.test(file) && /\.\w+$/.test(file) && !file.startsWith('/')) out.push(file);
  }
  return out;
}

/** The file (and line range) an embed directive's argument names; null when it names none. */
export function embedParts(argument: string): EmbedParts | null {
  const text = argument.trim();
  const sed = SED_RANGE.exec(text);
  if (sed) {
    const from = Number(sed[2]);
    const to = Number(sed[3]);
    return PATHISH.test(sed[4]) && from >= 1 && to >= from ? { path: sed[4], range: [from, to] } : null;
  }
  const cat = CAT.exec(text);
  if (cat) return PATHISH.test(cat[1]) ? { path: cat[1] } : null;
  // embedmd: `path [lang] [/start/ [/end/]]`; the path may be a URL, which names no file here.
  const first = text.split(/\s+/)[0];
  return !text.startsWith('sed') && !/^\w+:\/\//.test(first) && PATHISH.test(first) && /\.\w+$/.test(first)
    ? { path: first }
    : null;
}

/** The argument of each embed directive on a line: mdox-exec's command, embedmd's parenthesis. */
export function embedArguments(line: string): string[] {
  const out: string[] = [];
  const embedmd = EMBEDMD.exec(line);
  if (embedmd) out.push(embedmd[1].trim());
  for (const m of line.matchAll(MDOX)) out.push(m[1].trim());
  out.push(...shortcodeFiles(line));
  return out.filter((a) => embedParts(a) !== null);
}

/** An embed's argument with its file and line range rewritten (a fix), or null when it cannot be. */
export function rewriteEmbed(argument: string, path: string, range?: [number, number]): string | null {
  const parts = embedParts(argument);
  if (!parts) return null;
  let out = argument.replace(parts.path, path);
  if (range) {
    if (!parts.range) return null;
    out = out.replace(`${parts.range[0]},${parts.range[1]}p`, `${range[0]},${range[1]}p`);
  }
  return out;
}
