// The drift findings this window knows, per folder: from the drift engine when the host has it
// (driftCheck / driftFindings / reverify), else from the anchor fallback (anchorCheck.ts), which the
// log announces once. Feeds the Drift view and the diagnostics.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Actor, Logger } from '../../engine';
import { supports, type DriftFinding, type LoreApi } from '../contract';
import type { FolderStore } from '../folderStore';
import { readPages } from '../paging';
import { checkAnchors, refreshBaselines, type AnchoredMemory, type BaselineStore, type ReadFile } from './anchorCheck';

const CHECKED_STATUSES = ['active', 'disputed', 'deprecated'];

export function fileReader(folder: string): ReadFile {
  return (path) => {
    try {
      return readFileSync(join(folder, path), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** Every checked memory with its anchors (the list has no anchors, so each record is read). */
export async function anchoredMemories(api: Pick<LoreApi, 'list' | 'get'>): Promise<AnchoredMemory[]> {
  const { items } = await readPages((offset) => api.list({ statuses: CHECKED_STATUSES, offset, limit: 200 }));
  const out: AnchoredMemory[] = [];
  for (const summary of items) {
    try {
      const { memory } = await api.get(summary.key);
      if (memory.anchors.length) out.push({ key: memory.key, anchors: memory.anchors });
    } catch {
      // a record that fails verification is reported by the views, not drift-checked
    }
  }
  return out;
}

export class DriftTracker {
  private readonly latest = new Map<string, Map<string, DriftFinding>>();
  private readonly listeners = new Set<(folder: string) => void>();
  private announced = false;

  constructor(
    private readonly baselines: (folder: string) => BaselineStore,
    private readonly logger: Logger,
  ) {}

  /** Whether the drift engine answers, or the anchor fallback stands in. */
  get engine(): boolean {
    return supports('driftCheck') && supports('driftFindings');
  }

  private announceFallback(): void {
    if (this.announced) return;
    this.announced = true;
    this.logger.warn('drift: this build has no drift engine (driftCheck/driftFindings); checking memories\' anchors by fingerprint only — docs\' references are not checked');
  }

  onDidChange(listener: (folder: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The fallback's anchor baselines for a folder (kept by the extension, not the store). */
  baselinesOf(folder: string): BaselineStore {
    return this.baselines(folder);
  }

  /** Whether a full refresh has run for the folder. */
  has(folder: string): boolean {
    return this.latest.has(folder);
  }

  /** The findings known for a folder (after check or refresh). */
  known(folder: string): DriftFinding[] {
    return [...(this.latest.get(folder)?.values() ?? [])];
  }

  /** The references into `paths` (every reference when null), from the engine or the anchor fallback. */
  private async findings(store: FolderStore, paths: string[] | null): Promise<DriftFinding[]> {
    if (this.engine) return paths ? store.api.driftCheck(paths) : store.api.driftFindings();
    this.announceFallback();
    return checkAnchors(await anchoredMemories(store.api), paths, fileReader(store.folder), this.baselines(store.folder));
  }

  /** Re-checks the references into `paths` (workspace-relative) and returns those findings. */
  async check(store: FolderStore, paths: string[]): Promise<DriftFinding[]> {
    const findings = await this.findings(store, paths);
    const map = this.latest.get(store.folder) ?? new Map<string, DriftFinding>();
    const touched = new Set(paths);
    // What the check covered is replaced: references into the saved files and those they make.
    for (const [id, f] of map) if ((f.reference.target_path && touched.has(f.reference.target_path)) || (f.source.path && touched.has(f.source.path))) map.delete(id);
    for (const f of findings) map.set(f.id, f);
    this.latest.set(store.folder, map);
    this.emit(store.folder);
    return findings;
  }

  /** Every finding for the folder: the engine's record, or a full anchor check. */
  async refresh(store: FolderStore): Promise<DriftFinding[]> {
    const findings = await this.findings(store, null);
    this.latest.set(store.folder, new Map(findings.map((f) => [f.id, f])));
    this.emit(store.folder);
    return findings;
  }

  /** Re-verify a memory: the engine refreshes fingerprints and sets basis verified; the fallback only refreshes baselines. */
  async reverify(store: FolderStore, actor: Actor, key: string): Promise<string> {
    let message: string;
    if (supports('reverify')) {
      await store.api.reverify(actor, key);
      message = `${key} re-verified`;
    } else {
      const { memory } = await store.api.get(key);
      const n = refreshBaselines({ key, anchors: memory.anchors }, fileReader(store.folder), this.baselines(store.folder));
      message = `${key}: ${n} anchor fingerprint(s) refreshed (this build has no drift engine, so its basis is unchanged)`;
      this.logger.warn(`re-verify ${key}: no reverify operation in this build; refreshed the extension's anchor baselines only`);
    }
    const map = this.latest.get(store.folder);
    if (map) for (const [id, f] of map) if (f.source.key === key) map.delete(id);
    this.emit(store.folder);
    return message;
  }

  private emit(folder: string): void {
    for (const listener of [...this.listeners]) listener(folder);
  }

  forget(folder: string): void {
    this.latest.delete(folder);
    this.emit(folder);
  }
}
