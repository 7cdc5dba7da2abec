// Update Anchor… on a memory (issue 31, point 7): a person points one of its anchors at where the
// code is now. Lore offers the places it can vouch for — where drift saw the file move, then files
// of this workspace with the anchored file's name — and asks only when there is more than one; a
// path can also be typed (checked to exist as it is typed). The record is saved with the new
// anchor (a new version, based on the one shown) and its targets re-verified there.
// Re-verify on a memory whose anchored file is gone and not found moved comes here too.

import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { anchorTarget, type Memory } from '../../engine';
import { loreSays } from '../editorWording';
import type { FolderStore } from '../folderStore';
import type { CommandDeps } from './deps';
import { editorActor, required, resolveTarget } from './ui';

/** Files of the workspace folder named like `path`, nearest first by shared folder names; at most 20. */
async function sameName(folder: string, path: string): Promise<string[]> {
  const name = basename(path);
  const found = await vscode.workspace.findFiles(
    new vscode.RelativePattern(folder, `**/${name}`),
    '{**/node_modules/**,**/.git/**}',
    20,
  );
  const shared = (p: string) => p.split('/').filter((part) => path.split('/').includes(part)).length;
  return found
    .map((uri) => vscode.workspace.asRelativePath(uri, false))
    .filter((p) => p !== path)
    .sort((a, b) => shared(b) - shared(a) || a.localeCompare(b));
}

/** The anchors whose file no longer exists come first: those are the ones a person updates. */
function anchorsByNeed(folder: string, memory: Memory): { anchor: string; path: string; missing: boolean }[] {
  return memory.anchors
    .map((anchor) => ({ anchor, path: anchorTarget(anchor)?.path ?? '' }))
    .filter((a) => a.path)
    .map((a) => ({ ...a, missing: !existsSync(join(folder, a.path)) }))
    .sort((a, b) => Number(b.missing) - Number(a.missing));
}

/** The new anchor text: the new path, with the old anchor's `#fragment` kept. */
function moved(anchor: string, to: string): string {
  const hash = anchor.indexOf('#');
  return hash < 0 || to.includes('#') ? to : `${to}${anchor.slice(hash)}`;
}

async function pickAnchor(store: FolderStore, memory: Memory, given?: string): Promise<string> {
  const anchors = anchorsByNeed(store.folder, memory);
  if (!anchors.length) throw new Error(`${memory.key} has no anchor to a file of this workspace`);
  if (given && anchors.some((a) => a.anchor === given)) return given;
  if (anchors.length === 1) return anchors[0].anchor;
  const picked = await vscode.window.showQuickPick(
    anchors.map((a) => ({ label: a.anchor, description: a.missing ? 'file no longer exists' : undefined })),
    { title: `Update Anchor of ${memory.key}`, placeHolder: 'Which anchor?' },
  );
  return required(picked).label;
}

async function pickPlace(store: FolderStore, memory: Memory, anchor: string): Promise<string> {
  const path = anchorTarget(anchor)?.path ?? anchor;
  const findings = await store.api.driftFindings({ key: memory.key });
  const seen = findings.filter((f) => f.reference.target_path === path && f.evidence.new_path);
  const places = [
    ...new Set([...seen.map((f) => f.evidence.new_path!.split('#')[0]), ...(await sameName(store.folder, path))]),
  ];
  const TYPE = 'Type a path…';
  const items: vscode.QuickPickItem[] = [
    ...places.map((p, i) => ({
      label: p,
      description: i < seen.length ? 'drift saw the file move here' : 'same file name',
    })),
    { label: TYPE, description: 'a file of this workspace' },
  ];
  // One place Lore can vouch for: asked to confirm, not to choose; several: the person chooses.
  const picked = required(
    await vscode.window.showQuickPick(items, {
      title: `Update Anchor ${anchor} of ${memory.key}`,
      placeHolder:
        places.length > 1 ? `Where is ${path} now?` : `Move the anchor to ${places[0] ?? 'a path you type'}?`,
    }),
  ).label;
  if (picked !== TYPE) return picked;
  return required(
    await vscode.window.showInputBox({
      title: `Update Anchor ${anchor} of ${memory.key}`,
      prompt: 'A file of this workspace, relative to its folder',
      value: path,
      validateInput: (text) =>
        existsSync(join(store.folder, text.trim().split('#')[0]))
          ? undefined
          : `${text} is not a file of this workspace`,
    }),
  ).trim();
}

export function registerAnchorCommands(deps: CommandDeps): void {
  deps.register('lore.updateAnchor', async (arg?: unknown) => {
    const { store, key } = await resolveTarget(deps.stores, arg, 'Update an anchor of which memory?', [
      'active',
      'disputed',
      'deprecated',
    ]);
    const { memory } = await store.api.get(key);
    // From a quick fix or the Drift view: the anchor the finding is about.
    const node = arg as { anchor?: string; finding?: { reference: { raw: string } } } | undefined;
    const given = node?.anchor ?? node?.finding?.reference.raw;
    const anchor = await pickAnchor(store, memory, given);
    const to = moved(anchor, await pickPlace(store, memory, anchor));
    const result = await store.api.remember(editorActor(), {
      key,
      type: memory.type,
      title: memory.title,
      description: memory.description,
      body: memory.body,
      anchors: memory.anchors.map((a) => (a === anchor ? to : a)),
      links: memory.links,
      tags: memory.tags,
      expected_version: memory.version,
      provenance: { source: 'user', client: 'vscode' },
    });
    if (!result.saved)
      throw new Error(`${key} changed while you chose (now version ${result.conflict.current_version}); run it again`);
    // Accepted where it points now: the record's drift warning for the old place goes.
    await deps.tracker.reverify(store, editorActor(), key);
    deps.diagnostics.update();
    vscode.window.showInformationMessage(loreSays(`${key} is anchored to ${to} now, and re-verified there.`));
  });
}

/** Whether re-verifying `memory` needs a person to say where an anchor went (its file is gone). */
export function needsNewPlace(folder: string, memory: Memory): string | undefined {
  return anchorsByNeed(folder, memory).find((a) => a.missing)?.anchor;
}
