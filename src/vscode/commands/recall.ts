// Lore: Recall… — a quick pick that searches as you type (memories and indexed docs in one ranked
// list) and previews the highlighted result in the active group (recallPreview.ts). The list is
// the engine's ranking, as it ranked it: every row is always shown and the picker neither filters
// nor re-sorts it, since hits found by stemming or vectors need not share a letter with their label.

import * as vscode from 'vscode';
import { join } from 'node:path';
import { briefVerification, stillHolds, type RecallHit } from '../../engine';
import { memoryUri } from '../memoryDocument';
import type { CommandDeps } from './deps';
import { RecallPreview, type RecallTarget } from './recallPreview';
import { pickStore } from './ui';

/** Keystrokes arrive faster than a search is worth running. */
const TYPING_PAUSE_MS = 200;

type HitItem = vscode.QuickPickItem & { hit?: RecallHit; run?: string };

/**
 * Whether a hit still holds, as the list shows it: beside the key, its state and the records it
 * replaces or duplicates; the reason, as a warning, when it does not hold.
 */
function verificationOf(hit: RecallHit): { word: string; warning?: string } {
  const v = hit.verification;
  if (!v) return { word: '' };
  if (stillHolds(v)) return { word: ` · ${briefVerification(v)}` };
  return { word: ` · ${v.state.replace('_', ' ')}`, warning: `$(warning) ${v.reason}` };
}

export function hitItem(hit: RecallHit): HitItem {
  const flags = hit.flags.length ? ` · ${hit.flags.join(', ')}` : '';
  const verified = verificationOf(hit);
  const withWarning = (detail: string | undefined) =>
    verified.warning ? [verified.warning, detail].filter(Boolean).join(' — ') : detail;
  if (hit.record === 'doc') {
    const description = `${hit.path}:${hit.lines[0]} · ${hit.kind}${flags}`;
    // A doc's first chunk is often described by its own title: say it once.
    const detail = hit.description && hit.description !== hit.title ? hit.description : undefined;
    return { label: `$(file) ${hit.title}`, description, detail: withWarning(detail), hit, alwaysShow: true };
  }
  const icon = hit.type === 'dead_end' ? '$(circle-slash)' : hit.type === 'decision' ? '$(law)' : '$(note)';
  const description = `${hit.key} · ${hit.status} · ${hit.basis}${verified.word}${flags}`;
  return { label: `${icon} ${hit.title}`, description, detail: withWarning(hit.description), hit, alwaysShow: true };
}

/** What the list says when the engine found nothing: that, and the next steps as rows to accept. */
export function noMatchItems(query: string): HitItem[] {
  return [
    {
      label: `$(info) No matches for “${query.trim()}”`,
      detail: 'No memory or indexed document matches these words. Try other words, or:',
      alwaysShow: true,
    },
    {
      label: '$(add) Remember…',
      description: 'record what you know as a new memory',
      run: 'lore.remember',
      alwaysShow: true,
    },
    {
      label: '$(refresh) Reindex Workspace',
      description: 'if the docs you expected are not indexed yet',
      run: 'lore.reindex',
      alwaysShow: true,
    },
  ];
}

function target(folder: string, hit: RecallHit): RecallTarget {
  if (hit.record === 'doc') return { uri: vscode.Uri.file(join(folder, hit.path)), line: hit.lines[0] - 1 };
  return { uri: memoryUri(folder, hit.key) };
}

/**
 * The picker's own matching off: no description/detail matching, and no re-sorting of label
 * matches to the top. `sortByLabel` is not in the typed API this extension builds against; hosts
 * that have it (VS Code 1.139 does) honour it, others keep the engine's order for every row
 * whose label does not contain the typed text.
 */
export function keepEngineOrder<T extends vscode.QuickPickItem>(pick: vscode.QuickPick<T>): void {
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  try {
    (pick as unknown as { sortByLabel: boolean }).sortByLabel = false;
  } catch {
    // a host that guards the property: alwaysShow still keeps every row
  }
}

export function registerRecall(deps: CommandDeps): void {
  // `query`: what to search for at once (the hover's Recall related).
  deps.register('lore.recall', async (arg?: { query?: string }) => {
    const store = await pickStore(deps.stores);
    const pick = vscode.window.createQuickPick<HitItem>();
    pick.title = 'Lore: Recall';
    pick.placeholder = 'Recall decisions, dead ends, runbooks and docs — type what you are about to change';
    keepEngineOrder(pick);
    const preview = new RecallPreview();
    let accepted = false;
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
          if (!result.results.length) pick.items = noMatchItems(query);
        } catch (error) {
          deps.log.warn(`recall: ${(error as Error).message}`);
          pick.items = [{ label: '$(error) Recall failed', detail: (error as Error).message, alwaysShow: true }];
        } finally {
          if (mine === generation) pick.busy = false;
        }
      }, TYPING_PAUSE_MS);
    };
    await new Promise<void>((resolve) => {
      pick.onDidChangeValue(search);
      pick.onDidChangeActive((items) => {
        const hit = items[0]?.hit;
        const quiet = (error: Error) => deps.log.debug(`recall preview: ${error.message}`);
        if (hit) preview.preview(target(store.folder, hit)).catch(quiet);
      });
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (!item?.hit && !item?.run) return; // the "No matches" line itself does nothing
        accepted = item.hit !== undefined;
        pick.hide();
        const failed = (error: Error) => deps.log.warn(`recall open: ${error.message}`);
        if (item.hit) preview.open(target(store.folder, item.hit)).catch(failed);
        else if (item.run) void vscode.commands.executeCommand(item.run);
      });
      pick.onDidHide(() => {
        clearTimeout(timer);
        pick.dispose();
        if (!accepted) preview.cancel().catch((error) => deps.log.debug(`recall close: ${(error as Error).message}`));
        resolve();
      });
      pick.show();
      if (typeof arg?.query === 'string' && arg.query.trim()) {
        pick.value = arg.query;
        search(arg.query);
      }
    });
  });
}
