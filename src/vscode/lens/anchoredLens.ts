// Memory at the point of edit: a CodeLens above each symbol (or the top of a file) that memories
// or ADRs are anchored to, and a hover on that line with each record and its actions. Cheap by
// design: one `anchoredTo` lookup per open file (the drift table's target index), kept until the
// store reports its data changed; per version of a document only the lines are placed again (the
// file's definitions, found once per version). A store this window has not opened is not opened
// for a lens, and `lore.codeLens.enabled` turns all of it off.

import * as vscode from 'vscode';
import { relative, sep } from 'node:path';
import { markdownHeadings, type AnchoredRecord, type Logger } from '../../engine';
import { definitionsOf } from '../definitions';
import type { FolderStore } from '../folderStore';
import type { LoreSettings } from '../settings';
import type { LoreStores } from '../stores';
import { hoverMarkdown, lensGroups, lensTitle, type LensGroup } from './lensModel';

export const SHOW_ANCHORED = 'lore.showAnchored';

interface Placed {
  version: number;
  groups: Promise<LensGroup[]>;
}

export class AnchoredLens implements vscode.CodeLensProvider, vscode.HoverProvider, vscode.Disposable {
  private readonly records = new Map<string, Promise<AnchoredRecord[]>>();
  private readonly placed = new Map<string, Placed>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  /** How many lookups reached the store (the editor tier reads it: one per open file). */
  lookups = 0;

  constructor(
    private readonly stores: LoreStores,
    private readonly settings: (folder: string) => LoreSettings,
    private readonly log: Logger,
  ) {}

  /** The store's data changed (anyone's write, a drift check): look again when next asked. */
  invalidate(): void {
    this.records.clear();
    this.placed.clear();
    this.changed.fire();
  }

  private storeOf(uri: vscode.Uri): { store: FolderStore; path: string } | undefined {
    if (uri.scheme !== 'file' || !vscode.workspace.isTrusted) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
    if (!folder) return undefined;
    const store = this.stores.opened().find((s) => s.folder === folder);
    if (!store) return undefined;
    const path = relative(folder, uri.fsPath).split(sep).join('/');
    return path.startsWith('..') ? undefined : { store, path };
  }

  /** The lines of `document` that have records, placed once per version. */
  groupsOf(document: vscode.TextDocument): Promise<LensGroup[]> {
    const at = this.storeOf(document.uri);
    if (!at || !this.settings(at.store.folder).codeLens.enabled) return Promise.resolve([]);
    const key = document.uri.toString();
    const placed = this.placed.get(key);
    if (placed && placed.version === document.version) return placed.groups;
    let records = this.records.get(key);
    if (!records) {
      this.lookups++;
      records = at.store.api.anchoredTo(at.path).catch((error: Error) => {
        this.log.warn(`${at.path}: anchored records not read: ${error.message}`);
        this.records.delete(key);
        return [];
      });
      this.records.set(key, records);
    }
    const text = document.getText();
    const groups = records.then(async (list) => {
      if (!list.length) return [];
      const bySymbol = list.some((r) => r.symbol);
      const definitions = bySymbol ? await definitionsOf(at.path, text, this.log) : [];
      return lensGroups(list, definitions, bySymbol ? markdownHeadings(text) : []);
    });
    this.placed.set(key, { version: document.version, groups });
    return groups;
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const groups = await this.groupsOf(document);
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath ?? '';
    return groups.map((group) => {
      const range = new vscode.Range(group.line, 0, group.line, 0);
      return new vscode.CodeLens(range, {
        title: lensTitle(group.records),
        tooltip: group.records.map((r) => r.title).join('\n'),
        command: SHOW_ANCHORED,
        arguments: [{ folder, records: group.records }],
      });
    });
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const group = (await this.groupsOf(document)).find((g) => g.line === position.line);
    if (!group) return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri.fsPath ?? '';
    const markdown = new vscode.MarkdownString(hoverMarkdown(folder, group), true);
    markdown.isTrusted = {
      enabledCommands: ['lore.open', 'lore.recallRelated', 'lore.reverify', 'lore.reverifyAnchored', 'vscode.open'],
    };
    return new vscode.Hover(markdown, document.lineAt(position.line).range);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
