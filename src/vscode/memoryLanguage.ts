// The language of a memory opened for editing (`lore-edit:` documents). Each save of one writes a
// new version of the record, so it must be an act of the person, not a timer: the `lore-memory`
// language (Markdown highlighting, see media/syntaxes) carries `"files.autoSave": "off"` as its
// default in package.json, a language override VS Code's own auto-save honours. A person who wants
// auto-save for memories sets `"[lore-memory]": { "files.autoSave": … }` in their settings.

import * as vscode from 'vscode';
import { EDIT_SCHEME } from './memoryEditor';

export const MEMORY_LANGUAGE = 'lore-memory';

/** The document, in the memory language when it is a memory opened for editing. */
export async function asMemoryDocument(document: vscode.TextDocument): Promise<vscode.TextDocument> {
  if (document.uri.scheme !== EDIT_SCHEME || document.languageId === MEMORY_LANGUAGE) return document;
  return vscode.languages.setTextDocumentLanguage(document, MEMORY_LANGUAGE);
}

/** Memory documents opened any other way (restored after a reload, a link, vscode.open) too. */
export function watchMemoryDocuments(log: { warn(message: string): void }): vscode.Disposable {
  const set = (document: vscode.TextDocument) =>
    void asMemoryDocument(document).catch((e: Error) => log.warn(`${document.uri.path}: ${e.message}`));
  vscode.workspace.textDocuments.forEach(set);
  return vscode.workspace.onDidOpenTextDocument(set);
}
