// Reading files of the workspace on an agent's behalf: only plain files inside the workspace (the
// one check in workspacePath.ts: no traversal, no link of either kind) that the index's allowlist
// covers, never secret-bearing (secretFiles.ts) or dependency files, text only, at most 1 MiB, and
// secrets redacted before the text leaves.

import { readFileSync } from 'node:fs';
import { LoreError, redact } from '../engine';
import { discoveryMatcher } from '../engine/indexing/discovery';
import { isSecretFile } from '../engine/indexing/secretFiles';
import { workspaceDiscoveryRules } from './workspaceConfig';
import { fileHead, fileText } from './fileText';
import { locateInWorkspace, type PathRefusal } from './workspacePath';

export const MAX_FILE_BYTES = 1024 * 1024;

export interface WorkspaceFile {
  path: string;
  text: string;
  total_lines: number;
  start_line: number;
  end_line: number;
  redactions: number;
}

function refuse(message: string, hint?: string): never {
  throw new LoreError('INVALID_INPUT', message, hint);
}

const REFUSALS: Record<PathRefusal, [string, string]> = {
  invalid: [
    'must be a non-empty path without NUL characters',
    'give a path relative to the workspace root, e.g. docs/adr/0001-record.md',
  ],
  outside: ['is outside the workspace', 'only files inside the workspace can be read'],
  // The same answer whether or not a link's target exists: links are never followed.
  linked: [
    'is reached through a symbolic or hard link',
    'Lore reads only plain files inside the workspace; links could lead outside it',
  ],
  missing: ['does not exist in the workspace', 'check the path; it is relative to the workspace root'],
  'not-a-file': ['is not a file', 'give the path of a file, not a folder'],
};

/** Resolves `requested` inside `root`, refusing anything that leaves it or is denied. */
export function resolveWorkspacePath(
  root: string,
  requested: string,
): { absolute: string; relativePath: string; size: number } {
  const located = locateInWorkspace(root, requested);
  if (!located.ok) {
    const [what, hint] = REFUSALS[located.refusal];
    refuse(`${located.refusal === 'invalid' ? 'path' : requested} ${what}`, hint);
  }
  const { relativePath } = located;
  const matcher = discoveryMatcher(workspaceDiscoveryRules(root));
  if (!matcher.acceptsFile(relativePath, located.stat.mode, () => fileHead(located.absolute))) {
    if (isSecretFile(relativePath)) {
      refuse(
        `${relativePath} is not readable through Lore: it may hold secrets`,
        'Lore serves a secret-bearing file only when the workspace allows it explicitly (index.allow)',
      );
    }
    refuse(
      `${relativePath} is not one of the documents or infrastructure files Lore serves`,
      'read_file serves what the index covers (docs, ADRs, runbooks, ' +
        'Terraform, Kubernetes, Helm, Dockerfiles, CI); read source code ' +
        'with your own tools',
    );
  }
  return { absolute: located.absolute, relativePath, size: located.stat.size };
}

export function readWorkspaceFile(root: string, requested: string, startLine = 1, endLine?: number): WorkspaceFile {
  const { absolute, relativePath, size } = resolveWorkspacePath(root, requested);
  if (size > MAX_FILE_BYTES) refuse(`${relativePath} is ${size} bytes; Lore reads files up to 1 MiB`);
  const text = fileText(readFileSync(absolute), MAX_FILE_BYTES);
  if (text === null) refuse(`${relativePath} is a binary file (or grew past 1 MiB)`);
  // The whole file is redacted, then cut: a key block that starts above start_line still goes.
  const redacted = redact(text);
  const lines = redacted.text.split(/\r?\n/);
  const first = Math.max(1, startLine);
  const last = Math.min(lines.length, endLine ?? lines.length);
  if (first > lines.length)
    refuse(`${relativePath} has ${lines.length} lines; start_line ${startLine} is past the end`);
  if (last < first) refuse(`end_line ${endLine} is before start_line ${startLine}`);
  const slice = lines.slice(first - 1, last).join('\n');
  const redactions = redacted.lines.filter(([a, b]) => b >= first && a <= last).length;
  return { path: relativePath, text: slice, total_lines: lines.length, start_line: first, end_line: last, redactions };
}
