// Set Kind… and Clear Kind Correction on a document (a row of Runbooks & Docs, or the active
// editor's file): a person's kind, written to the workspace's committed .lore/kinds through the
// store's owner — the same path the CLI's `kind set` takes — which re-indexes what the rule
// changes before it answers, so the views redraw with the document in its new group.

import * as vscode from 'vscode';
import { loreSays } from '../editorWording';
import { relative, sep } from 'node:path';
import { DOC_KINDS, literalGlob, type DocKind } from '../../engine';
import type { FolderStore } from '../folderStore';
import type { LoreStores } from '../stores';
import { KIND_CHOICES, kindName } from '../views/labels';
import type { LoreNode } from '../views/treeModel';
import type { CommandDeps } from './deps';
import { required } from './ui';

interface DocTarget {
  store: FolderStore;
  path: string;
  kind: DocKind;
  /** The .lore/kinds glob that set its kind, when a person's rule did. */
  rule?: string;
}

/** The document a command applies to: the tree row it was run on, else the file given or open in the editor. */
async function docTarget(stores: LoreStores, arg: unknown): Promise<DocTarget> {
  const node = arg as Partial<LoreNode> | undefined;
  if (node && typeof node === 'object' && node.kind === 'doc' && node.doc && typeof node.folder === 'string')
    return { store: stores.get(node.folder), path: node.doc.path, kind: node.doc.kind, rule: node.doc.kind_rule };
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file')
    throw new Error('open a document of this workspace first, or use the document’s menu in Runbooks & Docs');
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) throw new Error(`${uri.fsPath} is not in a folder of this workspace`);
  const store = stores.get(folder.uri.fsPath);
  const path = relative(folder.uri.fsPath, uri.fsPath).split(sep).join('/');
  const doc = (await store.api.listDocs({ paths: [path], limit: 1 })).items[0];
  if (!doc)
    throw new Error(
      `Lore has not indexed ${path}, so it has no kind to set (the lore.index.include setting adds files to the index)`,
    );
  return { store, path, kind: doc.kind, rule: doc.kind_rule };
}

const article = (name: string) => (/^[aeiou]/i.test(name) || /^(ADR|RFC|README)$/.test(name) ? 'an' : 'a');

export function registerKindCommands(deps: CommandDeps, refreshViews: () => void): void {
  const { register, stores } = deps;

  register('lore.setKind', async (arg?: unknown) => {
    const target = await docTarget(stores, arg);
    const items = DOC_KINDS.map((kind) => ({
      label: `${kind === target.kind ? '$(check) ' : ''}${KIND_CHOICES[kind].label}`,
      description: kind === target.kind ? (target.rule ? 'current, set by a person' : 'current') : undefined,
      detail: KIND_CHOICES[kind].detail,
      // (QuickPickItem's own `kind` is a separator flag)
      docKind: kind,
    }));
    const picked = required(
      await vscode.window.showQuickPick(items, {
        title: `Set Kind of ${target.path}`,
        placeHolder: `What is ${target.path}? (saved in .lore/kinds, which your team shares through git)`,
      }),
    );
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Lore: setting the kind of ${target.path}` },
      () => target.store.api.setKind(target.store.folder, target.path, picked.docKind),
    );
    refreshViews();
    const name = kindName(picked.docKind);
    vscode.window.showInformationMessage(
      loreSays(
        `${target.path} is ${article(name)} ${name} now. Saved in .lore/kinds: commit it to share it with your team.`,
      ),
    );
  });

  register('lore.clearKind', async (arg?: unknown) => {
    const target = await docTarget(stores, arg);
    if (target.rule === undefined) {
      vscode.window.showInformationMessage(loreSays(`nobody set the kind of ${target.path}; Lore found it.`));
      return;
    }
    // A rule for a whole folder sets other documents too: the person says whether it goes for all of them.
    if (target.rule !== literalGlob(target.path)) {
      const row = (await target.store.api.listKinds(target.store.folder)).rules.find((r) => r.glob === target.rule);
      required(
        await vscode.window.showWarningMessage(
          `Clear the kind set for "${target.rule}"?`,
          {
            modal: true,
            detail:
              `The rule in .lore/kinds sets ${row?.decides ?? 'several'} document(s), ${target.path} among them, ` +
              `to ${kindName(target.kind)}. Cleared, each gets the kind Lore finds.`,
          },
          'Clear',
        ),
      );
    }
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Lore: clearing the kind set for ${target.path}` },
      () => target.store.api.removeKind(target.store.folder, target.rule!),
    );
    refreshViews();
    const now = (await target.store.api.listDocs({ paths: [target.path], limit: 1 })).items[0]?.kind;
    vscode.window.showInformationMessage(
      loreSays(`${target.path} has the kind Lore finds again${now ? ` (${kindName(now)})` : ''}.`),
    );
  });
}
