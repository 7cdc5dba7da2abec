// Recall: one ranked list over memories and indexed documents — titles and one-line descriptions,
// never bodies. Relevance is lexical (FTS5, stemmed; memories: title 4, description 2, body 1,
// tags 2; documents: title 4, heading path 2, text 1) as a share of the best match of either,
// fused with vector similarity from the local model when one is available (an even blend of the
// two). Then priors as multipliers: basis, status and freshness for memories, kind for documents.
// Retracted, quarantined, superseded and expired memories are not candidates (as_of asks instead
// what was valid at an instant). A dead end that the query resembles comes first, marked.

import type { Embedder } from '../embed/embedder';
import { invalid } from '../errors';
import { DOC_KINDS, type DocKind } from '../index/kinds';
import { LIMITS } from '../model/limits';
import { LIVE_STATUSES_SQL, MEMORY_TYPES, type Basis, type MemorySummary, type MemoryType, type Status } from '../model/types';
import { optionalInteger, requireDate, requireEnum, requireText } from '../model/validate';
import { nowIso, type EngineContext } from '../memory/context';
import { rowToMemory, summarize, type MemoryRow } from '../store/memoryRows';
import { deadEndText, resemblance, RESEMBLANCE_THRESHOLD } from './deadEnds';
import { bestPerDoc, docDescription, docsByChunk, lexicalDocs, type DocCandidate } from './docs';
import { cachedStems, coverage, ftsQuery, stems } from './text';
import type { Refusal } from '../trust/integrity';
import type { VectorCache } from './vectors';

export const BASIS_WEIGHT: Record<Basis, number> = { declared: 1.0, verified: 1.0, observed: 0.9, inferred: 0.6, unstated: 0.8 };
export const STATUS_WEIGHT: Record<Status, number> = { active: 1.0, deprecated: 0.7, disputed: 0.6, superseded: 1.0, retracted: 0, quarantined: 0 };
const FTS_WEIGHTS = '4.0, 2.0, 1.0, 2.0';
/** Documents are the repository's own text; kinds written to be acted on rank a little higher. */
export const KIND_WEIGHT: Record<DocKind, number> = {
  adr: 1.0, rfc: 1.0, runbook: 1.0, postmortem: 1.0, guide: 0.95, readme: 0.9, changelog: 0.85,
  terraform: 0.85, kubernetes: 0.85, helm: 0.85, dockerfile: 0.85, ci: 0.85, ansible: 0.85, config: 0.75, code: 0.75, other: 0.75,
};
/** How much of relevance vector similarity contributes when vectors are available. */
const VECTOR_SHARE = 0.5;
const MIN_SCORE = 0.001;
/** bm25 floors the weight of words found in half the store; how many query words a record holds counts too. */
const COVERAGE_SHARE = 0.3;
const COVERAGE_TEXT_CHARS = 600;
/** Engineering records outrank chat-style facts and preferences that merely mention a topic. */
export const TYPE_WEIGHT: Record<MemoryType, number> = {
  decision: 1.0, dead_end: 1.0, runbook: 1.0, incident: 1.0, postmortem: 1.0, convention: 0.95, reference: 0.9, fact: 0.85, preference: 0.8,
};

/** Coverage is measured on the best lexical candidates only (all of them in a small store). */
const COVERAGE_CANDIDATES = 40;

function lexicalRelevance(bmShare: number, probe: Set<string>, terms: Set<string> | null): number {
  return (1 - COVERAGE_SHARE) * bmShare + (terms ? COVERAGE_SHARE * coverage(probe, terms) : 0);
}
/** Freshness is a nudge: at most 15% off for records untouched for years. */
const FRESHNESS_FLOOR = 0.85;
const FRESHNESS_HALF_LIFE_DAYS = 365;

export interface RecallInput {
  query: string;
  types?: string[];
  kinds?: string[];
  limit?: number;
  as_of?: string;
}

export interface ScoreParts {
  total: number;
  lexical: number;
  vector?: number;
  basis: number;
  status: number;
  freshness: number;
  kind?: number;
  type?: number;
  dead_end_match?: number;
}

