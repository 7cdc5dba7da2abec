// The remember wizard: a memory from the palette or from the selection, its steps checked as they
// are typed by the engine's own rules (key, limits, anchors), and nothing typed lost when a save fails.

import * as vscode from 'vscode';
import { join, relative, sep } from 'node:path';
import { keyFor, LIMITS, MEMORY_TYPES, parseKey, TYPE_INFO, typeChoice } from '../../engine';
import type { MemoryType, RememberInput, SaveResult } from '../../engine';
import { errorText } from '../editorWording';
import {
  anchorAt,
  anchorLengthProblem,
  anchorProblem,
  selectedLines,
  type ReadText,
  type SymbolLike,
} from '../anchorAt';
import { definitionsOf } from '../definitions';
import { selectionBody } from '../selectionBody';
import type { FolderStore } from '../folderStore';
import { memoryUri } from '../memoryDocument';
import type { CommandDeps } from './deps';
import { runSteps, type Step } from './steps';
import { editorActor, pickStore, required } from './ui';

interface Draft {
  type: MemoryType;
  body?: string;
  anchors?: string[];
  title?: string;
}

/** The anchor at the active editor's cursor (see anchorAt.ts), for a file inside `folder`. */
async function cursorAnchor(deps: CommandDeps, editor: vscode.TextEditor, folder: string): Promise<string | undefined> {
  const doc = editor.document;
  if (doc.uri.scheme !== 'file') return undefined;
  const path = relative(folder, doc.uri.fsPath).split(sep).join('/');
  if (path.startsWith('..')) return undefined;
  let symbols: SymbolLike[] | undefined;
  try {
    symbols = await vscode.commands.executeCommand<SymbolLike[]>('vscode.executeDocumentSymbolProvider', doc.uri);
  } catch {
    symbols = undefined; // no symbol provider for this language: drift's own definitions decide
  }
  const text = doc.getText();
  const definitions = await definitionsOf(path, text, deps.log);
  return anchorAt(
    path,
    selectedLines(editor.selection),
    text,
    definitions,
    symbols?.filter((s) => s && 'range' in s),
  );
}

/** Workspace files as the editor has them (an open, unsaved document's text included). */
function workspaceText(folder: string): ReadText {
  return async (path) => {
    const uri = vscode.Uri.file(join(folder, path));
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    try {
      return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    } catch {
      return undefined;
    }
  };
}

const splitAnchors = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

/** Why `key` cannot name a new `type` record, in the engine's words (its message and rule), or undefined. */
function keyProblem(type: MemoryType, key: string): string | undefined {
  try {
    if (parseKey(key).type !== type) return `a ${type.replace('_', ' ')}'s key starts with ${type}/`;
    return undefined;
  } catch (error) {
    const e = error as { message: string; hint?: string };
    return e.hint ? `${e.message}: ${e.hint}` : e.message;
  }
}

function rememberSteps(deps: CommandDeps, store: FolderStore, type: MemoryType, withBody: boolean): Step[] {
  const kind = type.replace('_', ' ');
  const read = workspaceText(store.folder);
  const steps: Step[] = [
    {
      prompt: `Title of the ${kind}`,
      limit: LIMITS.titleChars,
      describe: (v) => `Title of the ${kind}${v.trim() ? ` — saved as ${keyFor(type, v.trim())}` : ''}`,
    },
    {
      // The rule is the engine's (parseKey); shown in the prompt, checked as it is typed.
      prompt: `Key: ${type}/ then lowercase letters, digits, ".", "_" or "-" (from the title unless you change it)`,
      derive: (answers) => keyFor(type, answers[0].trim()),
      check: (value) => keyProblem(type, value),
      warn: async (value) => {
        const taken = await store.api.get(value).then(
          () => true,
          () => false,
        );
        return taken ? `${value} already exists: saving adds a new version of it` : undefined;
      },
    },
    { prompt: 'One line: what a reader needs to know', limit: LIMITS.descriptionChars },
  ];
  if (withBody) steps.push({ prompt: 'Body (Markdown; optional — edit the record later for more)', optional: true });
  steps.push({
    prompt: 'Anchors: files, path#Symbol or doc.md#heading it is about, comma-separated (optional)',
    placeholder: 'src/queue.ts#enqueue, docs/runbooks/deploy.md#rollback',
    optional: true,
    // The engine's limit refuses the step as it is typed (a save never fails on it); a reference
    // that does not resolve is only a warning.
    check: (value) => anchorLengthProblem(splitAnchors(value)),
    warn: async (value) => {
      for (const anchor of splitAnchors(value)) {
        const problem = await anchorProblem(anchor, read, (path, text) => definitionsOf(path, text, deps.log));
        if (problem) return problem;
      }
      return undefined;
    },
  });
  return steps;
}

