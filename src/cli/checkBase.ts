// What held at `lore check`'s base: the base revision's files exported to a temporary folder and
// scanned by drift in a throwaway in-memory store, the document references that resolved there
// kept with their target. A store first opened after the change (a fresh CI runner) then still
// knows what the change broke; the workspace's own store is never touched.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine';
import { exportRevision, type ChangedPaths } from '../host/gitDiff';
import { WasmSqlDatabase } from '../host/sqlite';
import { treeSitterSymbols } from '../host/symbols/treeSitter';
import { DiskWorkspaceReader, githubRepositories } from '../host/workspaceReader';
import type { HeldAtBase } from './checkReport';

/** Whether the change can break a reference that held: it removes or edits a file (additions alone cannot). */
export function mayBreakHeld(changed: ChangedPaths): boolean {
  return changed.deleted.size + changed.renamed.size + changed.modified.size > 0;
}

/** The document references that resolved at `ref`, keyed by their document's path in the working tree. */
export async function heldAtBase(root: string, ref: string, changed: ChangedPaths): Promise<HeldAtBase> {
  const dir = mkdtempSync(join(tmpdir(), 'lore-check-base-'));
  const references: Array<{ path: string; raw: string; target: string }> = [];
  try {
    exportRevision(root, ref, dir);
    const parser = treeSitterSymbols();
    await parser.whenReady;
    const db = new WasmSqlDatabase(':memory:');
    try {
      const engine = new Engine({
        db,
        files: new DiskWorkspaceReader(dir, parser),
        repositories: githubRepositories(root),
      });
      engine.driftScan();
      for (const f of engine.driftFindings({ states: ['current'] })) {
        const path = f.source.kind === 'doc' ? f.source.path : undefined;
        const target = f.reference.target_path;
        if (!path || !target || changed.deleted.has(path)) continue;
        references.push({ path: changed.renamed.get(path) ?? path, raw: f.reference.raw, target });
      }
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const byKey = new Map(references.map((r) => [`${r.path}\0${r.raw}`, r.target]));
  const texts = new Map<string, string[] | null>();
  const linesOf = (path: string) => {
    if (!texts.has(path)) {
      try {
        texts.set(path, readFileSync(join(root, path), 'utf8').split('\n'));
      } catch {
        texts.set(path, null);
      }
    }
    return texts.get(path)!;
  };
  return {
    references,
    target: (path, raw) => byKey.get(`${path}\0${raw}`),
    lineNaming: (path, raw) => {
      const at = linesOf(path)?.findIndex((line) => line.includes(raw)) ?? -1;
      return at < 0 ? null : at + 1;
    },
  };
}
