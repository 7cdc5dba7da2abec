// Commands on single memories: remember (from the palette or the selection), forget, the
// lifecycle acts (deprecate, dispute, retract, supersede, promote from quarantine), re-verify,
// and opening or copying a record.

import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { loreSays } from '../editorWording';
import { needsNewPlace } from './anchorCommands';
import {
  anchorTarget,
  canBecome,
  keyFor,
  LIMITS,
  MEMORY_TYPES,
  openableAnchors,
  parseKey,
  STATUSES,
} from '../../engine';
import type { InboxItem, MemoryType, RememberInput, SaveResult, Status, StatusChange, Transition } from '../../engine';
import { errorText } from '../editorWording';
import {
  anchorAt,
  anchorLengthProblem,
  anchorProblem,
  selectedLines,
  type ReadText,
  type SymbolLike,
} from '../anchorAt';
import { definitionsOf } from '../definitions';
import { selectionBody } from '../selectionBody';
import type { DriftFinding } from '../contract';
import type { FolderStore } from '../folderStore';
import { memoryUri } from '../memoryDocument';
import { editUri } from '../memoryEditor';
import { asMemoryDocument } from '../memoryLanguage';
import type { CommandDeps } from './deps';
import { keepEngineOrder } from './recall';
import { runSteps, type Step } from './steps';
import { editorActor, pickStore, required, resolveTarget } from './ui';

const TYPE_LABELS: Record<MemoryType, string> = {
  decision: 'Decision — what was chosen and why',
  dead_end: 'Dead end — what was tried and did not work',
  runbook: 'Runbook — how to do an operational task',
  incident: 'Incident — what happened',
  postmortem: 'Postmortem — what was learned',
  convention: 'Convention — how things are done here',
  fact: 'Fact — something true about the system',
  preference: 'Preference — how someone likes it done',
  reference: 'Reference — where to find something',
};

const TYPE_NAMES: Record<MemoryType, string> = {
  decision: 'Decision',
  dead_end: 'Dead End',
  runbook: 'Runbook',
  incident: 'Incident',
  postmortem: 'Postmortem',
  convention: 'Convention',
  fact: 'Fact',
  preference: 'Preference',
  reference: 'Reference',
};

interface Draft {
  type: MemoryType;
  body?: string;
  anchors?: string[];
  title?: string;
}

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

/** The anchor at the active editor's cursor (see anchorAt.ts), for a file inside `folder`. */
async function cursorAnchor(deps: CommandDeps, editor: vscode.TextEditor, folder: string): Promise<string | undefined> {
  const doc = editor.document;
  if (doc.uri.scheme !== 'file') return undefined;
  const path = relative(folder, doc.uri.fsPath).split(sep).join('/');
  if (path.startsWith('..')) return undefined;
  let symbols: SymbolLike[] | undefined;
  try {
    symbols = await vscode.commands.executeCommand<SymbolLike[]>('vscode.executeDocumentSymbolProvider', doc.uri);
  } catch {
    symbols = undefined; // no symbol provider for this language: drift's own definitions decide
  }
  const text = doc.getText();
  const definitions = await definitionsOf(path, text, deps.log);
  return anchorAt(
    path,
    selectedLines(editor.selection),
    text,
    definitions,
    symbols?.filter((s) => s && 'range' in s),
  );
}

/** Workspace files as the editor has them (an open, unsaved document's text included). */
function workspaceText(folder: string): ReadText {
  return async (path) => {
    const uri = vscode.Uri.file(join(folder, path));
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    try {
      return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    } catch {
      return undefined;
    }
  };
}

const splitAnchors = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

/** Why `key` cannot name a new `type` record, in the engine's words (its message and rule), or undefined. */
function keyProblem(type: MemoryType, key: string): string | undefined {
  try {
    if (parseKey(key).type !== type) return `a ${type.replace('_', ' ')}'s key starts with ${type}/`;
    return undefined;
  } catch (error) {
    const e = error as { message: string; hint?: string };
    return e.hint ? `${e.message}: ${e.hint}` : e.message;
  }
}

function rememberSteps(deps: CommandDeps, store: FolderStore, type: MemoryType, withBody: boolean): Step[] {
  const kind = type.replace('_', ' ');
  const read = workspaceText(store.folder);
  const steps: Step[] = [
    {
      prompt: `Title of the ${kind}`,
      limit: LIMITS.titleChars,
      describe: (v) => `Title of the ${kind}${v.trim() ? ` — saved as ${keyFor(type, v.trim())}` : ''}`,
    },
    {
      // The rule is the engine's (parseKey); shown in the prompt, checked as it is typed.
      prompt: `Key: ${type}/ then lowercase letters, digits, ".", "_" or "-" (from the title unless you change it)`,
      derive: (answers) => keyFor(type, answers[0].trim()),
      check: (value) => keyProblem(type, value),
      warn: async (value) => {
        const taken = await store.api.get(value).then(
          () => true,
          () => false,
        );
        return taken ? `${value} already exists: saving adds a new version of it` : undefined;
      },
    },
    { prompt: 'One line: what a reader needs to know', limit: LIMITS.descriptionChars },
  ];
  if (withBody) steps.push({ prompt: 'Body (Markdown; optional — edit the record later for more)', optional: true });
  steps.push({
    prompt: 'Anchors: files, path#Symbol or doc.md#heading it is about, comma-separated (optional)',
    placeholder: 'src/queue.ts#enqueue, docs/runbooks/deploy.md#rollback',
    optional: true,
    // The engine's limit refuses the step as it is typed (a save never fails on it); a reference
    // that does not resolve is only a warning.
    check: (value) => anchorLengthProblem(splitAnchors(value)),
    warn: async (value) => {
      for (const anchor of splitAnchors(value)) {
        const problem = await anchorProblem(anchor, read, (path, text) => definitionsOf(path, text, deps.log));
        if (problem) return problem;
      }
      return undefined;
    },
  });
  return steps;
}

