// What the commands share: who is acting, how errors are shown (one line, with "Show Log"),
// choosing the folder and the record a command applies to.

import * as vscode from 'vscode';
import { userInfo } from 'node:os';
import type { Actor, MemorySummary } from '../../engine';
import { errorText, loreSays } from '../editorWording';
import type { DriftFinding } from '../contract';
import type { FolderStore } from '../folderStore';
import { MEMORY_SCHEME, parseMemoryUri } from '../memoryDocument';
import { readPages } from '../paging';
import type { LoreStores } from '../stores';
import { UNTRUSTED_HINT } from '../stores';
import type { LoreNode } from '../views/treeModel';

/**
 * A person at the editor. `confirmed` only right after they said yes to a modal dialog naming the
 * act: that is what lets the engine accept a person's act (promote, applying a session proposal).
 */
export function editorActor(confirmed = false): Actor {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry for the uid (some containers); the act is still recorded
  }
  return { door: 'ui', name, human: confirmed };
}

export class UserCancelled extends Error {}

/** Runs a command body; shows what went wrong and offers the log instead of failing silently. */
export function guarded<A extends unknown[]>(
  log: vscode.LogOutputChannel,
  name: string,
  body: (...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await body(...args);
    } catch (error) {
      if (error instanceof UserCancelled) return;
      const message = errorText(error);
      log.error(`${name}: ${message}`);
      const choice = await vscode.window.showErrorMessage(loreSays(message), 'Show Log');
      if (choice === 'Show Log') log.show();
    }
  };
}

export function required<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new UserCancelled();
  return value;
}

export interface MemoryTarget {
  folder: string;
  key: string;
}

/** The record a command was invoked on (a tree node, a quick fix's argument), if any. */
export function memoryTarget(arg: unknown): MemoryTarget | undefined {
  // A memory document's editor title bar passes the document's URI.
  if (arg instanceof vscode.Uri) return arg.scheme === MEMORY_SCHEME ? parseMemoryUri(arg) : undefined;
  const node = arg as Partial<LoreNode & MemoryTarget> & { memory?: MemorySummary; finding?: DriftFinding };
  if (!node || typeof node !== 'object' || typeof node.folder !== 'string') return undefined;
  if (node.memory) return { folder: node.folder, key: node.memory.key };
  if (typeof node.key === 'string') return { folder: node.folder, key: node.key };
  if (node.finding?.source.key) return { folder: node.folder, key: node.finding.source.key };
  return undefined;
}

/** The folder's store for a command: the only folder, the active editor's, or the one the person picks. */
export async function pickStore(stores: LoreStores, hint?: vscode.Uri): Promise<FolderStore> {
  const folders = stores.folders();
  if (!folders.length) {
    if (!vscode.workspace.isTrusted) throw new Error(`Lore is off in Restricted Mode: ${UNTRUSTED_HINT}`);
    throw new Error('open a folder first: Lore keeps one store per workspace folder');
  }
  if (folders.length === 1) return stores.get(folders[0]);
  const own = hint ?? vscode.window.activeTextEditor?.document.uri;
  const mine = own && vscode.workspace.getWorkspaceFolder(own)?.uri.fsPath;
  if (mine && folders.includes(mine)) return stores.get(mine);
  const picked = required(await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder’s memory?' }));
  return stores.get(picked.uri.fsPath);
}

/** A record chosen from a list when the command was run from the palette. */
export async function pickMemory(store: FolderStore, placeHolder: string, statuses?: string[]): Promise<MemoryTarget> {
  const { items: memories } = await readPages((offset) => store.api.list({ statuses, offset, limit: 200 }), 1000);
  const items = memories.map((m): vscode.QuickPickItem & { key: string } => ({
    label: m.title,
    description: `${m.key} · ${m.status}`,
    detail: m.description,
    key: m.key,
  }));
  if (!items.length) throw new Error('there are no matching memories in this folder');
  const picked = required(
    await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, matchOnDetail: true }),
  );
  return { folder: store.folder, key: picked.key };
}

/** The target from the invocation, else one the person picks. */
export async function resolveTarget(
  stores: LoreStores,
  arg: unknown,
  placeHolder: string,
  statuses?: string[],
): Promise<{ store: FolderStore; key: string }> {
  const given = memoryTarget(arg);
  if (given) return { store: stores.get(given.folder), key: given.key };
  const store = await pickStore(stores);
  return { store, key: (await pickMemory(store, placeHolder, statuses)).key };
}
