// The live memories anchored to one workspace file: what an agent about to edit that file should
// read first (the pre-edit hook). An anchor names the file alone, a symbol in it (`path#Name`) or
// lines (`path:12-30`); each record is verified like any other read.

import { LIMITS } from '../model/limits';
import { LIVE_STATUSES_SQL, MEMORY_TYPES, type MemorySummary, type MemoryType } from '../model/types';
import { requireEnum, requireText } from '../model/validate';
import { rowToMemory, summarize, type MemoryRow } from '../record/rows';
import { nowIso, type EngineContext } from '../context';
import type { Refusal } from '../record/integrity';

export interface AnchoredInput {
  /** A workspace-relative path, forward slashes. */
  path: string;
  types?: string[];
  limit?: number;
}

const ANCHOR_PATH_CHARS = 1000;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Whether an anchor names `path`: the file itself, a symbol in it or lines of it. */
export function anchorNames(anchor: string, path: string): boolean {
  return anchor === path || anchor.startsWith(`${path}#`) || anchor.startsWith(`${path}:`);
}

export function anchoredMemories(
  ctx: EngineContext,
  input: AnchoredInput,
): { items: MemorySummary[]; refused: Refusal[] } {
  const path = requireText('path', input.path, ANCHOR_PATH_CHARS).replace(/\\/g, '/').replace(/^\.\//, '');
  const types = (input.types ?? []).map((t) => requireEnum('type', t, MEMORY_TYPES)) as MemoryType[];
  const limit = Math.min(input.limit ?? LIMITS.recallDefault, LIMITS.recallMax);
  const typeClause = types.length ? `AND type IN (${types.map(() => '?').join(', ')})` : '';
  // LIKE narrows to rows whose anchors mention the path; anchorNames decides.
  const rows = ctx.db.all<MemoryRow>(
    `SELECT * FROM memories WHERE is_current = 1 AND status IN ${LIVE_STATUSES_SQL}
     AND anchors LIKE ? ESCAPE '\\' ${typeClause} ORDER BY updated_at DESC, key`,
    [`%${escapeLike(JSON.stringify(path).slice(1, -1))}%`, ...types],
  );
  const named = rows.filter((r) => (JSON.parse(r.anchors) as string[]).some((a) => anchorNames(a, path)));
  const { accepted, refused } = ctx.integrity.partition(named.slice(0, limit));
  const now = nowIso(ctx);
  return { items: accepted.map((row) => summarize(rowToMemory(row), now, ctx.hooks.opens)), refused };
}

/**
 * Every workspace path some live memory of `types` is anchored to: each anchor itself, and the
 * part before each `#` or `:` in it (a symbol or lines), so that anchorNames(anchor, p) holds for
 * every `p` listed. A superset: a listed path may have nothing anchored once asked.
 */
export function anchoredPaths(ctx: EngineContext, types: readonly string[]): string[] {
  const checked = types.map((t) => requireEnum('type', t, MEMORY_TYPES));
  const rows = ctx.db.all<{ anchors: string }>(
    `SELECT anchors FROM memories WHERE is_current = 1 AND status IN ${LIVE_STATUSES_SQL}
     AND anchors != '[]' ${checked.length ? `AND type IN (${checked.map(() => '?').join(', ')})` : ''}`,
    checked,
  );
  const paths = new Set<string>();
  for (const row of rows)
    for (const anchor of JSON.parse(row.anchors) as string[]) {
      paths.add(anchor);
      for (let i = 0; i < anchor.length; i++) if (anchor[i] === '#' || anchor[i] === ':') paths.add(anchor.slice(0, i));
    }
  return [...paths].filter(Boolean).sort();
}