export interface MemoryHit extends MemorySummary {
  record: 'memory';
  score: ScoreParts;
}

export interface DocHit {
  record: 'doc';
  key: string;
  path: string;
  kind: DocKind;
  title: string;
  description: string;
  lines: [number, number];
  indexed_at: string;
  flags: string[];
  score: ScoreParts;
}

export type RecallHit = MemoryHit | DocHit;

export interface RecallResult {
  query: string;
  as_of: string | null;
  results: RecallHit[];
  /** Matching records that failed verification: named, never returned as memory. */
  refused: Refusal[];
  candidates: number;
  vectors: boolean;
}

export interface RecallDeps {
  embedder?: Embedder;
  vectors: VectorCache;
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}

function freshness(updatedAt: string, now: string): number {
  const ageDays = Math.max(0, (Date.parse(now) - Date.parse(updatedAt)) / 86_400_000);
  return FRESHNESS_FLOOR + (1 - FRESHNESS_FLOOR) * Math.pow(0.5, ageDays / FRESHNESS_HALF_LIFE_DAYS);
}

type Row = MemoryRow & { bm?: number; cosine?: number };

function memoryFilters(asOf: string | null, now: string, types: MemoryType[]): { where: string[]; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (asOf) {
    // What was valid at that instant, archived versions and superseded records included, but
    // never a record whose current state is a tombstone or quarantined.
    where.push('m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)');
    params.push(asOf, asOf);
    where.push(`m.key NOT IN (SELECT key FROM memories WHERE is_current = 1 AND status IN ('retracted', 'quarantined'))`);
  } else {
    where.push(`m.is_current = 1 AND m.status IN ${LIVE_STATUSES_SQL}`);
    where.push('m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)');
    params.push(now, now);
  }
  if (types.length) {
    where.push(`m.type IN (${types.map(() => '?').join(', ')})`);
    params.push(...types);
  }
  return { where, params };
}

/**
 * The best lexical matches among the memories that pass the filters. FTS5 ranks ids alone (no
 * row fetched per match), then only the top ids are read and filtered; when filters drop too many,
 * the window widens.
 */
function lexicalMemories(ctx: EngineContext, query: string, filters: { where: string[]; params: (string | number)[] }, fetch: number): Row[] {
  // When enough records hold every query word, those are the candidates and bm25 need not score
  // every record that shares one common word; otherwise any word counts.
  const every = ftsQuery(query, true);
  const enough = every !== ftsQuery(query) && (ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)', [every, fetch * 2])?.n ?? 0) >= fetch * 2;
  const match = enough ? every : ftsQuery(query);
  for (let window = fetch * 2; ; window *= 4) {
    const ranked = ctx.db.all<{ id: number; bm: number }>(
      `SELECT rowid AS id, bm25(memory_fts, ${FTS_WEIGHTS}) AS bm FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm LIMIT ?`,
      [match, window],
    );
    if (!ranked.length) return [];
    const bm = new Map(ranked.map((r) => [r.id, r.bm]));
    const rows = ctx.db
      .all<Row>(`SELECT m.* FROM memories m WHERE m.id IN (${ranked.map(() => '?').join(', ')}) AND ${filters.where.join(' AND ').replace('m.is_current = 1', '+m.is_current = 1')}`, [...ranked.map((r) => r.id), ...filters.params])
      .map((row) => ({ ...row, bm: bm.get(row.id) }))
      .sort((a, b) => (a.bm ?? 0) - (b.bm ?? 0));
    if (rows.length >= fetch || ranked.length < window) return rows.slice(0, fetch);
  }
}

