// A reference's verdict written back: the state a check finds (evaluate.ts) stored with when it was
// first seen and last checked, and a target accepted as it is now (re-verify). The one place a
// reference row's state changes after it was resolved.

import { LoreError } from '../errors';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { evaluateWithFinder, type Search } from './evaluate';
import { docsWithContent, refById, siblingTargets, updateRef, type RefRow } from './store';
import { EMPTY_PRINT, fingerprintOf } from './target';
import type { Workspace } from './workspace';

/** Each row classified now; a row whose state or place moved is written back. */
export function applyVerdicts(ctx: EngineContext, rows: RefRow[], ws: Workspace, search: Search): RefRow[] {
  const now = nowIso(ctx);
  search = { ...search, siblings: (row) => siblingTargets(ctx.db, row) };
  const out: RefRow[] = [];
  for (const row of rows) {
    const verdict = evaluateWithFinder(ws, row, search, true);
    if (!verdict) {
      out.push(row);
      continue;
    }
    const next: RefRow = {
      ...row,
      ...verdict,
      // Fixed once, it is tracked as any other: breaking again is drift caused since.
      already_broken: verdict.state === 'current' ? 0 : row.already_broken,
      old_path: verdict.state === 'relocated' ? row.target_path : null,
      detected_at: verdict.state === row.state && verdict.new_path === row.new_path ? row.detected_at : now,
      checked_at: now,
    };
    updateRef(ctx.db, next);
    out.push(next);
  }
  return out;
}

/** Indexed files with the content a vanished file had: the index already knows every file's hash. */
export function sameContent(ctx: EngineContext, rows: RefRow[]): string[] {
  const hashes = [
    ...new Set(
      rows
        .filter((r) => r.target_kind === 'file' && r.fingerprint && r.fingerprint !== EMPTY_PRINT)
        .map((r) => r.fingerprint!),
    ),
  ];
  return docsWithContent(ctx.db, hashes);
}

/**
 * A reference's target accepted as it is now: a relocated one is followed to its new place, and
 * the fingerprint becomes what is there. A target that is gone or broken cannot be accepted.
 */
export function acceptTarget(
  ctx: EngineContext,
  row: RefRow,
  ws: Workspace,
  actor: Actor,
  now: string,
  who: string,
  hint: string,
): RefRow {
  if (row.state === 'broken' || row.state === 'gone') {
    throw new LoreError('INVALID_STATE', `${who} refers to ${row.raw}, which is ${row.state}: ${row.detail}`, hint);
  }
  const [path, movedLines] = row.state === 'relocated' ? row.new_path!.split('#') : [row.target_path!, undefined];
  const symbol = row.target_kind === 'lines' && movedLines ? movedLines : row.symbol;
  const print = fingerprintOf(ws, { path, kind: row.target_kind, symbol });
  if (!print) {
    const what = `${who} refers to ${row.raw}, which cannot be read now`;
    throw new LoreError('INVALID_STATE', what, 'check the file and try again');
  }
  const next: RefRow = {
    ...row,
    target_path: path,
    symbol,
    fingerprint: print.fingerprint,
    base_size: print.size,
    size: print.size,
    mtime_ms: print.mtimeMs,
    state: 'current',
    old_path: null,
    new_path: null,
    detail: `re-verified by ${actor.name}`,
    detected_at: now,
    checked_at: now,
    verified_at: now,
    verified_by: `${actor.door}:${actor.name}`,
    finder: print.finder,
    symbol_kind: print.kinds,
  };
  updateRef(ctx.db, next);
  return next;
}

/** A document's reference by finding id (`ref-N`), or a clear error naming what to do. */
export function docReference(ctx: EngineContext, id: string, verb: string): RefRow {
  const match = typeof id === 'string' ? /^ref-(\d+)$/.exec(id) : null;
  if (!match) {
    const got = JSON.stringify(id);
    const hint = 'see the ids with lore drift list --json';
    throw new LoreError('INVALID_INPUT', `a drift finding id looks like ref-12; got ${got}`, hint);
  }
  const row = refById(ctx.db, Number(match[1]));
  if (!row) throw new LoreError('NOT_FOUND', `no drift finding ${id}`, 'it may have cleared already: lore drift list');
  if (row.source_kind !== 'doc') {
    const what = `${id} is a reference of ${row.source}; a memory's anchors are ${verb} with the record`;
    throw new LoreError('INVALID_INPUT', what, `lore reverify ${row.source}`);
  }
  return row;
}
