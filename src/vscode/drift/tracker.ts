// The drift findings this window knows, per folder, as the drift engine reports them (the owner's
// drift events for files changed on disk, driftFindings for everything, reverify to accept a
// memory's targets as they are now).
// Feeds the Drift view and the diagnostics; knows what kind of doc each referring doc is (its
// sentences say "this ADR"), learnt from the index before the findings are handed on.

import { LIMITS, type Actor } from '../../engine';
import type { DriftFinding } from '../contract';
import type { FolderStore } from '../folderStore';

export class DriftTracker {
  private readonly latest = new Map<string, Map<string, DriftFinding>>();
  private readonly listeners = new Set<(folder: string) => void>();
  /** Per folder, how many times its findings changed: a full read that overlapped a change is stale. */
  private readonly changes = new Map<string, number>();
  /** Per folder, each referring doc's kind as the index classified it ('' when it is not indexed). */
  private readonly docKinds = new Map<string, Map<string, string>>();
  /** Per folder, each referring memory's status as last read ('' when it could not be read). */
  private readonly statuses = new Map<string, Map<string, string>>();

  onDidChange(listener: (folder: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Whether a full refresh has run for the folder. */
  has(folder: string): boolean {
    return this.latest.has(folder);
  }

  /** The findings known for a folder (after check or refresh). */
  known(folder: string): DriftFinding[] {
    return [...(this.latest.get(folder)?.values() ?? [])];
  }

  /** The kind of doc at `path` ("adr", "runbook"...), once a finding from it was read. */
  docKind(folder: string, path: string): string | undefined {
    return this.docKinds.get(folder)?.get(path) || undefined;
  }

  /** The status of the memory `key` a finding comes from ("active", "disputed"...), once it was read. */
  memoryStatus(folder: string, key: string): string | undefined {
    return this.statuses.get(folder)?.get(key) || undefined;
  }

  /**
   * What the finding rows of a memory may offer depends on its status (a disputed memory cannot be
   * disputed again): read once per memory, and again on a full read (a person may have changed it).
   */
  private async learnStatuses(store: FolderStore, findings: DriftFinding[], again = false): Promise<void> {
    const known = again ? new Map<string, string>() : (this.statuses.get(store.folder) ?? new Map<string, string>());
    const keys = findings.flatMap((f) => (f.source.kind === 'memory' && f.source.key ? [f.source.key] : []));
    for (const key of new Set(keys)) {
      if (known.has(key)) continue;
      try {
        known.set(key, (await store.api.get(key)).memory.status);
      } catch {
        known.set(key, ''); // unknown: the row offers no lifecycle act rather than one the engine may refuse
      }
    }
    this.statuses.set(store.folder, known);
  }

  private async learnKinds(store: FolderStore, findings: DriftFinding[], again = false): Promise<void> {
    const known = again ? new Map<string, string>() : (this.docKinds.get(store.folder) ?? new Map<string, string>());
    const docs = findings.flatMap((f) => (f.source.kind === 'doc' && f.source.path ? [f.source.path] : []));
    const paths = [...new Set(docs)];
    const missing = paths.filter((p) => !known.has(p));
    try {
      for (let i = 0; i < missing.length; i += LIMITS.listMax) {
        const part = missing.slice(i, i + LIMITS.listMax);
        const { items } = await store.api.listDocs({ paths: part, limit: LIMITS.listMax });
        for (const path of part) known.set(path, '');
        for (const doc of items) known.set(doc.path, doc.kind);
      }
    } catch {
      // Without kinds the sentences say "this doc"; the findings themselves are what matter.
    }
    this.docKinds.set(store.folder, known);
  }

  /**
   * The owner checked the references into `paths` (workspace-relative) and found `findings`, current
   * ones included (its drift event): what was known about those paths is replaced by them.
   */
  async checked(store: FolderStore, paths: readonly string[], findings: DriftFinding[]): Promise<void> {
    await this.learnKinds(store, findings);
    await this.learnStatuses(store, findings);
    const map = this.latest.get(store.folder) ?? new Map<string, DriftFinding>();
    const touched = new Set(paths);
    // What the check covered is replaced: references into the changed files and those they make.
    for (const [id, f] of map)
      if (
        (f.reference.target_path && touched.has(f.reference.target_path)) ||
        (f.source.path && touched.has(f.source.path))
      )
        map.delete(id);
    for (const f of findings) map.set(f.id, f);
    this.latest.set(store.folder, map);
    this.emit(store.folder);
  }

  /** Every finding the engine has recorded for the folder. */
  async refresh(store: FolderStore): Promise<DriftFinding[]> {
    for (;;) {
      const started = this.changes.get(store.folder) ?? 0;
      const findings = await store.api.driftFindings();
      // A check or resolution that landed during the read is newer than what was read: read again
      // rather than put back what the person just resolved.
      if ((this.changes.get(store.folder) ?? 0) !== started) continue;
      // A full read learns the kinds again (a reindex may have classified a doc anew).
      await this.learnKinds(store, findings, true);
      await this.learnStatuses(store, findings, true);
      if ((this.changes.get(store.folder) ?? 0) !== started) continue;
      this.latest.set(store.folder, new Map(findings.map((f) => [f.id, f])));
      this.emit(store.folder);
      return findings;
    }
  }

  /** Re-verify a memory: the engine refreshes its fingerprints and sets its basis to verified. */
  async reverify(store: FolderStore, actor: Actor, key: string): Promise<string> {
    const { moved } = await store.api.reverify(actor, key);
    // An anchor whose file moved followed it (memory/reverify.ts): the message says where to.
    const followed = (moved ?? []).map((m) => `${m.from} → ${m.to}`);
    const moves = followed.length ? `; its anchor followed the move: ${followed.join(', ')}` : '';
    const message = `${key} re-verified${moves}`;
    const map = this.latest.get(store.folder);
    if (map) for (const [id, f] of map) if (f.source.key === key) map.delete(id);
    this.emit(store.folder);
    return message;
  }

  /** A finding the person resolved (link updated, target re-verified): gone from the view and Problems now. */
  resolved(folder: string, id: string): void {
    if (this.latest.get(folder)?.delete(id)) this.emit(folder);
  }

  private emit(folder: string): void {
    this.changes.set(folder, (this.changes.get(folder) ?? 0) + 1);
    for (const listener of [...this.listeners]) listener(folder);
  }

  forget(folder: string): void {
    this.latest.delete(folder);
    this.docKinds.delete(folder);
    this.statuses.delete(folder);
    this.emit(folder);
  }
}
