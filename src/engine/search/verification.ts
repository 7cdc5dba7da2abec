// Whether each recall hit still holds, said on the hit itself so no door has to ask twice: its
// anchors' drift (current, relocated, changed, gone), the newer live records that contradict it
// (or the older ones it replaces), and the records it duplicates. A hit whose anchors are all gone,
// or that a newer record contradicts, ranks below the record that replaced it and its reason says
// why. Contradictions need no fact key and no steward run: two live records of one type stating
// different values of one exclusive kind (search/contradictions.ts) are found at recall time.

import type { SqlDatabase } from '../ports';
import type { EngineContext } from '../context';
import { NEAR_DUPLICATE_SIMILARITY, cosine, termVector } from '../model/similarity';
import { findContradictions } from './contradictions';
import type { DocHit, MemoryHit, RecallHit, RecallResult } from './recall';
import type { AnchorDrift, RelatedRecord, Verification } from './verificationTypes';

export {
  VERIFICATION_STATES,
  type AnchorDrift,
  type RelatedRecord,
  type Verification,
  type VerificationState,
} from './verificationTypes';

/** What an unreliable hit's score is multiplied by before the list is ordered again. */
export const UNRELIABLE_FACTOR = 0.5;
const GONE_STATES = new Set(['gone', 'broken']);

interface Row {
  key: string;
  type: string;
  title: string;
  description: string;
  fact_key: string | null;
  anchors: string;
  valid_from: string;
}

function currentRows(db: SqlDatabase, keys: string[]): Map<string, Row> {
  if (!keys.length) return new Map();
  const rows = db.all<Row>(
    `SELECT key, type, title, description, fact_key, anchors, valid_from FROM memories
     WHERE is_current = 1 AND key IN (${keys.map(() => '?').join(', ')})`,
    keys,
  );
  return new Map(rows.map((r) => [r.key, r]));
}

/** Open Inbox items of one kind that name any of `keys` (their key lists; conflicts oldest first). */
function openItems(db: SqlDatabase, kind: 'conflict' | 'duplicate', keys: Set<string>): string[][] {
  return db
    .all<{ keys: string }>('SELECT keys FROM inbox_items WHERE state = ? AND kind = ?', ['open', kind])
    .map((r) => JSON.parse(r.keys) as string[])
    .filter((group) => group.some((k) => keys.has(k)));
}

const newer = (a: { valid_from: string; key: string }, b: { valid_from: string; key: string }) =>
  a.valid_from > b.valid_from || (a.valid_from === b.valid_from && a.key > b.key);

// At most this many duplicates are named per hit: fifty near-copies on one page would otherwise
// name each other 2,450 times (a recall result grew past its byte cap on one hit).
const MAX_DUPLICATES_NAMED = 3;

function push(list: RelatedRecord[], item: RelatedRecord, max = Infinity): void {
  if (list.length < max && !list.some((r) => r.key === item.key)) list.push(item);
}

function blank(): Verification {
  return {
    state: 'holds',
    anchors: { total: null, current: null, drifted: [] },
    contradicted_by: [],
    contradicts: [],
    duplicates: [],
    reason: '',
  };
}

/** What verification reads of a hit or a listed memory: its drift as annotated by the drift module. */
export interface Verifiable {
  key: string;
  record: 'memory' | 'doc';
  type?: string;
  title: string;
  description: string;
  drift?: AnchorDrift[];
}

function driftOf(hit: Verifiable): AnchorDrift[] {
  return (hit.drift ?? []).map((d) => ({
    state: d.state,
    reference: d.reference,
    detail: d.detail,
  }));
}

