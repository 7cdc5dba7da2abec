// Editing a memory in the editor (`lore-edit:` documents, see memoryFrontMatter.ts): opening one
// reads the record; saving writes a new version with expected_version = the version the text
// was based on. When the record changed meanwhile (another window, an agent, the CLI), nothing is
// overwritten and nothing is lost: VS Code's save ends without its generic error, the person's text
// stays unsaved (its header naming the stored version), a diff editor shows the stored version
// beside it to merge, and the next save is based on that version. After a save that went through,
// the document is read again, so its header names the version actually stored.

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
  /** Saved through this editor: VS Code holds the text as typed, to be read again as stored (saved()). */
  reread?: boolean;
}

/** `content` with its generated header line naming `memory` instead; null when it has no header line. */
function withHeader(content: string, memory: Memory): string | null {
  const lines = content.split('\n');
  if (lines.length < 2 || lines[0] !== '---' || !lines[1].startsWith('# ')) return null;
  lines[1] = editableHeader(memory);
  return lines.join('\n');
}

/** Whether a diff editor whose right side is `edited` is open. */
function diffShown(edited: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some(
      (tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === edited.toString(),
    ),
  );
}

/**
 * The edit document holding `draft` (the person's text, its header restamped), unsaved: the text VS
 * Code just "saved" is rewritten to it. Only the header line differs while the document is still
 * open; one closed by the save (Save on close) is opened again and given the whole draft back.
 */
async function keepDraft(uri: vscode.Uri, draft: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  if (document.getText() === draft && document.isDirty) return;
  const edit = new vscode.WorkspaceEdit();
  const [header, ...rest] = draft.split('\n').slice(1);
  const sameBelow = document.lineCount > 1 && document.getText().split('\n').slice(2).join('\n') === rest.join('\n');
  if (sameBelow) edit.replace(uri, document.lineAt(1).range, header);
  else edit.replace(uri, document.validateRange(new vscode.Range(0, 0, document.lineCount, 0)), draft);
  await vscode.workspace.applyEdit(edit);
}

export class MemoryEditor implements vscode.FileSystemProvider, vscode.TextDocumentContentProvider {
  private readonly changedFiles = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changedFiles.event;
  private readonly changedStored = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changedStored.event;
  /** Per edit document: the version its text came from (what a save expects to replace). */
  private readonly bases = new Map<string, Base>();
  /** Per edit document whose save lost a race: gives the person's text back once the save has ended. */
  private readonly drafts = new Map<string, () => Promise<void>>();

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
    const base =
      known && (editing || (known.version === memory.version && !known.reread)) ? known : this.baseOf(memory);
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
      // The person's text, its generated header naming the version the next save builds on, so the
      // diff shows only what people wrote, not "version 1" against "version 2".
      const draft = withHeader(Buffer.from(content).toString('utf8'), { ...stored, version });
      // The next save is based on what the person has now been shown (the stat stays as it was).
      const shown = this.bases.get(uri.toString()) ?? this.baseOf(memory);
      this.bases.set(uri.toString(), { ...shown, version, reread: false });
      const storedUri = editUri(folder, key, STORED_SCHEME);
      this.changedStored.fire(storedUri);
      const title = `${key}: stored version ${version} ↔ your edit`;
      const open = () => vscode.commands.executeCommand('vscode.diff', storedUri, uri, title, { preview: false });
      const message =
        `${key} changed since you opened it (now version ${version}): nothing was overwritten. ` +
        'Merge from the stored version shown beside your edit, then save again.';
      // Without its generated header the text cannot be given back as a draft: the save fails instead
      // (VS Code keeps the text unsaved and says why), and the diff still opens.
      if (draft === null) {
        setTimeout(() => void open(), 0);
        throw vscode.FileSystemError.Unavailable(message);
      }
      // VS Code's own save error would offer Save As… and Overwrite: instead its save "succeeds",
      // storing nothing, and the draft is given back unsaved beside the stored version once VS Code
      // has finished the save (saved()): given back earlier, the save's end marks it clean again.
      // Asked for while the save is still settling, the diff is sometimes dropped (about one run in
      // ten in code-server 1.139): asked once more, a moment later, if no diff came.
      this.drafts.set(uri.toString(), async () => {
        await keepDraft(uri, draft);
        await open();
        if (!diffShown(uri)) setTimeout(() => void (diffShown(uri) || open()), 300);
        vscode.window.setStatusBarMessage(`Lore did not save: ${message}`, 10_000);
      });
      return;
    }
    const saved = await this.current(uri);
    // VS Code keeps the text it just wrote (the header still naming the version it was based on):
    // its stat stays as it was until the save has settled, then the document is read again (saved()).
    const shown = this.bases.get(uri.toString()) ?? this.baseOf(memory);
    this.bases.set(uri.toString(), {
      version: saved.version,
      mtime: shown.mtime,
      size: content.byteLength,
      reread: true,
    });
    vscode.window.setStatusBarMessage(`Lore saved ${key} as version ${saved.version}`, 4000);
  }

  /**
   * After VS Code saved an edit document: a lost race's draft is given back (writeFile); a save that
   * went through is read again, so its header names the version stored.
   */
  saved(document: vscode.TextDocument): void {
    if (document.uri.scheme !== EDIT_SCHEME) return;
    const draft = this.drafts.get(document.uri.toString());
    this.drafts.delete(document.uri.toString());
    if (draft) return void draft();
    if (!this.bases.get(document.uri.toString())?.reread) return;
    this.changedFiles.fire([{ type: vscode.FileChangeType.Changed, uri: document.uri }]);
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
