// The indexer: a content-hash catalog diffed against the workspace's files into work (index,
// rename, delete), done in batches that share commits (a few batches or a second at most, where
// the store groups them) — a kill loses at most the uncommitted batches — then embeddings for
// whatever has no vector from the current model. An async generator: it yields progress and stops
// between batches when its signal aborts.

import { sha256 } from '../model/digest';
import type { Embedder } from '../embed/embedder';
import type { EngineContext } from '../context';
import { nowIso } from '../context';
import { documentTitle } from './chunk';
import { classifyContextOf, classifyKind, navFilesOf } from './classify';
import { closeRunnerUp } from './kindModel';
import type { KindWeights } from './kindModel';
import { ownReadingOf, reconsiderBySiblings, SIBLING_PASS, storedOwnReading } from './kindSiblings';
import {
  catalog,
  type CatalogEntry,
  countPending,
  deleteDoc,
  dropOtherModels,
  pendingEmbeddings,
  putDoc,
  renameDoc,
  touchDoc,
  type DocRecord,
} from './docStore';
import { kindMatcher, sameDecisions, type KindRule, type KindRules, type KindRuleProblem } from './kindCorrections';
import { ExtractOnce } from './extractOnce';
import { SLICE_MS, turn } from './turns';
import { embedLocalBatch, embedSharedBatch } from './embedBatches';
import { emptyRepoRecordsSummary, isRepoRecordPath, type RepoRecordsSummary } from '../model/repoRecordFiles';

export interface SourceFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The workspace's files as the index sees them (already filtered by the discovery rules). */
export interface FileSource {
  list(): Promise<SourceFile[]>;
  /** The file's text, or null when it has none to index (binary, past the size cap, gone or now a link). */
  read(path: string): Promise<string | null>;
}

export interface IndexOptions {
  embedder?: Embedder;
  /**
   * After each batch is written: the paths it added, changed, renamed (both names) or deleted, and the texts it read
   * of the documents it wrote (drift's check of the batch takes them rather than reading each file again).
   */
  committed?: (paths: string[], texts: ReadonlyMap<string, string>) => void;
  /** Re-read and re-chunk every file, not only changed ones. */
  full?: boolean;
  signal?: AbortSignal;
  /** Files per committed batch (default 50); a batch also closes at CHUNKS_PER_BATCH chunks. */
  batchSize?: number;
  /** Batches per commit where the store groups them (default BATCHES_PER_COMMIT). */
  batchesPerCommit?: number;
  embedBatchSize?: number;
  /**
   * The workspace's `.lore/kinds` as read now: a person's kinds, applied on top of classify().
   * Without it the rules the store last applied stay in force (a caller that does not read the
   * file never undoes a correction).
   */
  kindRules?: KindRules;
  /** Run the kinds' second pass (a page weighed with its folder's readings); default SIBLING_PASS. */
  siblings?: boolean;
  /** The second pass's weights (tests); default the shipped kindSiblingWeights.json. */
  siblingWeights?: KindWeights;
}

export interface IndexProgress {
  phase: 'scan' | 'index' | 'embed';
  done: number;
  total: number;
  path?: string;
}

export interface IndexSummary {
  files: number;
  indexed: number;
  renamed: number;
  deleted: number;
  unchanged: number;
  embedded: number;
  redactions: number;
  model: string | null;
  cancelled: boolean;
  /** Listed files with no text to index when read: binary (a NUL byte), grown past the cap, or now a link. */
  skipped?: number;
  /** `.lore/` record files found, verified and brought into the store (present when there are any). */
  records?: RepoRecordsSummary;
  /** `.lore/kinds` (when the run was given it): its rules, its lines ignored, the documents re-classified. */
  kind_rules?: { rules: number; problems: KindRuleProblem[]; reclassified: number };
}

const aborted = (signal?: AbortSignal): boolean => signal?.aborted === true;

/**
 * A batch's chunks are written in one transaction that holds the owner's thread; bounding them
 * keeps each pause short (the owner answers agents between batches) whatever the file sizes.
 * Each commit costs fsyncs and a new FTS5 segment to merge, so batches are as large as that pause
 * allows: at 100 chunks a batch's write and its drift check take about 14 ms of CPU (p99 40 ms on
 * the bench corpus; 200 chunks reached a p99 of 55 ms), and a full index commits half as often as at 40.
 */
