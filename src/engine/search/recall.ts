// Recall: one ranked list over memories and indexed documents — titles and one-line descriptions,
// never bodies. FTS5 finds the lexical candidates of both; each is then scored by recall's own
// BM25F (bm25.ts: memories title 4, description 2, body 1, tags 2; documents title 4, heading
// path 2, text 1) with one idf over memories and chunks together, so both are on one scale, and
// relevance is the share of the best candidate's score, blended with query-word coverage and,
// when a local model is loaded, with vector similarity (an even blend). Then priors as
// multipliers: basis, status, freshness and type for memories, kind for documents, and a boost
// for the kind the question names (intent.ts). Retracted, quarantined, superseded and expired
// memories are not candidates (as_of asks instead what was valid at an instant). A dead end that
// the query resembles comes first, marked.
//
// The stages: validate (the input), gather (candidates), fuse (scores), rank and verify.

import type { Embedder } from '../embed/embedder';
import { invalid } from '../errors';
import { DOC_KINDS, type DocKind } from '../model/kinds';
import { LIMITS } from '../model/limits';
import { MEMORY_TYPES, type Basis, type MemorySummary, type MemoryType, type Status } from '../model/types';
import { optionalInteger, requireDate, requireEnum, requireText } from '../model/validate';
import { nowIso, type EngineContext } from '../context';
import { rowToMemory, summarize, type MemoryRow } from '../record/rows';
import { deadEndText, resemblance, RESEMBLANCE_THRESHOLD } from '../record/deadEnds';
import { bestPerDoc, docsByChunk, lexicalDocs, type DocCandidate } from './docs';
import { docSnippet } from './snippet';
import { markConflicts } from './conflicts';
import { coverage, ftsQuery, queryPhrases, queryTerms, stems } from '../text/words';
import { memorySearch } from './memorySearch';
import type { MemorySearchPort, RecallFilter } from '../record/memorySearch';
import {
  bm25f,
  fieldStems,
  matchStem,
  phraseScore,
  weightedPhrases,
  weightedTerms,
  type Field,
  type WeightedPhrase,
  type WeightedTerm,
} from './bm25';
import { kindIntent, type KindIntent } from './intent';
import type { Refusal } from '../record/integrity';
import type { VectorCache } from '../record/vectors';
import type { Verification } from './verificationTypes';

export const BASIS_WEIGHT: Record<Basis, number> = {
  declared: 1.0,
  verified: 1.0,
  observed: 0.9,
  inferred: 0.6,
  unstated: 0.8,
};
export const STATUS_WEIGHT: Record<Status, number> = {
  active: 1.0,
  deprecated: 0.7,
  disputed: 0.6,
  superseded: 1.0,
  retracted: 0,
  quarantined: 0,
};
/** Documents are the repository's own text; kinds written to be acted on rank a little higher. */
export const KIND_WEIGHT: Record<DocKind, number> = {
  adr: 1.0,
  rfc: 1.0,
  runbook: 1.0,
  postmortem: 1.0,
  guide: 0.95,
  readme: 0.9,
  changelog: 0.85,
  terraform: 0.85,
  kubernetes: 0.85,
  helm: 0.85,
  dockerfile: 0.85,
  ci: 0.85,
  ansible: 0.85,
  config: 0.75,
  code: 0.75,
  other: 0.75,
};
/** How much of relevance vector similarity contributes when vectors are available. */
const VECTOR_SHARE = 0.5;
const MIN_SCORE = 0.001;
/** How many query words a record holds counts too, beside their weighted frequency. */
const COVERAGE_SHARE = 0.3;
/** Engineering records outrank chat-style facts and preferences that merely mention a topic. */
export const TYPE_WEIGHT: Record<MemoryType, number> = {
  decision: 1.0,
  dead_end: 1.0,
  runbook: 1.0,
  incident: 1.0,
  postmortem: 1.0,
  convention: 0.95,
  reference: 0.9,
  fact: 0.85,
  preference: 0.8,
};
/** A record of the kind the question names ("which runbooks…") is preferred by this factor; others are not filtered. */
export const INTENT_BOOST = 1.5;

