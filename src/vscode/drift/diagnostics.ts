// Drift in the Problems panel. After a save (or a rename) the owner is told which files changed
// (a hint: its own reaction to file changes re-checks the references into them, and its drift event
// feeds the tracker); each drifted one becomes a warning on whatever refers to it (the doc's line, or the memory's
// document) in one sentence ("`enqueue` in src/queue.ts changed since this ADR was last checked"),
// one per line and target (fold.ts), and the saved file gets an information hint naming who refers
// to it. Quick fixes: re-verify, supersede, dispute, open.

import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Logger } from '../../engine';
import type { DriftFinding } from '../contract';
import { driftSentence, referrerWords } from '../editorWording';
import { memoryUri } from '../memoryDocument';
import type { LoreStores } from '../stores';
import { foldFindings } from './fold';
import { canRelink, relink } from './relink';
import { referenceSummary } from './summary';
import type { DriftTracker } from './tracker';

export const DIAGNOSTIC_SOURCE = 'Lore';

function diagnosticKey(uri: vscode.Uri, d: vscode.Diagnostic): string {
  return `${uri.toString()}|${d.range.start.line}|${String(d.code)}|${d.message}`;
}

/** What a diagnostic stands for: a finding (with those folded into it), or a saved file's referrers. */
interface Known {
  folder: string;
  finding?: DriftFinding;
  also?: DriftFinding[];
  referrers?: DriftFinding[];
}

