// The lifecycle acts on one memory: forget, deprecate, dispute, retract, supersede and promote.
// Each picker offers only the records the engine lets make the change (canBecome), and the acts a
// person alone may take ask a modal yes first.

import * as vscode from 'vscode';
import { canBecome, MEMORY_TYPES, STATUSES } from '../../engine';
import type { Status, StatusChange, Transition } from '../../engine';
import type { FolderStore } from '../folderStore';
import type { CommandDeps } from './deps';
import { keepEngineOrder } from './recall';
import { editorActor, required, resolveTarget } from './ui';

async function ask(prompt: string, value = '', optional = false): Promise<string> {
  const answer = required(
    await vscode.window.showInputBox({
      prompt,
      value,
      ignoreFocusOut: true,
      validateInput: (v) => (optional || v.trim() ? undefined : 'required'),
    }),
  );
  return answer.trim();
}

/** The statuses a picker offers for an act: those the engine lets become `to` (canBecome), no copy of its table. */
function becoming(to: Transition): Status[] {
  return STATUSES.filter((from) => canBecome(from, to));
}

async function setStatus(deps: CommandDeps, arg: unknown, status: StatusChange): Promise<void> {
  const { store, key } = await resolveTarget(deps.stores, arg, `Which memory is ${status}?`, becoming(status));
  const verb = { deprecated: 'deprecate', disputed: 'dispute', retracted: 'retract' }[status];
  const reason = await ask(`Why ${verb} ${key}? (recorded with it)`);
  const confirmed = status === 'retracted';
  if (confirmed)
    required(
      await vscode.window.showWarningMessage(
        `Retract ${key}? It stays as a tombstone and is never recalled again.`,
        { modal: true },
        'Retract',
      ),
    );
  const result = await store.api.setStatus(editorActor(confirmed), key, status, reason);
  vscode.window.showInformationMessage(`${key} is now ${result.status}.`);
}

/**
 * The record that replaces `key`, from a list that searches as you type (the engine's recall over
 * memories, in its order) and starts from records like the one being replaced.
 */
async function pickSuccessor(store: FolderStore, key: string): Promise<string> {
  const { memory } = await store.api.get(key);
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { key?: string }>();
  pick.title = `Lore: Supersede ${key}`;
  pick.placeholder = 'Which memory replaces it? Type to search';
  keepEngineOrder(pick);
  let generation = 0;
  const search = async (query: string) => {
    const mine = ++generation;
    pick.busy = true;
    try {
      // Memories only (every type named, no doc kind): a doc cannot replace a record.
      const text = query.trim() || `${memory.title} ${memory.description}`;
      const result = await store.api.recall({ query: text, limit: 20, types: [...MEMORY_TYPES] });
      if (mine !== generation) return;
      const items = result.results.flatMap((hit) =>
        hit.record === 'memory' && hit.key !== key
          ? [{ label: hit.title, description: `${hit.key} · ${hit.status}`, detail: hit.description, key: hit.key }]
          : [],
      );
      const none = {
        label: `$(info) No other memory matches “${query.trim()}”`,
        detail: 'Remember the new one first (Lore: Remember…), then supersede.',
      };
      // alwaysShow: the engine's list, unfiltered by the picker.
      pick.items = (items.length ? items : [none]).map((item) => ({ ...item, alwaysShow: true }));
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };
  const chosen = await new Promise<string | undefined>((resolve) => {
    pick.onDidChangeValue((v) => void search(v));
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0]?.key;
      if (!picked) return;
      resolve(picked);
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(undefined);
    });
    pick.show();
    void search('');
  });
  return required(chosen);
}

/** Lore: Forget, Deprecate, Dispute, Retract, Supersede and Promote. */
export function registerLifecycleCommands(deps: CommandDeps): void {
  const { register, stores } = deps;
  register('lore.forget', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(stores, arg, 'Forget which memory? (deleted everywhere, for good)', [
      'active',
      'disputed',
      'deprecated',
      'superseded',
      'quarantined',
      'retracted',
    ]);
    required(
      await vscode.window.showWarningMessage(
        `Forget ${key}?`,
        {
          modal: true,
          detail:
            'Its content is deleted everywhere it lives, every kept version ' +
            'included. The audit log keeps only digests. This cannot be ' +
            'undone.',
        },
        'Forget',
      ),
    );
    const receipt = await store.api.forget(editorActor(true), key);
    vscode.window.showInformationMessage(`Forgot ${receipt.key}: ${receipt.versions_removed} version(s) removed.`);
  });

  register('lore.deprecate', (arg?: unknown) => setStatus(deps, arg, 'deprecated'));
  register('lore.dispute', (arg?: unknown) => setStatus(deps, arg, 'disputed'));
  register('lore.retract', (arg?: unknown) => setStatus(deps, arg, 'retracted'));

  register('lore.supersede', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(stores, arg, 'Which memory is superseded?', becoming('superseded'));
    const next = await pickSuccessor(store, key);
    await store.api.supersede(editorActor(), key, next);
    vscode.window.showInformationMessage(`${key} is superseded by ${next}.`);
  });

  // Promotion lets a quarantined record be recalled by agents: only a person, only after a modal yes.
  register('lore.promote', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(stores, arg, 'Promote which quarantined memory?', becoming('active'));
    const { memory } = await store.api.get(key);
    required(
      await vscode.window.showWarningMessage(
        `Promote ${key} out of quarantine?`,
        {
          modal: true,
          detail:
            `“${memory.title}” came from ` +
            `${memory.provenance.source}${memory.provenance.client ? ` (${memory.provenance.client})` : ''}. ` +
            `Once promoted, agents recall it as memory. Read it first if you ` +
            `have not.`,
        },
        'Promote',
      ),
    );
    await store.api.promote(editorActor(true), key);
    vscode.window.showInformationMessage(`${key} is promoted and active.`);
  });
}
