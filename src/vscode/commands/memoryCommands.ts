// Commands on single memories: remember (rememberCommands.ts), the lifecycle acts
// (lifecycleCommands.ts), re-verify, opening, editing or copying a record, and resolving an Inbox item.

import * as vscode from 'vscode';
import { describeInboxAction, type InboxItem } from '../../engine';
import { loreSays } from '../editorWording';
import { needsNewPlace } from './anchorCommands';
import { editUri } from '../memoryEditor';
import { asMemoryDocument } from '../memoryLanguage';
import type { CommandDeps } from './deps';
import { registerLifecycleCommands } from './lifecycleCommands';
import { openAnchor } from './openAnchor';
import { openMemory, registerRememberCommands } from './rememberCommands';
import { editorActor, required, resolveTarget } from './ui';

/** What a person confirms: for a session proposal, the candidate's own text (it is nowhere else to read yet). */
function inboxDetail(item: InboxItem): string {
  const c = item.proposal?.candidate;
  if (!c) return item.summary;
  const body = c.body?.trim() ? `\n\n${c.body.length > 600 ? `${c.body.slice(0, 600)}…` : c.body}` : '';
  return (
    `${item.summary}\n\n“${c.title}” — ` +
    `${c.description}${body}\n\nSource: ` +
    `${c.provenance.source}${c.provenance.client ? ` (${c.provenance.client})` : ''}. ` +
    `${String(item.evidence.reason ?? '')}`
  ).trim();
}

export function registerMemoryCommands(deps: CommandDeps): void {
  registerRememberCommands(deps);
  registerLifecycleCommands(deps);
  registerRecordCommands(deps);
  registerInboxCommands(deps);
}

/** Lore: Re-verify, Open, Open Anchor, Edit and Copy Key. */
function registerRecordCommands(deps: CommandDeps): void {
  const { register, stores } = deps;
  register('lore.reverify', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(stores, arg, 'Re-verify which memory against the code as it is now?', [
      'active',
      'disputed',
      'deprecated',
    ]);
    const { memory } = await store.api.get(key);
    const gone = needsNewPlace(store.folder, memory);
    let message: string;
    try {
      message = await deps.tracker.reverify(store, editorActor(), key);
    } catch (error) {
      // An anchored file that is gone, and not seen moved: the person says where it is now (Update Anchor…).
      if (!gone) throw error;
      return vscode.commands.executeCommand('lore.updateAnchor', { folder: store.folder, key, anchor: gone });
    }
    deps.diagnostics.update();
    vscode.window.showInformationMessage(loreSays(message));
  });

  register('lore.open', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(stores, arg, 'Open which memory?');
    await openMemory(store.folder, key);
  });
  register('lore.openAnchor', (arg?: unknown) => openAnchor(deps, arg));
  register('lore.edit', async (arg?: unknown) => {
    const editable = ['active', 'disputed', 'deprecated', 'quarantined'];
    const { store, key } = await resolveTarget(stores, arg, 'Edit which memory?', editable);
    const document = await asMemoryDocument(await vscode.workspace.openTextDocument(editUri(store.folder, key)));
    await vscode.window.showTextDocument(document, { preview: false });
  });
  register('lore.copyKey', async (arg?: unknown) => {
    const { key } = await resolveTarget(stores, arg, 'Copy the key of which memory?');
    await vscode.env.clipboard.writeText(key);
    vscode.window.setStatusBarMessage(`Copied ${key}`, 3000);
  });
}

function registerInboxCommands(deps: CommandDeps): void {
  const { register } = deps;
  register('lore.resolveInboxItem', async (arg?: unknown) => {
    const node = arg as { folder?: string; item?: InboxItem };
    if (!node?.folder || !node.item) throw new Error('run this from an item in the Inbox view');
    const item = node.item;
    const picked = required(
      await vscode.window.showQuickPick(
        item.actions.map((action) => ({
          label: action,
          description: action === item.suggested_action ? 'suggested' : undefined,
          detail: describeInboxAction(item, action) === action ? undefined : describeInboxAction(item, action),
        })),
        { placeHolder: `${item.kind}: ${item.summary}` },
      ),
    );
    const confirmed = picked.label !== 'dismiss';
    if (confirmed)
      required(
        await vscode.window.showWarningMessage(
          `${picked.label}: ${item.keys.join(', ')}?`,
          { modal: true, detail: inboxDetail(item) },
          picked.label,
        ),
      );
    await deps.stores.get(node.folder).api.resolveInbox(editorActor(confirmed), item.id, picked.label);
    vscode.window.showInformationMessage(`Inbox item ${item.id} resolved: ${picked.label}.`);
  });
}