export async function recall(ctx: EngineContext, input: RecallInput, deps: RecallDeps): Promise<RecallResult> {
  const query = requireText('query', input.query, LIMITS.queryChars);
  const types = (input.types ?? []).map((t) => requireEnum('type', t, MEMORY_TYPES)) as MemoryType[];
  const kinds = (input.kinds ?? []).map((k) => requireEnum('kind', k, DOC_KINDS)) as DocKind[];
  const limit = optionalInteger('limit', input.limit, 1, LIMITS.recallMax) ?? LIMITS.recallDefault;
  const asOf = input.as_of === undefined || input.as_of === null ? null : requireDate('as_of', input.as_of);
  const match = ftsQuery(query);
  if (!match) throw invalid('the query has no searchable words', 'ask with the words a record would contain, e.g. "database migrations"');
  const now = nowIso(ctx);
  // Type filters name memory types; documents join in unless only memory types were asked for.
  const wantMemories = !kinds.length || types.length > 0;
  const wantDocs = !asOf && (kinds.length > 0 || !types.length);
  const fetch = Math.max(50, limit * 5);
  const filters = memoryFilters(asOf, now, types);

  const memoryRows = new Map<string, Row>();
  // One row per key (for as_of, the newest version valid then); the lexical and vector passes
  // each bring a score for the same row.
  const keep = (row: Row) => {
    const seen = memoryRows.get(row.key);
    if (!seen || row.version > seen.version) memoryRows.set(row.key, row);
    else if (seen.id === row.id) memoryRows.set(row.key, { ...seen, bm: seen.bm ?? row.bm, cosine: seen.cosine ?? row.cosine });
  };
  if (wantMemories) lexicalMemories(ctx, query, filters, fetch).forEach(keep);
  const docs = new Map<string, DocCandidate>();
  if (wantDocs) for (const doc of lexicalDocs(ctx.db, query, kinds, fetch)) docs.set(doc.path, doc);

  // Vector candidates, when the current model has vectors and can embed the query.
  let vectorsUsed = false;
  const embedder = deps.embedder;
  if (embedder && deps.vectors.size(ctx.db, embedder.modelId) > 0) {
    const [queryVector] = await embedder.embed([query]);
    const hits = deps.vectors.search(ctx.db, embedder.modelId, queryVector, fetch * 2);
    vectorsUsed = true;
    const memoryIds = hits.filter((h) => h.table === 'memory');
    if (wantMemories && memoryIds.length) {
      const cosine = new Map(memoryIds.map((h) => [h.id, h.score]));
      ctx.db
        .all<Row>(`SELECT m.* FROM memories m WHERE m.id IN (${memoryIds.map(() => '?').join(', ')}) AND ${filters.where.join(' AND ').replace('m.is_current = 1', '+m.is_current = 1')}`, [...memoryIds.map((h) => h.id), ...filters.params])
        .forEach((row) => keep({ ...row, bm: undefined, cosine: cosine.get(row.id) }));
    }
    const chunkHits = hits.filter((h) => h.table === 'chunk');
    if (wantDocs && chunkHits.length) {
      const cosine = new Map(chunkHits.map((h) => [h.id, h.score]));
      const byVector = bestPerDoc(
        docsByChunk(ctx.db, chunkHits.map((h) => h.id), kinds).map((d) => ({ ...d, cosine: cosine.get(d.chunkId) })),
        (a, b) => (a.cosine ?? 0) > (b.cosine ?? 0),
      );
      for (const doc of byVector) {
        const seen = docs.get(doc.path);
        docs.set(doc.path, seen ? { ...seen, cosine: doc.cosine } : doc);
      }
    }
  }

  // One scale for both lists, so a weak memory match does not tie with a strong document match.
  const bestBm = Math.min(...[...memoryRows.values()].map((r) => r.bm ?? 0), ...[...docs.values()].map((d) => d.bm ?? 0), -Number.EPSILON);
  const bestCosine = Math.max(...[...memoryRows.values()].map((r) => r.cosine ?? 0), ...[...docs.values()].map((d) => d.cosine ?? 0), Number.EPSILON);
  const relevance = (lexical: number, cosine: number | undefined) =>
    vectorsUsed ? (1 - VECTOR_SHARE) * lexical + VECTOR_SHARE * Math.max(0, cosine ?? 0) / bestCosine : lexical;

  const probe = stems(query);
  const byBm = <T extends { bm?: number }>(items: T[]) => items.filter((i) => i.bm !== undefined).sort((a, b) => (a.bm ?? 0) - (b.bm ?? 0)).slice(0, Math.max(COVERAGE_CANDIDATES, limit * 3));
  const coverageOf = new Set<object>([...byBm([...memoryRows.values()]), ...byBm([...docs.values()])]);
  const hits: RecallHit[] = [];
  const rowOf = new Map<RecallHit, Row>();
  for (const row of memoryRows.values()) {
    const memory = rowToMemory(row);
    // bm25 is negative, better when lower: lexical relevance is the share of the best match's score.
    const lexical = row.bm === undefined ? 0 : lexicalRelevance(row.bm / bestBm, probe, coverageOf.has(row) ? cachedStems(`mem:${row.id}:${row.content_digest}`, () => `${row.title} ${row.description} ${row.tags} ${row.body.slice(0, COVERAGE_TEXT_CHARS)}`) : null);
    const parts: ScoreParts = {
      total: 0,
      lexical: round(lexical),
      ...(vectorsUsed ? { vector: round(Math.max(0, row.cosine ?? 0)) } : {}),
      basis: BASIS_WEIGHT[memory.basis],
      status: STATUS_WEIGHT[memory.status],
      freshness: round(freshness(memory.updated_at, asOf ?? now)),
      type: TYPE_WEIGHT[memory.type],
    };
    parts.total = round(relevance(lexical, row.cosine) * parts.basis * parts.status * parts.freshness * parts.type!);
    const summary = summarize(memory, asOf ?? now);
    if (row.is_current === 0) summary.flags.push('archived_version');
    if (memory.type === 'dead_end') {
      const similarity = resemblance(probe, deadEndText(row));
      if (similarity >= RESEMBLANCE_THRESHOLD) {
        parts.dead_end_match = round(similarity);
        summary.flags.unshift('dead_end');
      }
    }
    const hit: MemoryHit = { record: 'memory', ...summary, score: parts };
    rowOf.set(hit, row);
    hits.push(hit);
  }
  for (const doc of docs.values()) {
    const lexical = doc.bm === undefined ? 0 : lexicalRelevance(doc.bm / bestBm, probe, coverageOf.has(doc) ? cachedStems(`chunk:${doc.chunkId}:${doc.contentHash}`, () => `${doc.title} ${doc.heading} ${doc.text}`) : null);
    const parts: ScoreParts = {
      total: 0,
      lexical: round(lexical),
      ...(vectorsUsed ? { vector: round(Math.max(0, doc.cosine ?? 0)) } : {}),
      basis: 1,
      status: 1,
      freshness: 1,
      kind: KIND_WEIGHT[doc.kind],
    };
    parts.total = round(relevance(lexical, doc.cosine) * parts.kind!);
    hits.push({
      record: 'doc',
      key: `doc:${doc.path}`,
      path: doc.path,
      kind: doc.kind,
      title: doc.title,
      description: docDescription(doc),
      lines: [doc.startLine, doc.endLine],
      indexed_at: doc.indexedAt,
      flags: [],
      score: parts,
    });
  }

  // A match on nothing but words every record contains carries no evidence; it is dropped.
  const relevant = hits.filter((h) => h.score.total >= MIN_SCORE || h.score.dead_end_match !== undefined);
  relevant.sort(
    (a, b) =>
      Number(b.score.dead_end_match !== undefined) - Number(a.score.dead_end_match !== undefined) ||
      b.score.total - a.score.total ||
      a.key.localeCompare(b.key),
  );
  // Signatures are verified in rank order, only until the page is full: a refused record is named
  // and the next one takes its place.
  const results: RecallHit[] = [];
  const refused: Refusal[] = [];
  for (const hit of relevant) {
    if (results.length >= limit) break;
    const row = rowOf.get(hit);
    const verdict = row ? ctx.integrity.check(row) : ({ ok: true, unattributed: false } as const);
    if (verdict.ok) {
      if (verdict.unattributed) hit.flags.push('unattributed');
      results.push(hit);
    } else refused.push({ key: hit.key, version: row!.version, reason: verdict.reason });
  }
  return { query, as_of: asOf, results, refused, candidates: relevant.length, vectors: vectorsUsed };
}
