// The text a doc's relocated reference should say now: exactly the span of that reference on its
// line rewritten to where its target went, in the form the doc wrote it (a path relative to the
// doc stays relative to the doc, one from a project or the repository root stays one, a bare file
// name stays a bare name, a GitHub URL keeps its host and branch, a published page keeps its page
// form), its `#fragment` kept. Only references whose text is a path can be rewritten: a flag or a
// symbol whose file moved is right as written. When the span cannot be found once, as a whole
// token, or the form cannot be kept, no fix is made (a reason says why). No `vscode` import: the
// command builds the WorkspaceEdit from this, and the eval applies it to real documents.

import { posix } from 'node:path';
import { embedParts, joinPath as joined, rewriteEmbed } from '../../engine';
import type { DriftFinding } from '../contract';

export interface Relink {
  /** 0-based line and character span of the old text on that line. */
  line: number;
  start: number;
  end: number;
  text: string;
}

/** Forms whose text is a path (or a URL holding one): the only ones an update rewrites. */
const PATH_FORMS = new Set([
  'path',
  'link',
  'url',
  'published',
  'index',
  'filename',
  'directory',
  'heading',
  'site',
  'embed',
]);

/** Characters that continue a path or URL token: a match next to one is part of a longer token. */
const TOKEN_CHAR = /[\w./~@+%#?&=:-]/;

/** Whether a finding's text can be rewritten at all (its form is a path, it is a doc's, it moved somewhere). */
export function canRelink(finding: DriftFinding): boolean {
  return (
    finding.state === 'relocated' &&
    !!finding.evidence.new_path &&
    !!finding.reference.target_path &&
    finding.source.kind === 'doc' &&
    PATH_FORMS.has(finding.reference.form)
  );
}

/** Where `raw` stands on the line as a whole token: the one start, or why there is none. */
function tokenSpan(lineText: string, raw: string): number | 'missing' | 'several' {
  const starts: number[] = [];
  for (let at = lineText.indexOf(raw); at >= 0; at = lineText.indexOf(raw, at + 1)) {
    const before = at > 0 ? lineText[at - 1] : '';
    const after = lineText[at + raw.length] ?? '';
    // `.` or `:` ending a sentence does not continue a path.
    const continues =
      TOKEN_CHAR.test(after) && !(/[.:,?]/.test(after) && !TOKEN_CHAR.test(lineText[at + raw.length + 1] ?? ''));
    if (!TOKEN_CHAR.test(before) && !continues) starts.push(at);
  }
  if (!starts.length) return 'missing';
  return starts.length > 1 ? 'several' : starts[0];
}

function splitHash(text: string): [string, string] {
  const hash = text.indexOf('#');
  return hash < 0 ? [text, ''] : [text.slice(0, hash), text.slice(hash)];
}

/** What `oldPath` adds to the path as written: a published page's source extension, a folder's index page. */
function suffixAfter(named: string, oldPath: string): string | null {
  if (oldPath === named) return '';
  if (oldPath.startsWith(`${named}/`) || oldPath.startsWith(`${named}.`)) return oldPath.slice(named.length);
  return null;
}

/**
 * The path as the doc should write it now. The written path is read as the resolver read it: from
 * the doc's folder, or from a folder above the target (a project or the repository root); the new
 * path is written from that same folder, with what the target added to it (an index page, a source
 * extension) taken off again. Null when the new place cannot be written that way.
 */
function rewritePath(written: string, oldPath: string, newPath: string, docDir: string): string | null {
  const rooted = written.startsWith('/');
  const dotted = written.startsWith('./');
  const slash = written.length > 1 && written.endsWith('/');
  const bare = written.replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+$/, '');
  if (!bare) return null;
  const relative = !rooted && /^\.\.?\//.test(written);
  const bases: string[] = [];
  if (!rooted) bases.push(docDir);
  if (!relative) {
    // A folder above the target the path was read from (the repository root, a project's root).
    for (let at = oldPath.indexOf(bare); at >= 0; at = oldPath.indexOf(bare, at + 1)) {
      if (at === 0) bases.push('');
      else if (oldPath[at - 1] === '/') bases.push(oldPath.slice(0, at - 1));
    }
  }
  for (const base of bases) {
    const named = joined(base, written.replace(/^\/+/, ''));
    if (named === null) continue;
    const suffix = suffixAfter(named, oldPath);
    if (suffix === null) continue;
    if (suffix && !newPath.endsWith(suffix)) return null;
    const core = newPath.slice(0, newPath.length - suffix.length);
    // A published page stays a page of the same kind (`a.html` is not rewritten to `b`).
    if (suffix && posix.extname(core) !== posix.extname(named)) return null;
    let out: string;
    if (base === docDir && !rooted && (relative || named === joined(docDir, bare))) {
      out = posix.relative(docDir || '.', core || '.');
      if (dotted && !out.startsWith('.')) out = `./${out}`;
    } else {
      if (base && !core.startsWith(`${base}/`)) return null;
      out = base ? core.slice(base.length + 1) : core;
      if (rooted) out = `/${out}`;
      else if (dotted) out = `./${out}`;
    }
    return slash && !out.endsWith('/') ? `${out}/` : out;
  }
  return null;
}

