// Drift flags on records about to be shown (recall, search hits): a memory's references checked live
// without writing, a document's from the last check, a hit's only on the chunk's own lines.

import type { EngineContext } from '../context';
import { evaluateWithFinder } from './evaluate';
import { refsOfSources, siblingTargets } from './store';
import type { DriftFlag, WorkspaceReader } from './types';
import { sameContent } from './verdicts';
import { Workspace } from './workspace';

/**
 * Drift flags for records about to be shown. A memory's references are checked live (a stat per
 * target, a read only when it changed) without writing; a document's come from the last check.
 */
export function driftFlags(
  ctx: EngineContext,
  reader: WorkspaceReader | undefined,
  kind: 'memory' | 'doc',
  sources: readonly string[],
): Map<string, DriftFlag[]> {
  const out = new Map<string, DriftFlag[]>();
  const rows = refsOfSources(ctx.db, kind, sources);
  if (!rows.length) return out;
  let checked = rows;
  if (kind === 'memory' && reader) {
    const ws = new Workspace(reader);
    const candidates = sameContent(ctx, rows);
    checked = rows.map((row) => {
      // A folder's or a pattern's fingerprint needs the workspace's listing, a walk no recall should wait for:
      // it shows its last check.
      if (row.target_kind === 'dir' || row.target_kind === 'pattern') return row;
      const verdict = evaluateWithFinder(
        ws,
        row,
        { candidates, wide: false, siblings: (r) => siblingTargets(ctx.db, r) },
        false,
      );
      return verdict ? { ...row, ...verdict } : row;
    });
  }
  for (const row of checked) {
    if (row.state === 'current') continue;
    const list = out.get(row.source) ?? [];
    list.push({ state: row.state, reference: row.raw, detail: row.detail });
    out.set(row.source, list);
  }
  return out;
}

/**
 * Drift flags for document hits, each a chunk of its file: only the references written on the
 * chunk's own lines (1-based, inclusive), so a hit on one section does not carry another's.
 */
export function docDriftFlags(
  ctx: EngineContext,
  hits: ReadonlyArray<{ path: string; lines: readonly [number, number] }>,
): Array<DriftFlag[] | undefined> {
  const rows = refsOfSources(ctx.db, 'doc', [...new Set(hits.map((h) => h.path))]).filter((r) => r.state !== 'current');
  return hits.map((hit) => {
    const own = rows.filter((r) => r.source === hit.path && r.line >= hit.lines[0] && r.line <= hit.lines[1]);
    return own.length ? own.map((r) => ({ state: r.state, reference: r.raw, detail: r.detail })) : undefined;
  });
}