async function remember(deps: CommandDeps, store: FolderStore, draft: Draft): Promise<void> {
  const withBody = draft.body === undefined;
  const steps = rememberSteps(deps, store, draft.type, withBody);
  const title = `Lore: Remember ${TYPE_INFO[draft.type].name}`;
  let typed: string[] = [draft.title ?? '', '', '', ...(withBody ? [''] : []), (draft.anchors ?? []).join(', ')];
  for (;;) {
    typed = await runSteps(title, steps, typed);
    const [name, key, description] = typed;
    const body = withBody ? typed[3] : (draft.body ?? '');
    const anchors = splitAnchors(typed[typed.length - 1]);
    const provenance = { source: 'user' as const, client: 'vscode' };
    const input: RememberInput = { type: draft.type, key, title: name, description, body, anchors, provenance };
    let result: SaveResult;
    try {
      result = await store.api.remember(editorActor(), input);
      if (!result.saved) throw new Error(result.conflict.reason);
    } catch (error) {
      // Nothing typed is lost: the person can go back to the steps with every value as it was.
      const message = errorText(error);
      deps.log.warn(`remember: ${message}`);
      const choice = await vscode.window.showErrorMessage(`Lore could not save it: ${message}`, 'Edit and Retry');
      if (choice !== 'Edit and Retry') return;
      continue;
    }
    await saved(deps, store, result);
    return;
  }
}

type Saved = Extract<SaveResult, { saved: true }>;

async function saved(deps: CommandDeps, store: FolderStore, result: Saved): Promise<void> {
  deps.log.info(`remembered ${result.key} v${result.version}`);
  const deadEnds = result.warnings.dead_ends as { key: string; title?: string }[];
  const open = 'Open';
  const choice = deadEnds.length
    ? await vscode.window.showWarningMessage(
        `Saved ${result.key}, but it resembles the dead end ` +
          `${deadEnds[0].key}${deadEnds[0].title ? ` (“${deadEnds[0].title}”)` : ''}.`,
        open,
        'Open Dead End',
      )
    : await vscode.window.showInformationMessage(
        `Lore remembered ${result.key}${result.status === 'quarantined' ? ' (quarantined)' : ''}.`,
        open,
      );
  if (choice === open) await openMemory(store.folder, result.key);
  if (choice === 'Open Dead End') await openMemory(store.folder, deadEnds[0].key);
}

export async function openMemory(folder: string, key: string): Promise<void> {
  await vscode.window.showTextDocument(memoryUri(folder, key), { preview: true });
}

async function rememberSelection(deps: CommandDeps, type: MemoryType): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new Error('open a file and select the code or text the memory is about');
  const store = await pickStore(deps.stores, editor.document.uri);
  const selected = editor.document.getText(editor.selection);
  const anchor = await cursorAnchor(deps, editor, store.folder);
  const body = selectionBody(selected, editor.document.languageId);
  await remember(deps, store, { type, body, anchors: anchor ? [anchor] : [] });
}

/** Lore: Remember… (a type, then the wizard) and the two selection commands. */
export function registerRememberCommands(deps: CommandDeps): void {
  const { register, stores } = deps;
  register('lore.remember', async () => {
    const store = await pickStore(stores);
    const picked = required(
      await vscode.window.showQuickPick(
        MEMORY_TYPES.map((t) => ({ label: typeChoice(t), type: t })),
        { placeHolder: 'What kind of memory?' },
      ),
    );
    const editor = vscode.window.activeTextEditor;
    const anchor = editor ? await cursorAnchor(deps, editor, store.folder) : undefined;
    await remember(deps, store, { type: picked.type, anchors: anchor ? [anchor] : [] });
  });
  register('lore.rememberSelectionAsDecision', () => rememberSelection(deps, 'decision'));
  register('lore.rememberSelectionAsDeadEnd', () => rememberSelection(deps, 'dead_end'));
}
