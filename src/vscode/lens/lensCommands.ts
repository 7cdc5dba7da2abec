// The lens's and hover's actions: the records of a line in a list (the lens), recall of what is
// related to one of them, and re-verifying an ADR's reference to this code. Opening and
// re-verifying a memory are the memory commands' own (lore.open, lore.reverify).

import * as vscode from 'vscode';
import { join } from 'node:path';
import type { AnchoredRecord } from '../../engine';
import type { CommandDeps } from '../commands/deps';
import { editorActor, required } from '../commands/ui';
import { kindWord } from './lensModel';
import { SHOW_ANCHORED } from './anchoredLens';

interface LineArg {
  folder: string;
  records: AnchoredRecord[];
}

async function openRecord(folder: string, record: AnchoredRecord): Promise<void> {
  if (record.source === 'memory') await vscode.commands.executeCommand('lore.open', { folder, key: record.id });
  else await vscode.window.showTextDocument(vscode.Uri.file(join(folder, record.id)), { preview: true });
}

export function registerLensCommands(deps: CommandDeps, changed: () => void): void {
  deps.register(SHOW_ANCHORED, async (arg?: LineArg) => {
    if (!arg?.records?.length) return;
    const { folder, records } = arg;
    const kind = (r: AnchoredRecord) => kindWord(r.kind);
    const picked =
      records.length === 1
        ? records[0]
        : required(
            await vscode.window.showQuickPick(
              records.map((r) => ({
                label: `${r.kind === 'dead_end' ? '$(warning) ' : ''}${r.title}`,
                description: `${kind(r)}${r.state === 'current' ? '' : ` · ${r.state}`}`,
                detail: r.description || r.id,
                record: r,
              })),
              { placeHolder: 'Anchored here: open which one?' },
            ),
          ).record;
    await openRecord(folder, picked);
  });
  deps.register('lore.recallRelated', async (arg?: { query?: string }) => {
    await vscode.commands.executeCommand('lore.recall', { query: arg?.query ?? '' });
  });
  deps.register('lore.reverifyAnchored', async (arg?: { folder?: string; finding?: string }) => {
    if (!arg?.folder || !arg.finding) throw new Error('hover over an anchored line to re-verify its reference');
    const finding = await deps.stores.get(arg.folder).api.reverifyReference(editorActor(), arg.finding);
    changed();
    vscode.window.showInformationMessage(
      `${finding.reference.raw} in ${finding.source.path} is re-verified against the code as it is now.`,
    );
  });
}