/** The fields recall scores a memory on (the FTS5 columns, same weights). */
function memoryFields(row: MemoryRow): Field[] {
  return [
    { text: row.title, weight: 4, b: 0, typical: 8, label: true },
    { text: row.description, weight: 2, b: 0.3, typical: 24 },
    { text: row.body, weight: 1, b: 0.75, typical: 150 },
    { text: (JSON.parse(row.tags) as string[]).join(' '), weight: 2, b: 0, typical: 4 },
  ];
}

/** The fields recall scores a document chunk on. */
function chunkFields(doc: DocCandidate): Field[] {
  return [
    { text: doc.title, weight: 4, b: 0, typical: 8, label: true },
    { text: doc.heading, weight: 2, b: 0, typical: 8, label: true },
    { text: doc.text, weight: 1, b: 0.75, typical: 150 },
  ];
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
  /** INTENT_BOOST when the record is of a kind the question names. */
  intent?: number;
  /** UNRELIABLE_FACTOR when its anchors are all gone or a newer record contradicts it (verification.ts). */
  verification?: number;
}

export interface MemoryHit extends MemorySummary {
  record: 'memory';
  score: ScoreParts;
  /** Whether it still holds: set on every hit the engine returns. */
  verification?: Verification;
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
  /** Whether its references still hold: set on every hit the engine returns. */
  verification?: Verification;
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

/**
 * The best lexical matches among the memories that pass the filter. When enough records hold every
 * query word, those are the candidates and bm25 need not score every record that shares one
 * common word; otherwise any word counts.
 */
function lexicalMemories(search: MemorySearchPort, query: string, filter: RecallFilter, fetch: number): Row[] {
  const words = queryTerms(query);
  const enough = words.length > 1 && search.holdingAll(words, fetch * 2) >= fetch * 2;
  return search.lexical(words, enough, filter, fetch);
}

interface Request {
  query: string;
  /** Whether a record names something to open (the engine's record hooks). */
  opens: EngineContext['hooks']['opens'];
  types: MemoryType[];
  kinds: DocKind[];
  limit: number;
  asOf: string | null;
  now: string;
  /** The query as FTS5 and BM25F see it: without the words that only named a kind. */
  lexicalQuery: string;
  intent: KindIntent | null;
}

function validate(ctx: EngineContext, input: RecallInput, options: RecallOptions): Request {
  const query = requireText('query', input.query, LIMITS.queryChars);
  const types = (input.types ?? []).map((t) => requireEnum('type', t, MEMORY_TYPES)) as MemoryType[];
  const kinds = (input.kinds ?? []).map((k) => requireEnum('kind', k, DOC_KINDS)) as DocKind[];
  const limit = optionalInteger('limit', input.limit, 1, LIMITS.recallMax) ?? LIMITS.recallDefault;
  const asOf = input.as_of === undefined || input.as_of === null ? null : requireDate('as_of', input.as_of);
  if (!ftsQuery(query))
    throw invalid(
      'the query has no searchable words',
      'ask with the words a record would contain, e.g. "database migrations"',
    );
  const intent = options.intent === false ? null : kindIntent(query, namesInLabels(ctx, query));
  // A word that names a kind says what the answer is, not what it contains: the boost carries it.
  const rest = intent ? queryTerms(query).filter((w) => !intent.words.has(w)) : [];
  const lexicalQuery = intent && rest.length ? rest.join(' ') : query;
  return { query, opens: ctx.hooks.opens, types, kinds, limit, asOf, now: nowIso(ctx), lexicalQuery, intent };
}

/**
 * The query's words that, with a neighbour, form a phrase some title or heading holds ("Terraform
 * Cloud" in "Replace Terraform Cloud with…"): such a word is part of a name, not a kind the
 * question asks for. One indexed FTS5 lookup per phrase that holds a kind word.
 */
function namesInLabels(ctx: EngineContext, query: string): Set<string> {
  const named = new Set<string>();
  if (!kindIntent(query)) return named;
  for (const [a, b] of queryPhrases(query)) {
    if (!kindIntent(a) && !kindIntent(b)) continue;
    const phrase = `"${a} ${b}"`;
    const found =
      ctx.db.get('SELECT 1 AS x FROM doc_fts WHERE doc_fts MATCH ? LIMIT 1', [`{title heading} : ${phrase}`]) !==
        undefined || memorySearch(ctx).titleHolds(a, b);
    if (found) [a, b].forEach((w) => named.add(w));
  }
  return named;
}

interface Candidates {
  memories: Map<string, Row>;
  docs: Map<string, DocCandidate>;
  vectorsUsed: boolean;
}

/** Lexical candidates from FTS5 (documents: the best chunk of each by BM25F), then vector ones. */
async function gather(ctx: EngineContext, req: Request, deps: RecallDeps): Promise<Candidates> {
  // Type filters name memory types; documents join in unless only memory types were asked for.
  const wantMemories = !req.kinds.length || req.types.length > 0;
  const wantDocs = !req.asOf && (req.kinds.length > 0 || !req.types.length);
  const fetch = Math.max(50, req.limit * 5);
  const filter: RecallFilter = { asOf: req.asOf, now: req.now, types: req.types };
  const search = memorySearch(ctx);

  const memories = new Map<string, Row>();
  // One row per key (for as_of, the newest version valid then); the lexical and vector passes
  // each bring a score for the same row.
  const keep = (row: Row) => {
    const seen = memories.get(row.key);
    if (!seen || row.version > seen.version) memories.set(row.key, row);
    else if (seen.id === row.id)
      memories.set(row.key, { ...seen, bm: seen.bm ?? row.bm, cosine: seen.cosine ?? row.cosine });
  };
  if (wantMemories) lexicalMemories(search, req.lexicalQuery, filter, fetch).forEach(keep);
  const docs = new Map<string, DocCandidate>();
  if (wantDocs) for (const doc of lexicalDocs(ctx.db, req.lexicalQuery, req.kinds, fetch)) docs.set(doc.path, doc);

  // Vector candidates, when the current model has vectors and can embed the query.
  let vectorsUsed = false;
  const embedder = deps.embedder;
  // A shared store keeps memories' vectors itself (search.nearest); the local codes hold the docs'.
  const shared = search.nearest;
  const localVectors = embedder ? deps.vectors.size(ctx.db, embedder.modelId) : 0;
  if (embedder && (localVectors > 0 || shared)) {
    const [queryVector] = await embedder.embed([req.query]);
    const hits = deps.vectors.search(ctx.db, embedder.modelId, queryVector, fetch * 2);
    const memoryIds = shared
      ? shared.call(search, embedder.modelId, queryVector, fetch * 2)
      : hits.filter((h) => h.table === 'memory');
    vectorsUsed = localVectors > 0 || memoryIds.length > 0;
    if (wantMemories && memoryIds.length) {
      const cosine = new Map(memoryIds.map((h) => [h.id, h.score]));
      search
        .rows(
          memoryIds.map((h) => h.id),
          filter,
        )
        .forEach((row) => keep({ ...row, bm: undefined, cosine: cosine.get(row.id) }));
    }
    const chunkHits = hits.filter((h) => h.table === 'chunk');
    if (wantDocs && chunkHits.length) {
      const cosine = new Map(chunkHits.map((h) => [h.id, h.score]));
      const byVector = bestPerDoc(
        docsByChunk(
          ctx.db,
          chunkHits.map((h) => h.id),
          req.kinds,
        ).map((d) => ({ ...d, cosine: cosine.get(d.chunkId) })),
        (a, b) => (a.cosine ?? 0) > (b.cosine ?? 0),
      );
      for (const doc of byVector) {
        const seen = docs.get(doc.path);
        docs.set(doc.path, seen ? { ...seen, cosine: doc.cosine } : doc);
      }
    }
  }
  return { memories, docs, vectorsUsed };
}

/** Options the evals use to measure a ranking feature on and off; recall's callers leave them unset. */
export interface RecallOptions {
  /** The boost for a kind the question names (default on). */
  intent?: boolean;
}

/** Every candidate scored: relevance on one scale for memories and documents, then the priors. */
interface Fused {
  hits: RecallHit[];
  rowOf: Map<RecallHit, Row>;
  snippetOf: Map<RecallHit, () => void>;
}

function fuse(ctx: EngineContext, req: Request, found: Candidates): Fused {
  const { db } = ctx;
  const { vectorsUsed } = found;
  const words = queryTerms(req.lexicalQuery);
  // With documents alone, FTS5's order and shares are the answer; BM25F (and its document
  // frequencies) is needed only to put memories on the documents' scale, or among themselves.
  // Phrases come from the question as asked: a kind word ("Terraform") still belongs to a name.
  const phrases: WeightedPhrase[] = weightedPhrases(db, memorySearch(ctx), queryPhrases(req.query));
  const terms: WeightedTerm[] =
    phrases.length || [...found.memories.values()].some((r) => r.bm !== undefined)
      ? weightedTerms(db, memorySearch(ctx), words)
      : [];
  const memoryLexical = new Map<Row, number>();
  for (const row of found.memories.values()) {
    if (row.bm === undefined) continue;
    const key = `mem:${row.id}:${row.content_digest}`;
    const fields = memoryFields(row);
    memoryLexical.set(row, bm25f(terms, key, fields) + phraseScore(phrases, key, fields));
  }
  // Documents keep FTS5's order among themselves (a large index's statistics are sound); BM25F
  // places the best of them against the memories, the others follow in proportion.
  const docs = [...found.docs.values()].filter((d) => d.bm !== undefined);
  const bestDocBm = Math.min(...docs.map((d) => d.bm!), -Number.EPSILON);
  const bestDocOwn = !terms.length
    ? 1
    : Math.max(
        0,
        ...docs
          .filter((d) => d.bm === bestDocBm)
          .map((d) => bm25f(terms, `chunk:${d.chunkId}:${d.contentHash}`, chunkFields(d))),
      );
  const docLexical = new Map<DocCandidate, number>(
    docs.map((d) => [
      d,
      (d.bm! / bestDocBm) * bestDocOwn + phraseScore(phrases, `chunk:${d.chunkId}:${d.contentHash}`, chunkFields(d)),
    ]),
  );
  // One scale for both lists: the same BM25F and idf, as a share of the best candidate of either.
  const best = Math.max(...memoryLexical.values(), ...docLexical.values(), Number.EPSILON);
  const bestCosine = Math.max(
    ...[...found.memories.values()].map((r) => r.cosine ?? 0),
    ...[...found.docs.values()].map((d) => d.cosine ?? 0),
    Number.EPSILON,
  );
  const probe = new Set(words.map(matchStem));
  const lexicalOf = (score: number | undefined, stemsOf: () => Set<string>) =>
    score === undefined || score <= 0
      ? 0
      : (1 - COVERAGE_SHARE) * (score / best) + COVERAGE_SHARE * coverage(probe, stemsOf());
  const relevance = (lexical: number, cosine: number | undefined) =>
    vectorsUsed ? (1 - VECTOR_SHARE) * lexical + (VECTOR_SHARE * Math.max(0, cosine ?? 0)) / bestCosine : lexical;
  const deadEndProbe = stems(req.query);

  const hits: RecallHit[] = [];
  const rowOf = new Map<RecallHit, Row>();
  const snippetOf = new Map<RecallHit, () => void>();
  for (const row of found.memories.values()) {
    const memory = rowToMemory(row);
    const lexical = lexicalOf(memoryLexical.get(row), () =>
      fieldStems(`mem:${row.id}:${row.content_digest}`, memoryFields(row)),
    );
    const parts: ScoreParts = {
      total: 0,
      lexical: round(lexical),
      ...(vectorsUsed ? { vector: round(Math.max(0, row.cosine ?? 0)) } : {}),
      basis: BASIS_WEIGHT[memory.basis],
      status: STATUS_WEIGHT[memory.status],
      freshness: round(freshness(memory.updated_at, req.asOf ?? req.now)),
      type: TYPE_WEIGHT[memory.type],
      ...(req.intent?.types.has(memory.type) ? { intent: INTENT_BOOST } : {}),
    };
    parts.total = round(
      relevance(lexical, row.cosine) * parts.basis * parts.status * parts.freshness * parts.type! * (parts.intent ?? 1),
    );
    const summary = summarize(memory, req.asOf ?? req.now, req.opens);
    if (row.is_current === 0) summary.flags.push('archived_version');
    if (memory.type === 'dead_end') {
      const similarity = resemblance(deadEndProbe, deadEndText(row));
      if (similarity >= RESEMBLANCE_THRESHOLD) {
        parts.dead_end_match = round(similarity);
        summary.flags.unshift('dead_end');
      }
    }
    const hit: MemoryHit = { record: 'memory', ...summary, score: parts };
    rowOf.set(hit, row);
    hits.push(hit);
  }
  for (const doc of found.docs.values()) {
    const lexical = lexicalOf(docLexical.get(doc), () =>
      fieldStems(`chunk:${doc.chunkId}:${doc.contentHash}`, chunkFields(doc)),
    );
    const parts: ScoreParts = {
      total: 0,
      lexical: round(lexical),
      ...(vectorsUsed ? { vector: round(Math.max(0, doc.cosine ?? 0)) } : {}),
      basis: 1,
      status: 1,
      freshness: 1,
      kind: KIND_WEIGHT[doc.kind],
      // "runbooks for …": a document of that kind, or a borderline one whose close runner-up it is.
      ...(req.intent?.kinds.has(doc.kind) || (doc.kindRunnerUp && req.intent?.kinds.has(doc.kindRunnerUp))
        ? { intent: INTENT_BOOST }
        : {}),
    };
    parts.total = round(relevance(lexical, doc.cosine) * parts.kind! * (parts.intent ?? 1));
    const hit: DocHit = {
      record: 'doc',
      key: `doc:${doc.path}`,
      path: doc.path,
      kind: doc.kind,
      title: doc.title,
      description: '',
      lines: [doc.startLine, doc.endLine],
      indexed_at: doc.indexedAt,
      // A borderline document the kind filter took for its runner-up kind (ranked after the kind's own).
      flags: req.kinds.length && !req.kinds.includes(doc.kind) ? ['borderline_kind'] : [],
      score: parts,
    };
    // The snippet is read out of the chunk only for the hits that make the page.
    snippetOf.set(hit, () => Object.assign(hit, docSnippet(doc, probe)));
    hits.push(hit);
  }
  return { hits, rowOf, snippetOf };
}

/** Dead ends the query resembles first, then by score; signatures verified in rank order until the page is full. */
function rankAndVerify(
  ctx: EngineContext,
  req: Request,
  { hits, rowOf, snippetOf }: Fused,
): Pick<RecallResult, 'results' | 'refused' | 'candidates'> {
  // A match on nothing but words every record contains carries no evidence; it is dropped.
  const relevant = hits.filter((h) => h.score.total >= MIN_SCORE || h.score.dead_end_match !== undefined);
  const borderline = (h: RecallHit) => Number(h.flags.includes('borderline_kind'));
  relevant.sort(
    (a, b) =>
      Number(b.score.dead_end_match !== undefined) - Number(a.score.dead_end_match !== undefined) ||
      borderline(a) - borderline(b) ||
      b.score.total - a.score.total ||
      a.key.localeCompare(b.key),
  );
  markConflicts(ctx.db, relevant);
  // A refused record is named and the next one takes its place.
  const results: RecallHit[] = [];
  const refused: Refusal[] = [];
  for (const hit of relevant) {
    if (results.length >= req.limit) break;
    const row = rowOf.get(hit);
    const verdict = row ? ctx.integrity.check(row) : ({ ok: true, unattributed: false } as const);
    if (verdict.ok) {
      if (verdict.unattributed) hit.flags.push('unattributed');
      snippetOf.get(hit)?.();
      results.push(hit);
    } else refused.push({ key: hit.key, version: row!.version, reason: verdict.reason });
  }
  return { results, refused, candidates: relevant.length };
}

export async function recall(
  ctx: EngineContext,
  input: RecallInput,
  deps: RecallDeps,
  options: RecallOptions = {},
): Promise<RecallResult> {
  const req = validate(ctx, input, options);
  const found = await gather(ctx, req, deps);
  return {
    query: req.query,
    as_of: req.asOf,
    ...rankAndVerify(ctx, req, fuse(ctx, req, found)),
    vectors: found.vectorsUsed,
  };
}