/** A same-repository URL with the repository path inside it replaced (host, branch and query kept). */
function rewriteUrl(raw: string, oldPath: string, newPath: string): string | null {
  const [address] = splitHash(raw);
  const [withoutQuery] = address.split('?');
  // The longest tail of the old path the URL ends with: what the URL names below its branch.
  const parts = oldPath.split('/');
  for (let skip = 0; skip < parts.length; skip++) {
    const tail = parts.slice(skip).join('/');
    if (!withoutQuery.replace(/\/+$/, '').endsWith(`/${tail}`)) continue;
    const project = parts.slice(0, skip).join('/');
    if (project && !newPath.startsWith(`${project}/`)) return null;
    const newTail = project ? newPath.slice(project.length + 1) : newPath;
    const at = withoutQuery.replace(/\/+$/, '').length - tail.length;
    return address.slice(0, at) + newTail + address.slice(at + tail.length);
  }
  return null;
}

/** An embed directive's argument with its file moved and its sed range shifted (`#L5-L22`) as the target did. */
function relinkEmbed(raw: string, oldPath: string, newPath: string, movedFragment: string, docDir: string) {
  const parts = embedParts(raw);
  if (!parts) return null;
  const path = newPath === oldPath ? parts.path : rewritePath(parts.path, oldPath, newPath, docDir.replace(/^\.$/, ''));
  if (path === null) return null;
  const lines = /^#L(\d+)(?:-L(\d+))?$/.exec(movedFragment);
  const range: [number, number] | undefined = lines ? [Number(lines[1]), Number(lines[2] ?? lines[1])] : undefined;
  return rewriteEmbed(raw, path, range);
}

/** The replacement for a relocated doc reference on `lineText`, or a reason it cannot be made. */
export function relink(finding: DriftFinding, lineText: string): Relink | { problem: string } {
  const { raw, target_path: oldPath, form } = finding.reference;
  const moved = finding.evidence.new_path;
  if (finding.state !== 'relocated' || !moved || !oldPath)
    return { problem: `${raw} is ${finding.state}, not relocated: there is no new place to point it at` };
  if (finding.source.kind !== 'doc' || !finding.source.path)
    return { problem: `${raw} is a memory's anchor: edit the record or re-verify it` };
  if (!PATH_FORMS.has(form))
    return {
      problem:
        `${raw} is a ${form}, and stays as written: ${oldPath} moved to ${splitHash(moved)[0]}; ` +
        'update the path that names it on the line, or re-verify',
    };
  const where = `line ${finding.source.line} of ${finding.source.path}`;
  const start = tokenSpan(lineText, raw);
  if (start === 'missing') return { problem: `${raw} is no longer on ${where}; save it to check it again` };
  if (start === 'several') return { problem: `${raw} is written more than once on ${where}: edit it by hand` };
  const [pathPart, fragment] = splitHash(raw);
  const [newPath, movedFragment] = splitHash(moved);
  const newFragment = movedFragment || fragment;
  let text: string | null;
  if (form === 'url') text = rewriteUrl(raw, oldPath, newPath);
  // A published page's URL is rewritten only where its anchor moved.
  else if (form === 'site') text = newPath === oldPath ? pathPart : null;
  else if (form === 'embed') {
    const embed = relinkEmbed(raw, oldPath, newPath, movedFragment, posix.dirname(finding.source.path));
    if (embed === null || embed === raw)
      return { problem: `${raw} cannot be rewritten to ${moved} in the form it is written: edit it by hand` };
    return { line: Math.max(0, (finding.source.line ?? 1) - 1), start, end: start + raw.length, text: embed };
  } else if (form === 'filename' && !pathPart.includes('/')) {
    // A bare name stays a bare name: the new name, when the file was renamed (a move alone leaves it right).
    const name = posix.basename(newPath);
    text = name === posix.basename(oldPath) ? null : name;
  } else if (!pathPart)
    text = newPath === oldPath ? '' : null; // an in-page anchor: only its heading moved
  else text = rewritePath(pathPart, oldPath, newPath, posix.dirname(finding.source.path).replace(/^\.$/, ''));
  if (text === null)
    return { problem: `${raw} cannot be rewritten to ${moved} in the form it is written: edit it by hand` };
  const finalText = text + newFragment;
  if (finalText === raw) return { problem: `${raw} already names ${moved}: re-verify it instead` };
  return { line: Math.max(0, (finding.source.line ?? 1) - 1), start, end: start + raw.length, text: finalText };
}
