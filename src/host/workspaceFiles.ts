// Reading files of the workspace on an agent's behalf: only paths inside the workspace (no
// traversal, no symlink escape) that the index's allowlist covers, never secret-bearing or
// dependency files, text only, at most 1 MiB, and secrets redacted before the text leaves.

import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { LoreError, redact } from '../engine';
import { discoveryMatcher } from '../engine/index/discovery';
import { workspaceDiscoveryRules } from './workspaceConfig';

export const MAX_FILE_BYTES = 1024 * 1024;

// Files that carry secrets or are not the project's own text.
const DENIED: RegExp[] = [
  /(^|\/)\.git(\/|$)/,
  /(^|\/)node_modules(\/|$)/,
  /(^|\/)\.env(\.[^/]*)?$/,
  /\.(pem|key|p12|pfx|jks|keystore|tfvars|tfstate|kdbx)$/i,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /(^|\/)\.(npmrc|pypirc|netrc|htpasswd)$/,
  /(^|\/)(credentials|secrets?)(\.[^/]*)?$/i,
];

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

/** Resolves `requested` inside `root`, refusing anything that leaves it or is denied. */
export function resolveWorkspacePath(root: string, requested: string): { absolute: string; relativePath: string } {
  if (typeof requested !== 'string' || !requested.trim()) refuse('path is empty', 'give a path relative to the workspace root, e.g. docs/adr/0001-record.md');
  if (requested.includes('\0')) refuse('path contains a NUL byte');
  const realRoot = realpathSync(root);
  const absolute = resolve(realRoot, requested);
  const lexical = relative(realRoot, absolute);
  if (isAbsolute(requested) && !absolute.startsWith(realRoot + sep)) refuse(`${requested} is outside the workspace`, 'only files inside the workspace can be read');
  if (lexical.startsWith('..') || isAbsolute(lexical)) refuse(`${requested} is outside the workspace`, 'only files inside the workspace can be read');
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    refuse(`${requested} does not exist in the workspace`, 'check the path; it is relative to the workspace root');
  }
  const relativePath = relative(realRoot, real).split(sep).join('/');
  // A symlink inside the workspace that points outside it is refused like a traversal.
  if (relativePath.startsWith('..') || isAbsolute(relativePath)) refuse(`${requested} leads outside the workspace (through a symlink)`);
  if (DENIED.some((pattern) => pattern.test(relativePath))) refuse(`${relativePath} is not readable through Lore: it may hold secrets or is not project text`);
  if (!discoveryMatcher(workspaceDiscoveryRules(realRoot)).accepts(relativePath)) {
    refuse(`${relativePath} is not one of the documents or infrastructure files Lore serves`, 'read_file serves what the index covers (docs, ADRs, runbooks, Terraform, Kubernetes, Helm, Dockerfiles, CI); read source code with your own tools');
  }
  return { absolute: real, relativePath };
}

export function readWorkspaceFile(root: string, requested: string, startLine = 1, endLine?: number): WorkspaceFile {
  const { absolute, relativePath } = resolveWorkspacePath(root, requested);
  const stat = statSync(absolute);
  if (!stat.isFile()) refuse(`${relativePath} is not a file`);
  if (stat.size > MAX_FILE_BYTES) refuse(`${relativePath} is ${stat.size} bytes; Lore reads files up to 1 MiB`);
  const bytes = readFileSync(absolute);
  if (bytes.includes(0)) refuse(`${relativePath} is a binary file`);
  const lines = bytes.toString('utf8').split(/\r?\n/);
  const first = Math.max(1, startLine);
  const last = Math.min(lines.length, endLine ?? lines.length);
  if (first > lines.length) refuse(`${relativePath} has ${lines.length} lines; start_line ${startLine} is past the end`);
  if (last < first) refuse(`end_line ${endLine} is before start_line ${startLine}`);
  const { text, redactions } = redact(lines.slice(first - 1, last).join('\n'));
  return { path: relativePath, text, total_lines: lines.length, start_line: first, end_line: last, redactions };
}
