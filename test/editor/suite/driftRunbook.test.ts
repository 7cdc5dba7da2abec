// Issue 31's corrupted-runbook case in the real editor: a script a runbook runs is renamed (as `git
// mv` would, underscores to dashes). The runbook's line gets one warning, and its first (preferred)
// quick fix renames the script on that line — never "Update --dry-run to …" — leaving every other
// token of the line as it was; saved, the line is current again, flag included. The other runbook,
// whose generic flags follow other tools, gets no warning.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RUNBOOK } from '../seed';
import { activeLore, loreCli, nextEvent, saveFile, workspaceFile } from './lore';
import { ui, uiAvailable } from './ui';

interface Finding {
  source: { path?: string; line?: number };
  reference: { raw: string; target_path: string | null };
  state: string;
}

const runbook = () => workspaceFile(RUNBOOK.doc);

function loreDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Lore');
}

/** The runbook's Lore diagnostics once `accept` holds for them (now, or after the next change). */
function runbookDiagnostics(accept: (list: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const read = () => {
    const list = loreDiagnostics(runbook());
    return accept(list) ? list : undefined;
  };
  return nextEvent(vscode.languages.onDidChangeDiagnostics, read, read);
}

describe('Drift: the renamed script a runbook runs (issue 31)', function () {
  this.timeout(120_000);

  before(async () => {
    await activeLore();
    // The first index is done once the runbook's flag is stored, tied to the script its line runs.
    for (;;) {
      const refs = (await loreCli(['drift', 'list', '--path', RUNBOOK.doc, '--state', 'current'])) as Finding[];
      if (refs.some((f) => f.reference.raw === '--dry-run' && f.reference.target_path === RUNBOOK.script)) break;
    }
  });

  it('the first fix renames the script on the line and changes nothing else', async () => {
    const onLine = (list: vscode.Diagnostic[]) => list.filter((d) => d.range.start.line === RUNBOOK.line);
    const warned = runbookDiagnostics((list) => onLine(list).some((d) => d.code === 'drift.relocated'));
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(workspaceFile(RUNBOOK.script), workspaceFile(RUNBOOK.renamed));
    assert.ok(await vscode.workspace.applyEdit(edit), 'renamed the script');
    const warnings = onLine(await warned);
    assert.equal(warnings.length, 1, `one warning on the line: ${warnings.map((d) => d.message).join(' | ')}`);
    assert.deepEqual(loreDiagnostics(workspaceFile(RUNBOOK.other)), [], 'no warning on the runbook of other tools');

    const document = await vscode.workspace.openTextDocument(runbook());
    await vscode.window.showTextDocument(document, { preview: false });
    const before = document.lineAt(RUNBOOK.line).text;
    assert.equal(before, 'bash restore_db.bash --dry-run');
    await vscode.extensions.getExtension('vscode.markdown-language-features')?.activate();
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      runbook(),
      warnings[0].range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const lore = (actions ?? []).filter((a) => a.command?.command.startsWith('lore.'));
    const titles = lore.map((a) => a.title);
    assert.ok(!titles.some((t) => t.startsWith('Update --dry-run')), `no fix rewrites the flag: ${titles.join(' | ')}`);
    const [first] = lore;
    assert.equal(first?.title, 'Update restore_db.bash to restore-db.bash', titles.join(' | '));
    assert.ok(first.isPreferred, 'it is the preferred fix');
    await vscode.commands.executeCommand(first.command!.command, ...(first.command!.arguments ?? []));
    assert.equal(document.lineAt(RUNBOOK.line).text, 'bash restore-db.bash --dry-run', 'only the name changed');
    assert.deepEqual(
      onLine(loreDiagnostics(runbook())).map((d) => d.message),
      [],
      'the warning cleared at once, the flag folded into it with it',
    );
    if (uiAvailable()) await ui({ action: 'screenshot', name: 'drift-runbook-fixed', part: 'window' });
    await saveFile(runbook());
    const left = ((await loreCli(['drift', 'list', '--path', RUNBOOK.doc])) as Finding[]).filter(
      (f) => f.source.path === RUNBOOK.doc,
    );
    assert.deepEqual(left, [], 'after the save the runbook is current, its flag tied to the renamed script');
  });
});
