// Workspace-relative paths, always with `/`: a file's name, its folder, its stem and extension, the
// folders above it, and a relative path joined onto a folder. The one place these are cut (the
// engine never uses node:path: it is pure, and the same path must read the same on Windows).

/** `docs/adr/0001-x.md` → `0001-x.md`. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `docs/adr/0001-x.md` → `docs/adr`; a top-level file's folder is ''. */
export function dirName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** `docs/adr/0001-x.md` → `0001-x`; every extension goes (`chart.tar.gz` → `chart`). */
export function stem(path: string): string {
  return baseName(path).replace(/(\.[A-Za-z0-9]+)+$/, '');
}

/** The last extension, lower-case, without its dot: `README.MD` → `md`; '' for none (or `.env`). */
export function extension(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The folders holding a path, nearest first: `a/b/c.md` → `a/b`, `a`. */
export function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) out.push(path.slice(0, i));
  return out;
}

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
