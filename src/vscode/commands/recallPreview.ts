// Where Recall… shows a result: in the active editor group, as a preview tab (the one tab VS Code
// replaces as you move through the list), or in the tab that already shows it, wherever that is.
// Escape closes the preview tabs this picker opened and gives focus back to where it was, so
// browsing results leaves no extra tab and no split group behind.

import * as vscode from 'vscode';

export interface RecallTarget {
  uri: vscode.Uri;
  /** Zero-based line to reveal (a doc hit's first line). */
  line?: number;
}

/** The text tab showing `uri`, in any group. */
function tabOf(uri: vscode.Uri): vscode.Tab | undefined {
  const wanted = uri.toString();
  for (const group of vscode.window.tabGroups.all) {
    const tab = group.tabs.find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === wanted);
    if (tab) return tab;
  }
  return undefined;
}

export class RecallPreview {
  /** URIs whose tab this picker opened (they had none before). */
  private readonly opened = new Set<string>();
  private readonly before = vscode.window.activeTextEditor;
  /** The group that was active when the picker opened: revealing a tab elsewhere must not move it. */
  private readonly home = vscode.window.tabGroups.activeTabGroup?.viewColumn ?? vscode.ViewColumn.Active;

  /** Shows a highlighted result without taking focus from the picker. */
  async preview(target: RecallTarget): Promise<void> {
    const existing = tabOf(target.uri);
    if (!existing) this.opened.add(target.uri.toString());
    await this.show(target, existing, true);
  }

  /** Opens the accepted result for editing: focused, and kept (no longer a preview tab). */
  async open(target: RecallTarget): Promise<void> {
    await this.show(target, tabOf(target.uri), false);
    this.opened.clear();
  }

  /** The picker closed without a choice: the preview tabs it opened go, focus returns. */
  async cancel(): Promise<void> {
    const ours = [...this.opened]
      .map((uri) => tabOf(vscode.Uri.parse(uri)))
      .filter((t): t is vscode.Tab => !!t && t.isPreview);
    this.opened.clear();
    if (ours.length) await vscode.window.tabGroups.close(ours, true);
    // The editor that was active, even if a preview replaced its tab (a preview tab of its own).
    const before = this.before;
    if (before) {
      const uri = before.document.uri;
      const tab = tabOf(uri);
      const viewColumn = tab?.group.viewColumn ?? before.viewColumn;
      const preview = tab?.isPreview ?? true;
      await vscode.window.showTextDocument(uri, { viewColumn, selection: before.selection, preview });
    }
  }

  private async show(target: RecallTarget, existing: vscode.Tab | undefined, preview: boolean): Promise<void> {
    const selection = target.line !== undefined ? new vscode.Range(target.line, 0, target.line, 0) : undefined;
    await vscode.window.showTextDocument(target.uri, {
      // The tab that already shows it, else the active group: never a new group beside it.
      viewColumn: existing?.group.viewColumn ?? this.home,
      preview: preview ? (existing ? existing.isPreview : true) : false,
      preserveFocus: preview,
      selection,
    });
  }
}
