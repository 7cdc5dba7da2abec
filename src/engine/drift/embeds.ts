// Files a doc tool embeds into a page, as the page's source writes the directive: mdox
// (`<!--mdox-exec="sed -n '3,20p' path/to/file.go"-->`, `mdox-exec="cat path"`) and embedmd
// (`[embedmd]:# (path/to/file.go go /start/ /end/)`). The reference is the directive's argument as
// written (one per embed, so two ranges of one file are two references); it resolves to the file,
// narrowed to `L3-L20` for a sed range — lines that shift make the range pick other code, which is
// drift. embedmd's `/start/ /end/` regexes find their lines by content, so the whole file is watched.

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
