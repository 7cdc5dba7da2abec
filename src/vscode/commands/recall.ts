// Lore: Recall… — a quick pick that searches as you type (memories and indexed docs in one ranked
// list) and previews the highlighted result beside the picker.

import * as vscode from 'vscode';
import { join } from 'node:path';
import type { RecallHit } from '../../engine';
import { memoryUri } from '../memoryDocument';
import type { CommandDeps } from './deps';
import { pickStore } from './ui';

/** Keystrokes arrive faster than a search is worth running. */
const TYPING_PAUSE_MS = 200;

type HitItem = vscode.QuickPickItem & { hit: RecallHit };

export function hitItem(hit: RecallHit): HitItem {
  const flags = hit.flags.length ? ` · ${hit.flags.join(', ')}` : '';
  if (hit.record === 'doc') {
    return { label: `$(file) ${hit.title}`, description: `${hit.path}:${hit.lines[0]} · ${hit.kind}${flags}`, detail: hit.description, hit };
  }
  const icon = hit.type === 'dead_end' ? '$(circle-slash)' : hit.type === 'decision' ? '$(law)' : '$(note)';
  return { label: `${icon} ${hit.title}`, description: `${hit.key} · ${hit.status} · ${hit.basis}${flags}`, detail: hit.description, hit };
}

function target(folder: string, hit: RecallHit): { uri: vscode.Uri; line?: number } {
  return hit.record === 'doc' ? { uri: vscode.Uri.file(join(folder, hit.path)), line: hit.lines[0] - 1 } : { uri: memoryUri(folder, hit.key) };
}

async function show(folder: string, hit: RecallHit, preview: boolean): Promise<void> {
  const { uri, line } = target(folder, hit);
  const selection = line !== undefined ? new vscode.Range(line, 0, line, 0) : undefined;
  await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: preview, selection, viewColumn: preview ? vscode.ViewColumn.Beside : undefined });
}

export function registerRecall(deps: CommandDeps): void {
  deps.register('lore.recall', async () => {
    const store = await pickStore(deps.stores);
    const pick = vscode.window.createQuickPick<HitItem>();
    pick.placeholder = 'Recall decisions, dead ends, runbooks and docs — type what you are about to change';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    let timer: NodeJS.Timeout | undefined;
    let generation = 0;
    const search = (query: string) => {
      clearTimeout(timer);
      if (!query.trim()) {
        pick.items = [];
        return;
      }
      timer = setTimeout(async () => {
        const mine = ++generation;
        pick.busy = true;
        try {
          const result = await store.api.recall({ query, limit: 20 });
          if (mine !== generation) return; // a newer search is under way
          pick.items = result.results.map(hitItem);
          if (!result.results.length) pick.items = [{ label: 'No matches', detail: 'try other words, or Lore: Remember… to record it', alwaysShow: true } as HitItem];
        } catch (error) {
          deps.log.warn(`recall: ${(error as Error).message}`);
          pick.items = [{ label: 'Recall failed', detail: (error as Error).message, alwaysShow: true } as HitItem];
        } finally {
          if (mine === generation) pick.busy = false;
        }
      }, TYPING_PAUSE_MS);
    };
    await new Promise<void>((resolve) => {
      pick.onDidChangeValue(search);
      pick.onDidChangeActive((items) => {
        const hit = items[0]?.hit;
        if (hit) show(store.folder, hit, true).catch((error) => deps.log.debug(`recall preview: ${(error as Error).message}`));
      });
      pick.onDidAccept(() => {
        const hit = pick.selectedItems[0]?.hit;
        pick.hide();
        if (hit) show(store.folder, hit, false).catch((error) => deps.log.warn(`recall open: ${(error as Error).message}`));
      });
      pick.onDidHide(() => {
        clearTimeout(timer);
        pick.dispose();
        resolve();
      });
      pick.show();
    });
  });
}