/** Relations between the page's memories and the live records around them. */
function relate(
  ctx: EngineContext,
  memories: Verifiable[],
  of: Map<string, Verification>,
  rows: Map<string, Row>,
): void {
  const onPage = new Set(memories.map((m) => m.key));
  const titles = new Map<string, string>(memories.map((m) => [m.key, m.title]));
  const relatePair = (older: string, newest: string, why: string) => {
    const [old, renewed] = [of.get(older), of.get(newest)];
    if (old) push(old.contradicted_by, { key: newest, title: titles.get(newest) ?? newest, why });
    if (renewed) push(renewed.contradicts, { key: older, title: titles.get(older) ?? older, why });
  };
  // Without a fact key: values of one exclusive kind that differ (one FTS5 lookup per memory on the page).
  for (const hit of memories) {
    const row = rows.get(hit.key);
    if (!row) continue;
    for (const match of findContradictions(ctx, row)) {
      titles.set(match.key, match.title);
      const why = `states another ${match.value_kind} (${match.values[0].join(', ')} / ${match.values[1].join(', ')})`;
      const theirs = { key: match.key, valid_from: match.valid_from };
      if (newer(theirs, row)) relatePair(row.key, match.key, why);
      else relatePair(match.key, row.key, why);
    }
  }
  // Conflicts the steward found (one fact key, one anchor): the item lists its records oldest first.
  const groups = openItems(ctx.db, 'conflict', onPage);
  const unknown = groups.flat().filter((k) => !titles.has(k));
  for (const [key, row] of currentRows(ctx.db, unknown)) titles.set(key, row.title);
  for (const group of groups) {
    const newest = group[group.length - 1];
    for (const older of group.slice(0, -1)) relatePair(older, newest, 'an open Inbox conflict names both');
  }
  // Duplicates: the steward's open items, and same-type records on the page that say the same thing.
  for (const group of openItems(ctx.db, 'duplicate', onPage)) {
    for (const key of group) {
      for (const other of group)
        if (other !== key && of.has(key))
          push(
            of.get(key)!.duplicates,
            {
              key: other,
              title: titles.get(other) ?? other,
              why: 'an open Inbox duplicate names both',
            },
            MAX_DUPLICATES_NAMED,
          );
    }
  }
  const vectors = memories.map((m) => termVector({ title: m.title, description: m.description, body: '', tags: [] }));
  memories.forEach((a, i) => {
    for (let j = i + 1; j < memories.length; j++) {
      const b = memories[j];
      if (a.type !== b.type || cosine(vectors[i], vectors[j]) < NEAR_DUPLICATE_SIMILARITY) continue;
      const same = 'says nearly the same';
      push(of.get(a.key)!.duplicates, { key: b.key, title: b.title, why: same }, MAX_DUPLICATES_NAMED);
      push(of.get(b.key)!.duplicates, { key: a.key, title: a.title, why: same }, MAX_DUPLICATES_NAMED);
    }
  });
}

/** `anchors`: a memory's anchors as written (null for a document). Links drift too but are not anchors. */
function conclude(v: Verification, anchors: string[] | null): void {
  const isMemory = anchors !== null;
  const gone = new Set(v.anchors.drifted.filter((d) => GONE_STATES.has(d.state)).map((d) => d.reference));
  const drifted = new Set(v.anchors.drifted.map((d) => d.reference));
  if (anchors) {
    v.anchors.total = anchors.length;
    v.anchors.current = anchors.filter((a) => !drifted.has(a)).length;
  }
  const describe = (d: AnchorDrift) => `${d.reference} ${d.state}${d.detail ? ` (${d.detail})` : ''}`;
  if (v.contradicted_by.length) {
    v.state = 'contradicted';
    const newer = v.contradicted_by.map((r) => `${r.key} "${r.title}"`).join(', ');
    v.reason = `contradicted by newer ${newer}: ${v.contradicted_by[0].why}`;
  } else if (anchors?.length && anchors.every((a) => gone.has(a))) {
    v.state = 'anchors_gone';
    v.reason = `every anchor is gone: ${v.anchors.drifted.map(describe).join('; ')}`;
  } else if (drifted.size) {
    v.state = 'drifted';
    const what = `${isMemory ? 'anchor' : 'reference'}${drifted.size > 1 ? 's' : ''}`;
    v.reason = `${drifted.size} ${what} drifted: ${v.anchors.drifted.map(describe).join('; ')}`;
  } else if (isMemory && !v.anchors.total) {
    v.state = 'unanchored';
    v.reason = 'no anchor to check';
  } else {
    v.state = 'holds';
    v.reason = isMemory
      ? `${v.anchors.total} anchor${v.anchors.total === 1 ? '' : 's'} current`
      : 'its references hold';
  }
  const extra = relations(v, { why: true });
  if (extra.length) v.reason += `; ${extra.join('; ')}`;
}

/** The other records a hit stands beside that do not make it unreliable: the older it replaces, its duplicates. */
function relations(v: Verification, { why }: { why: boolean }): string[] {
  const extra: string[] = [];
  if (v.contradicts.length) {
    const replaced = `replaces older ${v.contradicts.map((r) => r.key).join(', ')}`;
    extra.push(why ? `${replaced} (${v.contradicts[0].why})` : replaced);
  }
  if (v.duplicates.length) extra.push(`duplicates ${v.duplicates.map((r) => r.key).join(', ')}`);
  return extra;
}

