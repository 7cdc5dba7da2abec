// The text a doc's relocated reference should say now: the link or path rewritten to where its
// target went, in the form the doc wrote it (a path relative to the doc stays relative, a
// repository path stays one), its `#fragment` kept. No `vscode` import: the command builds the
// WorkspaceEdit from this.

import { posix } from 'node:path';
import type { DriftFinding } from '../contract';

export interface Relink {
  /** 0-based line and character span of the old text on that line. */
  line: number;
  start: number;
  end: number;
  text: string;
}

/** The replacement for a relocated doc reference on `lineText`, or a reason it cannot be made. */
export function relink(finding: DriftFinding, lineText: string): Relink | { problem: string } {
  const { raw, target_path: oldPath } = finding.reference;
  const moved = finding.evidence.new_path;
  if (finding.state !== 'relocated' || !moved || !oldPath)
    return { problem: `${raw} is ${finding.state}, not relocated: there is no new place to point it at` };
  if (finding.source.kind !== 'doc' || !finding.source.path)
    return { problem: `${raw} is a memory's anchor: edit the record or re-verify it` };
  const start = lineText.indexOf(raw);
  if (start < 0) {
    const where = `line ${finding.source.line} of ${finding.source.path}`;
    return { problem: `${raw} is no longer on ${where}; save it to check it again` };
  }
  const hash = raw.indexOf('#');
  const [pathPart, fragment] = hash < 0 ? [raw, ''] : [raw.slice(0, hash), raw.slice(hash)];
  const [newPath, newFragment] = moved.includes('#')
    ? [moved.slice(0, moved.indexOf('#')), moved.slice(moved.indexOf('#'))]
    : [moved, fragment];
  const bare = pathPart.replace(/^\.\//, '');
  let written: string;
  if (bare === oldPath || pathPart === `/${oldPath}`) written = pathPart.startsWith('/') ? `/${newPath}` : newPath;
  else {
    const relative = posix.relative(posix.dirname(finding.source.path), newPath);
    written = pathPart.startsWith('./') && !relative.startsWith('.') ? `./${relative}` : relative;
  }
  return {
    line: Math.max(0, (finding.source.line ?? 1) - 1),
    start,
    end: start + raw.length,
    text: written + newFragment,
  };
}