export class DriftDiagnostics implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  private readonly collection = vscode.languages.createDiagnosticCollection('lore');
  /**
   * What each diagnostic stands for, by its text and place rather than object identity: the
   * diagnostics a code action request carries are not always the objects this class set.
   */
  private findingOf = new Map<string, Known>();
  /** The same diagnostics by document and line: a request may carry none of them (a model just opened). */
  private onLine = new Map<string, vscode.Diagnostic[]>();
  /** Files saved and checked, per folder: they carry the "N records reference this" hint. */
  private readonly checked = new Map<string, Set<string>>();

  constructor(
    private readonly stores: LoreStores,
    private readonly tracker: DriftTracker,
    private readonly logger: Logger,
    private readonly driftOnSave: (folder: string) => boolean,
    /** `lore.drift.showAlreadyBroken`: off, breakage from before Lore is not shown at all. */
    private readonly showAlreadyBroken: (folder: string) => boolean = () => true,
  ) {}

  /** A rename or move in the editor: the owner checks the references to the old path (relocated, with the new one). */
  async onRename(files: readonly { oldUri: vscode.Uri; newUri: vscode.Uri }[]): Promise<void> {
    const byFolder = new Map<string, string[]>();
    for (const { oldUri, newUri } of files) {
      for (const uri of [oldUri, newUri]) {
        const at = this.located(uri);
        if (at) byFolder.set(at.folder, [...(byFolder.get(at.folder) ?? []), at.path]);
      }
    }
    for (const [folder, paths] of byFolder) {
      try {
        await this.stores.get(folder).hint(paths);
        this.logger.debug(`drift: ${paths.join(' → ')} renamed; the owner checks the references`);
      } catch (error) {
        this.logger.warn(`drift check after renaming ${paths.join(', ')} not asked for: ${(error as Error).message}`);
      }
    }
  }

  /** The folder and workspace-relative path of a file whose store exists and checks drift on save. */
  private located(uri: vscode.Uri): { folder: string; path: string } | undefined {
    if (uri.scheme !== 'file') return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
    if (!folder || !this.stores.folders().includes(folder) || !this.driftOnSave(folder)) return undefined;
    const store = this.stores.get(folder);
    // A folder that has never had a store gets none because a file was saved.
    if (!store.connected && !existsSync(store.paths.database)) return undefined;
    return { folder, path: relative(folder, uri.fsPath).split(sep).join('/') };
  }

  async onSave(document: vscode.TextDocument): Promise<void> {
    const at = this.located(document.uri);
    if (!at) return;
    const { folder, path } = at;
    // Marked before the owner's findings arrive, so the redraw they trigger already carries the file's hint.
    const set = this.checked.get(folder) ?? new Set<string>();
    set.add(path);
    this.checked.set(folder, set);
    try {
      await this.stores.get(folder).hint([path]);
      this.logger.debug(`drift: ${path} saved; the owner checks the references into it`);
    } catch (error) {
      this.logger.warn(`drift check after saving ${path} not asked for: ${(error as Error).message}`);
    }
  }

  /** Whether drift findings for files changed on disk are shown for `folder` (`lore.drift.onSave`). */
  follows(folder: string): boolean {
    return this.driftOnSave(folder);
  }

  /**
   * Rebuilds every diagnostic from the tracker's findings. The new maps are built aside and swapped
   * in with the collection, so a quick-fix request never sees diagnostics whose findings it cannot
   * name; a finding that cannot be shown is logged and skipped rather than stopping the rest.
   */
  update(): void {
    const byUri = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
    const findingOf: typeof this.findingOf = new Map();
    const add = (uri: vscode.Uri, d: vscode.Diagnostic, known: Known) => {
      const entry = byUri.get(uri.toString()) ?? { uri, list: [] };
      entry.list.push(d);
      byUri.set(uri.toString(), entry);
      findingOf.set(diagnosticKey(uri, d), known);
    };
    for (const folder of this.stores.folders()) {
      const findings = this.tracker.known(folder);
      const showOld = this.showAlreadyBroken(folder);
      for (const { finding: f, also } of foldFindings(findings)) {
        if (f.already_broken && !showOld) continue;
        try {
          const line = Math.max(0, (f.source.line ?? 1) - 1);
          const doc = f.source.kind === 'doc' && f.source.path;
          const uri = doc ? vscode.Uri.file(join(folder, doc)) : memoryUri(folder, f.source.key ?? '');
          const who = referrerWords(f, doc ? this.tracker.docKind(folder, doc) : undefined);
          const range = new vscode.Range(line, 0, line, 1000);
          // Breakage from before Lore is a hint, not a warning: drift caused since is what a save should surface.
          const d = f.already_broken
            ? new vscode.Diagnostic(
                range,
                `Already broken when Lore first looked: ${driftSentence(f, who)}`,
                vscode.DiagnosticSeverity.Information,
              )
            : new vscode.Diagnostic(range, driftSentence(f, who), vscode.DiagnosticSeverity.Warning);
          d.source = DIAGNOSTIC_SOURCE;
          d.code = `drift.${f.state}`;
          add(uri, d, { folder, finding: f, also });
        } catch (error) {
          this.logger.warn(`drift: finding ${f.id} not shown: ${(error as Error).message}`);
        }
      }
      for (const path of this.checked.get(folder) ?? []) {
        const referrers = findings.filter((f) => f.reference.target_path === path);
        const message = referenceSummary(referrers);
        if (!message) continue;
        const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), message, vscode.DiagnosticSeverity.Information);
        d.source = DIAGNOSTIC_SOURCE;
        d.code = 'drift.references';
        add(vscode.Uri.file(join(folder, path)), d, { folder, referrers });
      }
    }
    const onLine = new Map<string, vscode.Diagnostic[]>();
    for (const { uri, list } of byUri.values()) {
      for (const d of list) {
        const at = `${uri.toString()}|${d.range.start.line}`;
        onLine.set(at, [...(onLine.get(at) ?? []), d]);
      }
    }
    this.findingOf = findingOf;
    this.onLine = onLine;
    this.collection.clear();
    for (const { uri, list } of byUri.values()) this.collection.set(uri, list);
  }

  provideCodeActions(
    document: vscode.TextDocument,
    range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    // The request's diagnostics first, then this class's own for the lines asked about: a request
    // may carry none of them (a model just opened) or copies made before the last redraw.
    const diagnostics = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (range?.start) {
      for (let line = range.start.line; line <= range.end.line; line++) {
        diagnostics.push(...(this.onLine.get(`${document.uri}|${line}`) ?? []));
      }
    }
    const seen = new Set<string>();
    for (const d of diagnostics) {
      const key = diagnosticKey(document.uri, d);
      if (seen.has(key)) continue;
      seen.add(key);
      const known = this.findingOf.get(key);
      if (!known) continue;
      const action = (title: string, command: string, args: unknown[], preferred = false) => {
        const a = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        a.diagnostics = [d];
        a.command = { command, title, arguments: args };
        a.isPreferred = preferred;
        actions.push(a);
      };
      const f = known.finding;
      if (f?.source.key) {
        const target = { folder: known.folder, key: f.source.key };
        // Re-verify moves an anchor whose target moved (memory/reverify.ts): offered first, saying so.
        if (f.state === 'relocated' && f.evidence.new_path)
          action(`Update anchor ${f.reference.raw} to ${f.evidence.new_path}`, 'lore.reverify', [target], true);
        // A file that is gone, not seen moved: the person says where it is now.
        if (f.state === 'gone' && f.reference.target_path)
          action(
            `Update anchor ${f.reference.raw}…`,
            'lore.updateAnchor',
            [{ ...target, anchor: f.reference.raw }],
            true,
          );
        action(`Re-verify ${f.source.key}`, 'lore.reverify', [target]);
        action(`Supersede ${f.source.key}…`, 'lore.supersede', [target]);
        action(`Dispute ${f.source.key}…`, 'lore.dispute', [target]);
      }
      if (f?.source.kind === 'doc') {
        const target = [{ folder: known.folder, finding: f, also: known.also ?? [] }];
        const raw = f.reference.raw;
        // Offered only when the reference's own span can be rewritten on the line as it is now (relink.ts).
        const line = Math.max(0, (f.source.line ?? 1) - 1);
        const change = canRelink(f) && line < document.lineCount ? relink(f, document.lineAt(line).text) : null;
        if (change && !('problem' in change))
          action(`Update ${raw} to ${change.text}`, 'lore.updateReference', target, true);
        if (f.state === 'changed' || f.state === 'relocated') {
          action(`Re-verify ${raw} (accept the target as it is now)`, 'lore.reverifyReference', target);
        }
        // "Not about this file": a tie by name (a flag, a symbol, a bare name) a person says is wrong.
        if (
          f.reference.target_path &&
          !['link', 'url', 'site', 'embed', 'heading', 'published', 'index'].includes(f.reference.form)
        )
          action(`Not about ${f.reference.target_path} (untie ${raw})`, 'lore.dismissReference', target);
      }
      // Never a file that is no longer there: a gone or broken target has nothing to open.
      const opens = f
        ? (f.evidence.new_path ?? (f.state === 'gone' || f.state === 'broken' ? null : f.reference.target_path))
        : null;
      if (f && opens) action(`Open ${opens}`, 'lore.openAnchor', [{ folder: known.folder, finding: f }]);
      for (const r of (known.referrers ?? []).slice(0, 5)) {
        if (r.source.key) action(`Open ${r.source.key}`, 'lore.open', [{ folder: known.folder, key: r.source.key }]);
        else if (r.source.path)
          action(`Open ${r.source.path}`, 'vscode.open', [vscode.Uri.file(join(known.folder, r.source.path))]);
      }
    }
    return actions;
  }

  clear(): void {
    this.checked.clear();
    this.collection.clear();
  }

  dispose(): void {
    this.collection.dispose();
  }
}
