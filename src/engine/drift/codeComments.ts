// References in code comments: a Go package comment naming a doc (`// See docs/design/x.md`), a
// YAML, shell or Terraform comment linking this repository's own file on GitHub. A code file is a
// drift source for its comments only, and only for tokens that are clearly paths: a slash and the
// extension of a file type a repository tracks, or a GitHub URL of this repository. Prose words,
// string literals and code are never read, and a token is kept only when it resolved to a file
// when first seen (resolve.ts: `inBlock` and `loose` references that do not resolve are dropped),
// so a comment about another project's `docs/x.md` is no alarm.

import type { RawReference } from './extract';
import { baseName } from '../text/paths';

/** Languages whose line comments start with `#`. */
const HASH = /\.(py|sh|bash|zsh|rb|pl|ya?ml|tf|tfvars|hcl|toml|conf|cfg|mk|r|ps1|nix|cmake|properties)$/i;
/** Languages whose line comments start with `//` (and whose block comments are `/* … *\/`). */
const SLASH =
  /\.(go|js|jsx|mjs|cjs|ts|tsx|java|kt|kts|scala|groovy|gradle|c|cc|cpp|cxx|h|hh|hpp|rs|swift|cs|dart|proto|php)$/i;
/** Both: jsonnet, and Terraform/HCL, which take `#` and `//`. */
const BOTH = /\.(jsonnet|libsonnet|tf|hcl)$/i;
const HASH_NAMES = /^(Makefile|GNUmakefile|Dockerfile|Containerfile|Vagrantfile|Jenkinsfile)$|^Dockerfile\./;

/** Extensions of the files a comment names as paths: docs, code and config a repository tracks. */
const TRACKED_EXTENSION = new RegExp(
  '\\.(md|mdx|markdown|rst|txt|adoc|go|py|js|jsx|mjs|cjs|ts|tsx|rb|rs|java|kt|scala|c|cc|cpp|h|hpp|cs|swift|php|' +
    'sh|bash|zsh|ps1|ya?ml|json|jsonnet|libsonnet|toml|ini|cfg|conf|tf|tfvars|hcl|tpl|tmpl|j2|sql|proto|xml|' +
    'html?|css|scss|mk|lua|gradle|properties|env|csv|png|jpe?g|gif|svg)$',
  'i',
);
const GITHUB_FILE =
  /^https?:\/\/(?:www\.)?github\.com\/[^/\s]+\/[^/\s]+\/(?:blob|tree)\/|^https?:\/\/raw\.githubusercontent/i;
/** `a/b.md`, `./x.sh`, `../docs/y.md`: path characters only, at least one slash between names (not `/etc/x`, `~/x`). */
const PATH = /^(?:\.{1,2}\/)*[\w@+-][\w.@+~-]*(?:\/[\w.@+~-]+)+$/;
/** A host written without its scheme (`github.com/x/y.go`, `k8s.io/api/x.go`): another site's, not a path here. */
const HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|gov|uk|edu|sh|co|app|cloud|me|in)\//i;

/** Whether a file is a code file drift reads the comments of. */
export function isCommentSource(path: string): boolean {
  const name = baseName(path);
  return HASH.test(name) || SLASH.test(name) || BOTH.test(name) || HASH_NAMES.test(name);
}

/** The comment text of each line of a file (empty where the line has none), by the file's comment syntax. */
export function commentTexts(path: string, text: string): string[] {
  const name = baseName(path);
  const hash = HASH.test(name) || BOTH.test(name) || HASH_NAMES.test(name);
  const slash = SLASH.test(name) || BOTH.test(name);
  const out: string[] = [];
  let inBlock = false;
  for (const line of text.split(/\r?\n/)) {
    if (inBlock) {
      const end = line.indexOf('*/');
      out.push(end < 0 ? line : line.slice(0, end));
      if (end >= 0) inBlock = false;
      continue;
    }
    const start = commentStart(line, hash, slash);
    if (start === null) {
      out.push('');
      continue;
    }
    const [at, marker] = start;
    const body = line.slice(at + marker.length);
    if (marker === '/*') {
      const end = body.indexOf('*/');
      if (end < 0) inBlock = true;
      out.push(end < 0 ? body : body.slice(0, end));
    } else out.push(body);
  }
  return out;
}

/**
 * Where a line's comment starts, outside string literals: `#` or `//` at the line's start or after
 * whitespace (`http://x` and `a#b` are no comments), `/*` likewise. Null when the line has none.
 */
function commentStart(line: string, hash: boolean, slash: boolean): [number, string] | null {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quote = c;
      continue;
    }
    const spaced = i === 0 || /\s/.test(line[i - 1]);
    if (!spaced) continue;
    if (hash && c === '#') return [i, '#'];
    if (slash && c === '/' && line[i + 1] === '/') return [i, '//'];
    if (slash && c === '/' && line[i + 1] === '*') return [i, '/*'];
  }
  return null;
}

/** What a comment word is, if it is clearly a path of a tracked file type or a GitHub URL; null for anything else. */
function commentReference(word: string, line: number): RawReference | null {
  const token = word.replace(/^[*_~"'(<[]+/, '').replace(/[*_~"')>\]]+$/, '');
  const trimmed = token.replace(/[.,;:!?]+$/, '');
  if (!trimmed || trimmed.length > 300) return null;
  if (GITHUB_FILE.test(trimmed)) return { raw: trimmed, form: 'url', line, loose: true, comment: true };
  const hash = trimmed.indexOf('#');
  const path = hash < 0 ? trimmed : trimmed.slice(0, hash);
  const fragment = hash < 0 ? undefined : trimmed.slice(hash + 1) || undefined;
  if (!PATH.test(path) || HOST.test(path) || !TRACKED_EXTENSION.test(path)) return null;
  return { raw: trimmed, form: 'path', line, path, fragment, inBlock: true, comment: true };
}

/** The references a code file's comments make, with 1-based line numbers. */
export function extractFromComments(path: string, text: string): RawReference[] {
  const out: RawReference[] = [];
  const seen = new Set<string>();
  commentTexts(path, text).forEach((comment, i) => {
    if (!comment || !/[./]/.test(comment)) return;
    for (const word of comment.split(/\s+/)) {
      const ref = commentReference(word, i + 1);
      if (ref && !seen.has(ref.raw)) {
        seen.add(ref.raw);
        out.push(ref);
      }
    }
  });
  return out;
}
