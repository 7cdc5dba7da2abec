// Editing a memory in the editor (`lore-edit:` documents, see memoryFrontMatter.ts): opening one
// reads the record; saving writes a new version with expected_version = the version the text
// was based on. When the record changed meanwhile (another window, an agent, the CLI), nothing is
// overwritten: the save fails, a diff editor shows the stored version beside yours to merge, and
// the next save is based on that version.

import * as vscode from 'vscode';
import type { Memory } from '../engine';
import { editorActor } from './commands/ui';
import { FrontMatterError, editableHeader, parseEditable, renderEditable } from './memoryFrontMatter';
import type { LoreStores } from './stores';

export const EDIT_SCHEME = 'lore-edit';
/** Read-only: the stored version, in the same form, for the diff after a lost race. */
export const STORED_SCHEME = 'lore-stored';

export function editUri(folder: string, key: string, scheme = EDIT_SCHEME): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${key}.md`, query: encodeURIComponent(folder) });
}

function target(uri: vscode.Uri): { folder: string; key: string } {
  return { folder: decodeURIComponent(uri.query), key: uri.path.replace(/^\//, '').replace(/\.md$/, '') };
}

interface Base {
  version: number;
  mtime: number;
  size: number;
}

/** Whether a diff editor whose right side is `edited` is open. */
function diffShown(edited: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some(
      (tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === edited.toString(),
    ),
  );
}

/** Rewrites the open edit document's header line (editableHeader) for `memory`, if it says otherwise. */
async function restampHeader(uri: vscode.Uri, memory: Memory): Promise<void> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!document || document.lineCount < 2) return;
  const line = document.lineAt(1);
  const header = editableHeader(memory);
  if (!line.text.startsWith('# ') || line.text === header) return;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, line.range, header);
  await vscode.workspace.applyEdit(edit);
}

export class MemoryEditor implements vscode.FileSystemProvider, vscode.TextDocumentContentProvider {
  private readonly changedFiles = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changedFiles.event;
  private readonly changedStored = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changedStored.event;
  /** Per edit document: the version its text came from (what a save expects to replace). */
  private readonly bases = new Map<string, Base>();

  constructor(private readonly stores: LoreStores) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  private async current(uri: vscode.Uri) {
    const { folder, key } = target(uri);
    try {
      return (await this.stores.get(folder).api.get(key)).memory;
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // Under a person's unsaved edits, the base version's time and size: VS Code sees no change,
    // and the version check at save time decides (and shows the diff). A clean document whose
    // record moved on gets the new version's, so VS Code reads it again. Decided here, when VS Code
    // asks, not when the store's change is heard: that news can arrive after the person started
    // typing, and a newer time under their edits makes VS Code refuse the save itself, with no diff.
    const memory = await this.current(uri);
    const known = this.bases.get(uri.toString());
    const editing = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.isDirty);
    const base = known && (editing || known.version === memory.version) ? known : this.baseOf(memory);
    return { type: vscode.FileType.File, ctime: Date.parse(memory.recorded_at), mtime: base.mtime, size: base.size };
  }

  private baseOf(memory: Memory): Base {
    const size = Buffer.byteLength(renderEditable(memory));
    return { version: memory.version, mtime: Date.parse(memory.updated_at), size };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const memory = await this.current(uri);
    this.bases.set(uri.toString(), this.baseOf(memory));
    return Buffer.from(renderEditable(memory), 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const { folder, key } = target(uri);
    let edited;
    try {
      edited = parseEditable(Buffer.from(content).toString('utf8'));
    } catch (error) {
      if (error instanceof FrontMatterError) {
        throw vscode.FileSystemError.NoPermissions(`Lore did not save ${key}: ${error.message}`);
      }
      throw error;
    }
    const store = this.stores.get(folder);
    const memory = await this.current(uri);
    const base = this.bases.get(uri.toString())?.version ?? memory.version;
    const result = await store.api.remember(editorActor(), {
      key,
      type: memory.type,
      ...edited,
      expected_version: base,
      provenance: { source: 'user', client: 'vscode' },
    });
    if (!result.saved) {
      const stored = await this.current(uri).catch(() => memory);
      const version = result.conflict.current_version ?? stored.version;
      // The next save is based on what the person has now been shown (the stat stays as it was).
      const shown = this.bases.get(uri.toString()) ?? this.baseOf(memory);
      this.bases.set(uri.toString(), { ...shown, version });
      const storedUri = editUri(folder, key, STORED_SCHEME);
      this.changedStored.fire(storedUri);
      // Both versions side by side to merge: the stored one (read-only) left, the person's edit
      // right, where they merge and save again. Asked for once the failed save has returned.
      const title = `${key}: stored version ${version} ↔ your edit`;
      const open = () => vscode.commands.executeCommand('vscode.diff', storedUri, uri, title, { preview: false });
      // Asked for while the failed save is still settling, the diff is sometimes dropped (about one
      // run in ten in code-server 1.139): asked once more, a moment later, if no diff tab came.
      // The edit's generated header first names the version its next save builds on, so the diff
      // shows only what people wrote, not "version 1" against "version 2".
      setTimeout(() => {
        void restampHeader(uri, { ...stored, version })
          .then(open)
          .then(() => {
            if (!diffShown(uri)) setTimeout(() => void (diffShown(uri) || open()), 300);
          });
      }, 0);
      throw vscode.FileSystemError.Unavailable(
        `${key} changed since you opened it (now version ${version}): nothing was overwritten. ` +
          'Merge from the stored version shown beside your edit, then save again.',
      );
    }
    const saved = await this.current(uri);
    this.bases.set(uri.toString(), this.baseOf(saved));
    vscode.window.setStatusBarMessage(`Lore saved ${key} as version ${saved.version}`, 4000);
  }

  /** The stored version for the diff (STORED_SCHEME). */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return renderEditable(await this.current(uri.with({ scheme: EDIT_SCHEME })));
  }

  /** After the store changed: open documents nobody is editing are re-read. */
  storeChanged(): void {
    const events: vscode.FileChangeEvent[] = [];
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== EDIT_SCHEME || doc.isDirty) continue;
      // The version a save expects stays until VS Code re-reads the document (readFile).
      events.push({ type: vscode.FileChangeType.Changed, uri: doc.uri });
    }
    if (events.length) this.changedFiles.fire(events);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('memories are not folders');
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions('use Lore: Forget… to delete a memory');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('a memory’s key does not change; supersede it instead');
  }

  dispose(): void {
    this.changedFiles.dispose();
    this.changedStored.dispose();
  }
}