async function remember(deps: CommandDeps, store: FolderStore, draft: Draft): Promise<void> {
  const withBody = draft.body === undefined;
  const steps = rememberSteps(deps, store, draft.type, withBody);
  const title = `Lore: Remember ${TYPE_NAMES[draft.type]}`;
  let typed: string[] = [draft.title ?? '', '', '', ...(withBody ? [''] : []), (draft.anchors ?? []).join(', ')];
  for (;;) {
    typed = await runSteps(title, steps, typed);
    const [name, key, description] = typed;
    const body = withBody ? typed[3] : (draft.body ?? '');
    const anchors = splitAnchors(typed[typed.length - 1]);
    const provenance = { source: 'user' as const, client: 'vscode' };
    const input: RememberInput = { type: draft.type, key, title: name, description, body, anchors, provenance };
    let result: SaveResult;
    try {
      result = await store.api.remember(editorActor(), input);
      if (!result.saved) throw new Error(result.conflict.reason);
    } catch (error) {
      // Nothing typed is lost: the person can go back to the steps with every value as it was.
      const message = errorText(error);
      deps.log.warn(`remember: ${message}`);
      const choice = await vscode.window.showErrorMessage(`Lore could not save it: ${message}`, 'Edit and Retry');
      if (choice !== 'Edit and Retry') return;
      continue;
    }
    await saved(deps, store, result);
    return;
  }
}

type Saved = Extract<SaveResult, { saved: true }>;

async function saved(deps: CommandDeps, store: FolderStore, result: Saved): Promise<void> {
  deps.log.info(`remembered ${result.key} v${result.version}`);
  const deadEnds = result.warnings.dead_ends as { key: string; title?: string }[];
  const open = 'Open';
  const choice = deadEnds.length
    ? await vscode.window.showWarningMessage(
        `Saved ${result.key}, but it resembles the dead end ` +
          `${deadEnds[0].key}${deadEnds[0].title ? ` (“${deadEnds[0].title}”)` : ''}.`,
        open,
        'Open Dead End',
      )
    : await vscode.window.showInformationMessage(
        `Lore remembered ${result.key}${result.status === 'quarantined' ? ' (quarantined)' : ''}.`,
        open,
      );
  if (choice === open) await openMemory(store.folder, result.key);
  if (choice === 'Open Dead End') await openMemory(store.folder, deadEnds[0].key);
}

async function openMemory(folder: string, key: string): Promise<void> {
  await vscode.window.showTextDocument(memoryUri(folder, key), { preview: true });
}

async function rememberSelection(deps: CommandDeps, type: MemoryType): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new Error('open a file and select the code or text the memory is about');
  const store = await pickStore(deps.stores, editor.document.uri);
  const selected = editor.document.getText(editor.selection);
  const anchor = await cursorAnchor(deps, editor, store.folder);
  const body = selectionBody(selected, editor.document.languageId);
  await remember(deps, store, { type, body, anchors: anchor ? [anchor] : [] });
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

async function openAnchor(deps: CommandDeps, arg: unknown): Promise<void> {
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
  const { register, stores } = deps;
  register('lore.remember', async () => {
    const store = await pickStore(stores);
    const picked = required(
      await vscode.window.showQuickPick(
        MEMORY_TYPES.map((t) => ({ label: TYPE_LABELS[t], type: t })),
        { placeHolder: 'What kind of memory?' },
      ),
    );
    const editor = vscode.window.activeTextEditor;
    const anchor = editor ? await cursorAnchor(deps, editor, store.folder) : undefined;
    await remember(deps, store, { type: picked.type, anchors: anchor ? [anchor] : [] });
  });
  register('lore.rememberSelectionAsDecision', () => rememberSelection(deps, 'decision'));
  register('lore.rememberSelectionAsDeadEnd', () => rememberSelection(deps, 'dead_end'));

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

  register('lore.resolveInboxItem', async (arg?: unknown) => {
    const node = arg as { folder?: string; item?: InboxItem };
    if (!node?.folder || !node.item) throw new Error('run this from an item in the Inbox view');
    const item = node.item;
    const picked = required(
      await vscode.window.showQuickPick(
        item.actions.map((action) => ({
          label: action,
          description: action === item.suggested_action ? 'suggested' : undefined,
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
