// What the editor tests share: Lore's extension, its contributed views and commands, the seeded
// workspace, and the store read back through the real CLI (another door onto the same store).

import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { ENV } from '../seed';

export const EXTENSION_ID = 'lore-dev.lore';
export const CONTAINER_ID = 'lore';

export function loreExtension(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded in this editor`);
  return extension;
}

export async function activeLore(): Promise<vscode.Extension<unknown>> {
  const extension = loreExtension();
  if (!extension.isActive) await extension.activate();
  return extension;
}

interface ViewContribution {
  id: string;
  name: string;
}

/** The views package.json puts in Lore's container, in order. */
export function contributedViews(): ViewContribution[] {
  const contributes = loreExtension().packageJSON.contributes ?? {};
  return (contributes.views?.[CONTAINER_ID] ?? []) as ViewContribution[];
}

/** The view whose name matches, e.g. /decisions/i; fails saying which views exist. */
export function viewNamed(pattern: RegExp): ViewContribution {
  const views = contributedViews();
  const view = views.find((candidate) => pattern.test(candidate.name) || pattern.test(candidate.id));
  if (!view) throw new Error(`no Lore view matches ${pattern}; contributed: ${JSON.stringify(views.map((v) => v.id))}`);
  return view;
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the editor opened no workspace folder');
  return folder.uri;
}

export function workspaceFile(path: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), path);
}

/**
 * Runs the built `lore` CLI against the seeded workspace and store; resolves with its parsed
 * --json output. Asynchronous on purpose: the store's owner serves from this very process (the
 * extension host), so blocking here would leave the CLI's request to it unanswered.
 */
export function loreCli(args: string[]): Promise<unknown> {
  const node = process.env[ENV.node] ?? process.execPath;
  const cli = process.env[ENV.cli];
  if (!cli) throw new Error(`${ENV.cli} is not set: run this suite through npm run test:editor`);
  return new Promise((resolve, reject) => {
    execFile(
      node,
      [cli, '--workspace', workspaceRoot().fsPath, '--json', ...args],
      { env: process.env },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`lore ${args.join(' ')} exited ${error.code}: ${stderr.trim()}`));
        resolve(JSON.parse(stdout));
      },
    );
  });
}

/** Marks a test skipped with the reason the runner prints. */
export function skip(context: Mocha.Context, reason: string): void {
  if (context.test) (context.test as Mocha.Runnable & { skipReason?: string }).skipReason = reason;
  context.skip();
}

/** Resolves with the next change that `accept` returns a value for; the mocha timeout bounds the wait. */
export function nextEvent<E, R>(
  event: vscode.Event<E>,
  accept: (e: E) => R | undefined,
  check?: () => R | undefined,
): Promise<R> {
  return new Promise((resolve) => {
    const now = check?.();
    if (now !== undefined) return resolve(now);
    const subscription = event((e) => {
      const value = accept(e);
      if (value !== undefined) {
        subscription.dispose();
        resolve(value);
      }
    });
  });
}

/**
 * Saves an edited document through the workspace API (TextDocument.save() answers false in a
 * code-server test host) and resolves once the extension host has seen the save: the promise of
 * workspace.save can settle before the news that clears the document's dirty flag arrives, and it
 * has answered undefined for a save that happened. The mocha timeout bounds a save that never comes.
 */
export async function saveFile(uri: vscode.Uri): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const saved = nextEvent(
    vscode.workspace.onDidSaveTextDocument,
    (d) => (d.uri.toString() === uri.toString() ? true : undefined),
    () => (document.isDirty ? undefined : true),
  );
  await vscode.workspace.save(uri);
  await saved;
}