/**
 * The verification of each record (memories and documents, their drift already annotated): used by
 * recall, and by the doors that list memories without a question (session start, the pre-edit
 * hook, exported agent instructions).
 */
export function verifyAll(ctx: EngineContext, items: Verifiable[]): Map<string, Verification> {
  const memories = items.filter((h) => h.record === 'memory');
  const rows = currentRows(
    ctx.db,
    memories.map((m) => m.key),
  );
  const of = new Map<string, Verification>(items.map((h) => [h.key, blank()]));
  for (const item of items) of.get(item.key)!.anchors.drifted = driftOf(item);
  relate(ctx, memories, of, rows);
  for (const item of items)
    conclude(
      of.get(item.key)!,
      item.record === 'memory' ? (JSON.parse(rows.get(item.key)?.anchors ?? '[]') as string[]) : null,
    );
  return of;
}

/**
 * Verification on every hit, then the order it implies: unreliable hits (anchors all gone,
 * contradicted by a newer record) lose UNRELIABLE_FACTOR of their score, and an older record never
 * stays above the newer one that contradicts it.
 */
export function verifyRecall(ctx: EngineContext, result: RecallResult): RecallResult {
  const hits = result.results;
  if (!hits.length) return result;
  const of = verifyAll(ctx, hits as Array<RecallHit & Verifiable>);
  for (const hit of hits) {
    const v = of.get(hit.key)!;
    (hit as (MemoryHit | DocHit) & { verification?: Verification }).verification = v;
    if ((v.contradicted_by.length || v.contradicts.length) && !hit.flags.includes('conflict'))
      hit.flags.push('conflict');
    if (v.state === 'contradicted' || v.state === 'anchors_gone') {
      hit.score.verification = UNRELIABLE_FACTOR;
      hit.score.total = Math.round(hit.score.total * UNRELIABLE_FACTOR * 10000) / 10000;
    }
  }
  const position = new Map(hits.map((h, i) => [h, i]));
  // The same order as recall's ranking (dead ends first, a kind filter's borderline documents after
  // the kind's own), with the scores verification lowered.
  const borderline = (h: RecallHit) => Number(h.flags.includes('borderline_kind'));
  hits.sort(
    (a, b) =>
      Number(b.score.dead_end_match !== undefined) - Number(a.score.dead_end_match !== undefined) ||
      borderline(a) - borderline(b) ||
      b.score.total - a.score.total ||
      position.get(a)! - position.get(b)!,
  );
  // An older record placed above the newer one that contradicts it moves to just below it.
  for (const hit of [...hits]) {
    const later = of
      .get(hit.key)!
      .contradicted_by.map((r) => hits.findIndex((h) => h.key === r.key))
      .filter((i) => i >= 0);
    if (!later.length) continue;
    const at = hits.indexOf(hit);
    const below = Math.max(...later);
    if (below > at) {
      // Its score follows its place: never shown above the record that replaced it, which would read
      // as "0.439" printed under "0.266" in every door's list.
      hit.score.total = Math.min(hit.score.total, hits[below].score.total);
      hits.splice(at, 1);
      hits.splice(below, 0, hit);
    }
  }
  return result;
}

/** Whether a record can be relied on as it stands: its anchors current, or none to check. */
export function stillHolds(v: Verification): boolean {
  return v.state === 'holds' || v.state === 'unanchored';
}

/**
 * A record that holds, said briefly where lists are short (the hooks, the editor's pick): its state,
 * and the records it replaces or duplicates when there are any, so a duplicate is never silent.
 */
export function briefVerification(v: Verification): string {
  return [v.state.replace('_', ' '), ...relations(v, { why: false })].join('; ');
}

/** One line for every door (CLI, MCP text, hooks, editor): the state and why. */
export function describeVerification(v: Verification): string {
  const unreliable = v.state === 'contradicted' || v.state === 'anchors_gone';
  return `verification: ${v.state.replace('_', ' ')}${unreliable ? ' — do not rely on it' : ''} (${v.reason})`;
}

/** The verification of live memories named by key, with their drift as the drift module flags it. */
export function verifyKeys(
  ctx: EngineContext,
  keys: readonly string[],
  drift: ReadonlyMap<string, AnchorDrift[]>,
): Map<string, Verification> {
  const rows = currentRows(ctx.db, [...new Set(keys)]);
  const items: Verifiable[] = [...rows.values()].map((r) => ({
    key: r.key,
    record: 'memory',
    type: r.type,
    title: r.title,
    description: r.description,
    drift: drift.get(r.key),
  }));
  return verifyAll(ctx, items);
}