const CHUNKS_PER_BATCH = 100;

/**
 * A commit costs three fsyncs (journal twice, database once) plus the journal's create and delete;
 * one per batch made those most of a bulk index's time. A group's commit writes all its pages at
 * once, so it is a longer pause for the owner: at 20 batches the owner bench's longest pauses grew
 * against one commit per batch, at 5 they did not (same loop, loaded machine). The store also
 * commits a group a second after it opened, and before any other write.
 */
const BATCHES_PER_COMMIT = 5;

/** Files read ahead of the one indexed: each read is a round trip to the I/O threads, hidden behind the work. */
const READ_AHEAD = 8;

export async function* indexWorkspace(
  ctx: EngineContext,
  source: FileSource,
  options: IndexOptions = {},
): AsyncGenerator<IndexProgress, IndexSummary> {
  const batchSize = options.batchSize ?? 50;
  const summary: IndexSummary = {
    files: 0,
    indexed: 0,
    renamed: 0,
    deleted: 0,
    unchanged: 0,
    embedded: 0,
    redactions: 0,
    model: options.embedder?.modelId ?? null,
    cancelled: false,
  };
  yield { phase: 'scan', done: 0, total: 0 };
  const files = await source.list();
  // Signed record files are memories, not documents: verified and imported after the docs.
  const recordFiles = files.filter((f) => isRepoRecordPath(f.path)).map((f) => f.path);
  summary.files = files.length - recordFiles.length;
  const known = catalog(ctx.db);
  const present = new Set(files.map((f) => f.path));
  const extract = new ExtractOnce(files.map((f) => f.size));
  const kindContext = classifyContextOf(
    files.map((f) => f.path),
    await readNavFiles(source, files),
  );
  // A person's kinds (`.lore/kinds`) win over the classifier's. When the rules changed since the
  // store last applied them, the documents whose rule changed are re-read and re-classified, even
  // when their content did not change; the rest are left alone (no full re-index).
  const applied = appliedKindRules(ctx);
  const rules = options.kindRules?.rules ?? applied;
  const rulesChanged = !sameDecisions(rules, applied);
  const corrected = kindMatcher(rules);
  const before = rulesChanged ? kindMatcher(applied) : corrected;
  const sameRuleKind = (from: string, to: string): boolean =>
    before.ruleFor(from)?.kind === corrected.ruleFor(to)?.kind;
  const ruleChanged = (path: string): boolean =>
    rulesChanged && corrected.ruleFor(path)?.kind !== before.ruleFor(path)?.kind;
  if (options.kindRules)
    summary.kind_rules = { rules: rules.length, problems: options.kindRules.problems, reclassified: 0 };
  // Files that disappeared, by content hash (several files may share one: copies of a Dockerfile,
  // empty __init__.py): a new path with the same content is a rename of one of them; the rest go.
  const vanished = new Map<string, CatalogEntry[]>();
  for (const e of known.values()) {
    if (present.has(e.path)) continue;
    const same = vanished.get(e.content_hash);
    if (same) same.push(e);
    else vanished.set(e.content_hash, [e]);
  }

  let batch: Array<() => void> = [];
  let batchChunks = 0;
  let grouped = 0;
  let batchPaths: string[] = [];
  let batchTexts = new Map<string, string>();
  const commit = () => {
    if (!batch.length) return;
    const work = batch;
    const paths = batchPaths;
    const texts = batchTexts;
    batch = [];
    batchPaths = [];
    batchTexts = new Map();
    batchChunks = 0;
    const write = () => work.forEach((w) => w());
    // Batches share commits where the store can group them (each commit costs fsyncs).
    if (ctx.db.grouped) {
      ctx.db.grouped(write);
      if (++grouped % (options.batchesPerCommit ?? BATCHES_PER_COMMIT) === 0) ctx.db.flush?.();
    } else ctx.db.transaction(write);
    if (paths.length) options.committed?.(paths, texts);
  };

  // Whether a listed file is read at all: a record file is not a document, an unchanged one is not read.
  const toRead = (file: SourceFile): boolean => {
    if (isRepoRecordPath(file.path)) return false;
    const entry = known.get(file.path);
    return !(
      entry &&
      !options.full &&
      entry.size === file.size &&
      entry.mtime_ms === file.mtimeMs &&
      !ruleChanged(file.path)
    );
  };
  const reads = new Map<number, Promise<string | null>>();
  let readUpTo = 0;
  const read = (i: number): Promise<string | null> => {
    for (; readUpTo < files.length && readUpTo <= i + READ_AHEAD; readUpTo++) {
      if (!toRead(files[readUpTo])) continue;
      const text = source.read(files[readUpTo].path);
      // A read ahead that fails is reported when its file's turn comes; until then it is not unhandled.
      text.catch(() => undefined);
      reads.set(readUpTo, text);
    }
    const text = reads.get(i)!;
    reads.delete(i);
    return text;
  };

  let sliceStarted = performance.now();
  for (let i = 0; i < files.length; i++) {
    if (performance.now() - sliceStarted >= SLICE_MS) sliceStarted = (await turn(), performance.now());
    if (aborted(options.signal)) {
      summary.cancelled = true;
      break;
    }
    const file = files[i];
    if (isRepoRecordPath(file.path)) continue;
    const entry = known.get(file.path);
    if (!toRead(file)) {
      summary.unchanged++;
      continue;
    }
    const raw = await read(i);
    if (raw === null) {
      // No text: the file is left out of the index like an excluded one (an earlier version removed).
      if (entry) batch.push(() => deleteDoc(ctx.db, entry.id));
      summary.skipped = (summary.skipped ?? 0) + 1;
      continue;
    }
    const hash = sha256(raw);
    const now = nowIso(ctx);
    // A rename keeps the stored kind: only when a person's rule decides the same for both paths.
    const movedFrom = entry ? -1 : lastMatching(vanished.get(hash) ?? [], (old) => sameRuleKind(old.path, file.path));
    if (entry && entry.content_hash === hash && !options.full && !ruleChanged(file.path)) {
      batch.push(() => touchDoc(ctx.db, entry.id, file.mtimeMs));
      summary.unchanged++;
    } else if (movedFrom >= 0) {
      const moved = vanished.get(hash)!.splice(movedFrom, 1)[0];
      batch.push(() => renameDoc(ctx.db, moved.id, file.path, file.mtimeMs, now));
      batchPaths.push(moved.path, file.path);
      summary.renamed++;
    } else {
      // The correction hook: a person's rule in `.lore/kinds` wins over the classifier's kind.
      const rule = corrected.ruleFor(file.path);
      const verdict = rule
        ? {
            kind: rule.kind,
            confidence: 1,
            runnerUp: null,
            runnerUpConfidence: 0,
            by: 'rule' as const,
            signals: [{ feature: 'kinds-file', weight: 1, words: `set in .lore/kinds by ${rule.glob}` }],
          }
        : classifyKind(file.path, raw, kindContext, { explain: true });
      const kind = verdict.kind;
      if (entry && summary.kind_rules && ruleChanged(file.path)) summary.kind_rules.reclassified++;
      const { text, redactions } = extract.redact(hash, file.size, raw);
      const doc: DocRecord = {
        path: file.path,
        kind,
        kindConfidence: verdict.confidence,
        // The runner-up is kept only where it is close: recall's kind filter takes the document too.
        kindRunnerUp: closeRunnerUp(verdict),
        kindSignals: verdict.signals
          .filter((s) => s.weight > 0)
          .map((s) => s.words)
          .slice(0, 3),
        kindOwn: storedOwnReading(ownReadingOf(verdict)),
        title: documentTitle(file.path, text),
        contentHash: hash,
        size: file.size,
        mtimeMs: file.mtimeMs,
        redactions,
        chunks: extract.chunks(hash, file.size, kind, text),
      };
      batch.push(() => putDoc(ctx.db, doc, now));
      batchPaths.push(file.path);
      batchTexts.set(file.path, raw);
      batchChunks += doc.chunks.length;
      summary.indexed++;
      summary.redactions += redactions;
    }
    if (batch.length >= batchSize || batchChunks >= CHUNKS_PER_BATCH) {
      commit();
      yield { phase: 'index', done: i + 1, total: files.length, path: file.path };
      sliceStarted = performance.now(); // the consumer turned the thread (engineApi's runIndex)
    }
  }
  if (!summary.cancelled) {
    for (const gone of [...vanished.values()].flat()) {
      batch.push(() => deleteDoc(ctx.db, gone.id));
      batchPaths.push(gone.path);
      summary.deleted++;
    }
  }
  if (!summary.cancelled && JSON.stringify(rules) !== JSON.stringify(applied))
    batch.push(() => setIndexState(ctx, KIND_RULES_STATE, JSON.stringify(rules)));
  commit();
  ctx.db.flush?.();
  // The kinds' second pass: each prose page weighed with its folder's stored readings (none re-read).
  const weighFolders = !summary.cancelled && (options.siblings ?? SIBLING_PASS);
  const reclassified = weighFolders ? reconsiderBySiblings(ctx.db, options.siblingWeights) : [];
  if (reclassified.length) options.committed?.(reclassified, new Map());
  if (!summary.cancelled && recordFiles.length) {
    summary.records = emptyRepoRecordsSummary();
    for (const path of recordFiles) {
      const text = await source.read(path);
      if (text !== null) ctx.hooks.recordFile(ctx, path, text, summary.records);
    }
  }
  yield { phase: 'index', done: files.length, total: files.length };
  setIndexState(ctx, 'last_index', nowIso(ctx));

  const embedder = options.embedder;
  if (embedder && !summary.cancelled) {
    ctx.db.transaction(() => dropOtherModels(ctx.db, embedder.modelId));
    // A store that keeps memories' vectors itself (PostgreSQL) gets theirs after the local ones.
    const shared = ctx.memories.search?.vectors;
    const total = countPending(ctx.db, embedder.modelId) + (shared?.countPending(embedder.modelId) ?? 0);
    const size = options.embedBatchSize ?? 32;
    while (!aborted(options.signal)) {
      const pending = pendingEmbeddings(ctx.db, embedder.modelId, size);
      const sharedPending = pending.length || !shared ? [] : shared.pending(embedder.modelId, size);
      if (!pending.length && !sharedPending.length) break;
      if (sharedPending.length) {
        summary.embedded += await embedSharedBatch(shared!, embedder, sharedPending, options.signal);
        yield { phase: 'embed', done: summary.embedded, total };
        continue;
      }
      summary.embedded += await embedLocalBatch(ctx, embedder, pending, options.signal);
      bumpVectorGeneration(ctx);
      yield { phase: 'embed', done: summary.embedded, total };
    }
    summary.cancelled = aborted(options.signal);
    setIndexState(ctx, 'model', embedder.modelId);
  }
  return summary;
}

