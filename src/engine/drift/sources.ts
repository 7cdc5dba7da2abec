// Which files drift reads references from: prose (markdown and release notes), where people write
// paths and names down; code files for what their comments name (codeComments.ts); Ansible tasks and
// templates for the variables they use (ansibleVars.ts).

import { usesAnsibleVariables } from './ansibleVars';
import { isCommentSource } from './codeComments';
import { RELEASE_NOTE } from './extract';
import { MARKDOWN } from './resolvePath';

/** A file read as a document: every reference it makes counts. */
function isProse(path: string): boolean {
  return MARKDOWN.test(path) || RELEASE_NOTE.test(path);
}

/** A code file: only the paths and URLs of its comments (and a task's or template's variables) are references. */
export function isCodeSource(path: string): boolean {
  return !isProse(path) && (isCommentSource(path) || usesAnsibleVariables(path));
}

/** Files whose references drift watches. */
export const DRIFT_SOURCE = { test: (path: string): boolean => isProse(path) || isCodeSource(path) };
