// Commands that resolve a doc's drifted reference, from a quick fix or the Drift view: update the
// link to where its target went (a WorkspaceEdit applied to the doc, left unsaved for the person to
// review and save), or re-verify it (the target accepted as it is now, in the store). Either way
// the finding clears at once; the engine's record keeps it cleared.

import * as vscode from 'vscode';
import { loreSays } from '../editorWording';
import { join } from 'node:path';
import type { DriftFinding } from '../contract';
import { relink } from '../drift/relink';
import type { CommandDeps } from './deps';
import { editorActor } from './ui';

interface FindingArg {
  folder?: string;
  finding?: DriftFinding;
  /** Findings folded into this one (drift/fold.ts): resolved with it. */
  also?: DriftFinding[];
}

function findingOf(arg: unknown): { folder: string; finding: DriftFinding; also: DriftFinding[] } {
  const node = arg as FindingArg;
  if (!node?.folder || !node.finding)
    throw new Error("run this from a drift warning's quick fix or an item in the Drift view");
  return { folder: node.folder, finding: node.finding, also: Array.isArray(node.also) ? node.also : [] };
}

export function registerDriftCommands(deps: CommandDeps): void {
  const { register, stores, tracker } = deps;

  register('lore.updateReference', async (arg?: unknown) => {
    const { folder, finding, also } = findingOf(arg);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(join(folder, finding.source.path ?? '')));
    const line = Math.max(0, (finding.source.line ?? 1) - 1);
    const change = relink(finding, line < document.lineCount ? document.lineAt(line).text : '');
    if ('problem' in change) throw new Error(change.problem);
    const range = new vscode.Range(change.line, change.start, change.line, change.end);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, range, change.text, {
      label: `Point ${finding.reference.raw} at ${change.text}`,
      needsConfirmation: false,
    });
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error(`the editor did not apply the change to ${finding.source.path}`);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    editor.selection = new vscode.Selection(change.line, change.start, change.line, change.start + change.text.length);
    editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenter);
    // Folded into it (a flag of the script the line runs): it follows the new name once the doc is saved.
    for (const f of [finding, ...also]) tracker.resolved(folder, f.id);
    vscode.window.setStatusBarMessage(
      loreSays(`${finding.reference.raw} → ${change.text} in ${finding.source.path} (save to keep it)`),
      5000,
    );
  });

  register('lore.dismissReference', async (arg?: unknown) => {
    const { folder, finding } = findingOf(arg);
    if (finding.source.kind !== 'doc')
      throw new Error("a memory's anchors are its own: edit the record, or supersede or dispute it");
    await stores.get(folder).api.dismissReference(editorActor(), finding.id);
    tracker.resolved(folder, finding.id);
    vscode.window.setStatusBarMessage(
      loreSays(
        `${finding.reference.raw} in ${finding.source.path} is no longer tied to ${finding.reference.target_path}`,
      ),
      5000,
    );
  });

  register('lore.reverifyReference', async (arg?: unknown) => {
    const { folder, finding, also } = findingOf(arg);
    if (finding.source.kind !== 'doc')
      return vscode.commands.executeCommand('lore.reverify', { folder, key: finding.source.key });
    // The file-wide reference on the same line was shown as part of this one: accepted with it.
    for (const f of [finding, ...also.filter((a) => a.source.kind === 'doc')]) {
      await stores.get(folder).api.reverifyReference(editorActor(), f.id);
      tracker.resolved(folder, f.id);
    }
    vscode.window.showInformationMessage(
      loreSays(
        `${finding.reference.raw} in ${finding.source.path} re-verified against ` +
          `${finding.evidence.new_path ?? finding.reference.target_path}.`,
      ),
    );
  });
}