/** The docs site's navigation files (mkdocs.yml, SUMMARY.md, _sidebar.md), which the kind model reads. */
async function readNavFiles(source: FileSource, files: SourceFile[]): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = [];
  for (const path of navFilesOf(files.map((f) => f.path))) {
    const text = await source.read(path).catch(() => null);
    if (text !== null) out.push({ path, text });
  }
  return out;
}

function lastMatching<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}

/** The `.lore/kinds` rules the stored kinds reflect (what the last complete index applied). */
const KIND_RULES_STATE = 'kind_rules';

export function appliedKindRules(ctx: EngineContext): KindRule[] {
  try {
    return JSON.parse(getIndexState(ctx, KIND_RULES_STATE) || '[]') as KindRule[];
  } catch {
    return [];
  }
}

export function setIndexState(ctx: EngineContext, name: string, value: string): void {
  ctx.db.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [
    `index.${name}`,
    value,
  ]);
}

export function getIndexState(ctx: EngineContext, name: string): string | null {
  return ctx.db.get<{ value: string }>('SELECT value FROM meta WHERE name = ?', [`index.${name}`])?.value ?? null;
}

/** Vector caches compare this to know when to reload. */
export function bumpVectorGeneration(ctx: EngineContext): void {
  const current = Number(getIndexState(ctx, 'vector_generation') ?? '0');
  setIndexState(ctx, 'vector_generation', String(current + 1));
}
