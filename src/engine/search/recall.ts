// Recall over memories: one ranked list of summaries (never bodies). Lexical relevance from FTS5
// (stemmed; title 4, description 2, body 1, tags 2), then basis, status and freshness priors as
// multipliers. Retracted, quarantined, superseded and expired records are not candidates (as_of
// asks instead what was valid at an instant, superseded records included). A dead end that the
// query resembles comes first, marked.

import { invalid } from '../errors';
import { LIMITS } from '../model/limits';
import { MEMORY_TYPES, type Basis, type MemorySummary, type MemoryType, type Status } from '../model/types';
import { optionalInteger, requireDate, requireEnum, requireText } from '../model/validate';
import { nowIso, type EngineContext } from '../memory/context';
import { rowToMemory, summarize, type MemoryRow } from '../store/memoryRows';
import { deadEndText, resemblance, RESEMBLANCE_THRESHOLD } from './deadEnds';
import { ftsQuery, stems } from './text';

export const BASIS_WEIGHT: Record<Basis, number> = { declared: 1.0, verified: 1.0, observed: 0.9, inferred: 0.6, unstated: 0.8 };
export const STATUS_WEIGHT: Record<Status, number> = { active: 1.0, deprecated: 0.7, disputed: 0.6, superseded: 1.0, retracted: 0, quarantined: 0 };
const FTS_WEIGHTS = '4.0, 2.0, 1.0, 2.0';
/** Freshness is a nudge: at most 15% off for records untouched for years. */
const FRESHNESS_FLOOR = 0.85;
const FRESHNESS_HALF_LIFE_DAYS = 365;

export interface RecallInput {
  query: string;
  types?: string[];
  limit?: number;
  as_of?: string;
}

export interface ScoreParts {
  total: number;
  lexical: number;
  basis: number;
  status: number;
  freshness: number;
  dead_end_match?: number;
}

export interface RecallHit extends MemorySummary {
  score: ScoreParts;
}

export interface RecallResult {
  query: string;
  as_of: string | null;
  results: RecallHit[];
  candidates: number;
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}

function freshness(updatedAt: string, now: string): number {
  const ageDays = Math.max(0, (Date.parse(now) - Date.parse(updatedAt)) / 86_400_000);
  return FRESHNESS_FLOOR + (1 - FRESHNESS_FLOOR) * Math.pow(0.5, ageDays / FRESHNESS_HALF_LIFE_DAYS);
}

export function recall(ctx: EngineContext, input: RecallInput): RecallResult {
  const query = requireText('query', input.query, LIMITS.queryChars);
  const types = (input.types ?? []).map((t) => requireEnum('type', t, MEMORY_TYPES)) as MemoryType[];
  const limit = optionalInteger('limit', input.limit, 1, LIMITS.recallMax) ?? LIMITS.recallDefault;
  const asOf = input.as_of === undefined || input.as_of === null ? null : requireDate('as_of', input.as_of);
  const match = ftsQuery(query);
  if (!match) throw invalid('the query has no searchable words', 'ask with the words a record would contain, e.g. "database migrations"');
  const now = nowIso(ctx);

  const where: string[] = ['memory_fts MATCH ?'];
  const params: (string | number)[] = [match];
  if (asOf) {
    // What was valid at that instant, archived versions and superseded records included, but
    // never a record whose current state is a tombstone or quarantined.
    where.push('m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)');
    params.push(asOf, asOf);
    where.push(`m.key NOT IN (SELECT key FROM memories WHERE is_current = 1 AND status IN ('retracted', 'quarantined'))`);
  } else {
    where.push("m.is_current = 1 AND m.status IN ('active', 'deprecated', 'disputed')");
    where.push('m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)');
    params.push(now, now);
  }
  if (types.length) {
    where.push(`m.type IN (${types.map(() => '?').join(', ')})`);
    params.push(...types);
  }
  // Over-fetch so the priors can reorder what bm25 alone ranked.
  const fetch = Math.max(50, limit * 5);
  const rows = ctx.db.all<MemoryRow & { bm: number }>(
    `SELECT m.*, bm25(memory_fts, ${FTS_WEIGHTS}) AS bm FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid
     WHERE ${where.join(' AND ')} ORDER BY bm LIMIT ?`,
    [...params, fetch],
  );

  // For as_of, keep one version per key: the newest valid at that instant.
  const byKey = new Map<string, MemoryRow & { bm: number }>();
  for (const row of rows) {
    const seen = byKey.get(row.key);
    if (!seen || row.version > seen.version) byKey.set(row.key, row);
  }

  const best = Math.min(...[...byKey.values()].map((r) => r.bm), -Number.EPSILON);
  const probe = stems(query);
  const hits = [...byKey.values()].map((row) => {
    const memory = rowToMemory(row);
    // bm25 is negative, better when lower: relevance is the share of the best match's score.
    const lexical = row.bm / best;
    const status: Status = asOf && memory.status === 'superseded' ? 'superseded' : memory.status;
    const parts: ScoreParts = {
      total: 0,
      lexical: round(lexical),
      basis: BASIS_WEIGHT[memory.basis],
      status: STATUS_WEIGHT[status],
      freshness: round(freshness(memory.updated_at, asOf ?? now)),
    };
    parts.total = round(lexical * parts.basis * parts.status * parts.freshness);
    const summary = summarize(memory, asOf ?? now);
    if (row.is_current === 0) summary.flags.push('archived_version');
    if (memory.type === 'dead_end') {
      const similarity = resemblance(probe, deadEndText(row));
      if (similarity >= RESEMBLANCE_THRESHOLD) {
        parts.dead_end_match = round(similarity);
        summary.flags.unshift('dead_end');
      }
    }
    return { ...summary, score: parts };
  });

  hits.sort(
    (a, b) =>
      Number(b.score.dead_end_match !== undefined) - Number(a.score.dead_end_match !== undefined) ||
      b.score.total - a.score.total ||
      a.key.localeCompare(b.key),
  );
  return { query, as_of: asOf, results: hits.slice(0, limit), candidates: byKey.size };
}
