// Lore: Open Anchor: the file (and line or symbol) a record or a drift finding points at, following
// a move drift saw, and never opening a file that is gone.

import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { anchorTarget, openableAnchors } from '../../engine';
import type { DriftFinding } from '../contract';
import type { CommandDeps } from './deps';
import { required, resolveTarget } from './ui';

export async function openAnchor(deps: CommandDeps, arg: unknown): Promise<void> {
  const node = arg as { folder?: string; finding?: DriftFinding };
  let folder: string;
  let path: string | null;
  let symbol: string | null;
  if (node?.finding && node.folder) {
    folder = node.folder;
    const f = node.finding;
    // A relocated target opens where it went (`path` or `path#L10-L12`).
    const moved = f.evidence.new_path ? anchorTarget(f.evidence.new_path) : null;
    path = moved?.path ?? f.reference.target_path;
    symbol = moved ? moved.fragment : (f.reference.symbol ?? null);
    if (!path && /^https?:\/\//i.test(f.reference.raw))
      return void (await vscode.env.openExternal(vscode.Uri.parse(f.reference.raw)));
    if (!path) throw new Error(`${f.reference.raw} names no file of this workspace (${f.evidence.detail})`);
  } else {
    const { store, key } = await resolveTarget(deps.stores, arg, 'Open an anchor of which memory?');
    folder = store.folder;
    const { memory } = await store.api.get(key);
    const anchors = openableAnchors(memory);
    if (!anchors.length) throw new Error(`${key} has no anchors`);
    const choose = async () =>
      required(await vscode.window.showQuickPick(anchors, { placeHolder: `Anchors of ${key}` }));
    const picked = anchors.length === 1 ? anchors[0] : await choose();
    const anchor = anchorTarget(picked);
    if (anchor?.url) return void (await vscode.env.openExternal(vscode.Uri.parse(anchor.url)));
    if (!anchor?.path) throw new Error(`${picked} names no file of this workspace`);
    path = anchor.path;
    symbol = anchor.fragment;
    // An anchor whose file moved opens where drift found it (re-verify moves the anchor there for good).
    if (!existsSync(join(folder, path))) {
      const findings = await store.api.driftFindings({ key });
      const moved = findings.find((f) => f.reference.target_path === path && f.evidence.new_path);
      const to = moved ? anchorTarget(moved.evidence.new_path!) : null;
      if (to?.path) [path, symbol] = [to.path, to.fragment ?? symbol];
    }
  }
  // Never open a file that is no longer there (VS Code would show an empty editor for it).
  if (!existsSync(join(folder, path)))
    throw new Error(`${path} no longer exists: re-verify the record to follow a move, or update its anchors`);
  const editor = await vscode.window.showTextDocument(vscode.Uri.file(join(folder, path)), { preview: true });
  const lines = symbol ? /^L(\d+)(?:-L?(\d+))?$/.exec(symbol) : null;
  if (lines) {
    const at = new vscode.Position(Math.max(0, Number(lines[1]) - 1), 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
  } else if (symbol) {
    const name = symbol.split('.').pop()!;
    const index = editor.document.getText().search(new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
    if (index >= 0) {
      const at = editor.document.positionAt(index);
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
    }
  }
}
