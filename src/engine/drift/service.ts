// The drift engine: extracts the references of documents and memories, keeps their baselines,
// classifies them on a full scan or for the paths a save touched, answers "what drifted" for a
// record, and re-verifies a memory (fresh fingerprints, basis → verified, audited). Its parts:
// sourceSync.ts keeps a source's rows in step with its text, verdicts.ts writes a check's states
// back, flags.ts answers for records about to be shown; this class orders the steps.

import { LoreError } from '../errors';
import type { Memory } from '../model/types';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { appendAudit } from '../record/audit';
import { sha256 } from '../model/digest';
import { docDriftFlags, driftFlags } from './flags';
import { DRIFT_SOURCE } from './sources';
import { memoryRefs, SourceSync } from './sourceSync';
import {
  allRefs,
  currentMemoryAnchors,
  deleteRefs,
  deleteSource,
  dismissTie,
  refById,
  refsMatching,
  refsOfSource,
  refsOfSources,
  refsTargeting,
  sourcesOf,
  toFinding,
  trackedMemories,
  TRACKED_STATUSES,
} from './store';
import {
  DRIFT_STATES,
  NOT_FINDINGS,
  type DriftFinding,
  type DriftFlag,
  type DriftScanResult,
  type DriftState,
  type KindOf,
  type WorkspaceReader,
} from './types';
import { acceptTarget, applyVerdicts, docReference, sameContent } from './verdicts';
import { parentsOf, Workspace } from './workspace';
import { forgetSites } from './site';
import { inSlices } from './slices';

/** The memories whose references drift tracks: the live ones and those waiting in quarantine. */
const TRACKED = new Set<string>(TRACKED_STATUSES);

export interface DriftFilter {
  key?: string;
  path?: string;
  states?: DriftState[];
  /** Only drift caused since Lore started: not what was already broken when it first looked. */
  fresh?: boolean;
}

export class DriftService {
  private workspace: Workspace | null = null;
  private readonly sync: SourceSync;

  constructor(
    private readonly ctx: EngineContext,
    private reader: WorkspaceReader | undefined,
    repositories: () => readonly string[],
    kindOf: KindOf,
  ) {
    this.sync = new SourceSync(ctx, repositories, kindOf);
  }

  useReader(reader: WorkspaceReader | undefined): void {
    this.reader = reader;
    this.workspace = null;
  }

  private requireReader(): WorkspaceReader {
    if (!this.reader)
      throw new LoreError(
        'STORE_UNAVAILABLE',
        'drift needs the workspace files and this engine was opened without them',
        'run the command inside the workspace (or pass --workspace DIR)',
      );
    return this.reader;
  }

  /** One workspace view kept between checks; a full scan starts a fresh one. */
  private ws(fresh = false): Workspace {
    if (fresh || !this.workspace) this.workspace = new Workspace(this.requireReader());
    // Every check and scan starts here, before it refreshes the view: its listing by folder is made anew.
    this.sync.forgetNeighbours();
    return this.workspace;
  }

  /** A full scan: every document and live memory re-read, every reference classified. */
  scan(): DriftScanResult {
    const ws = this.ws(true);
    const docs = ws.allFiles().filter((p) => DRIFT_SOURCE.test(p));
    this.ctx.db.transaction(() => {
      this.sync.settleRemotes(ws);
      const present = new Set(docs);
      for (const source of sourcesOf(this.ctx.db, 'doc'))
        if (!present.has(source)) deleteSource(this.ctx.db, 'doc', source);
      for (const path of docs) this.sync.syncDoc(path, ws, true);
      const memories = trackedMemories(this.ctx.db);
      const live = new Set(memories.map((m) => m.key));
      for (const source of sourcesOf(this.ctx.db, 'memory'))
        if (!live.has(source)) deleteSource(this.ctx.db, 'memory', source);
      for (const m of memories) this.sync.syncMemory(memoryRefs(m.key, m), ws, true);
    });
    const rows = this.ctx.db.transaction(() =>
      applyVerdicts(this.ctx, allRefs(this.ctx.db), ws, { candidates: [], wide: true }),
    );
    ws.forgetTexts();
    const byState = Object.fromEntries(DRIFT_STATES.map((s) => [s, 0])) as Record<DriftState, number>;
    for (const row of rows) byState[row.state]++;
    return {
      references: rows.length,
      findings: rows.filter((r) => !NOT_FINDINGS.includes(r.state)).map(toFinding),
      by_state: byState,
    };
  }

  /**
   * The check after a save or watcher event: documents among `paths` are re-read, references to
   * any of `paths` (or to a folder holding one) are classified, and a target that vanished is
   * looked for among the other paths of the same event and files with the same content; a broken
   * reference naming a file that appeared is resolved again.
   */
  check(paths: readonly string[]): DriftFinding[] {
    const unique = checkedPaths(paths);
    return this.ctx.db.transaction(() => {
      const steps = this.checking(unique, false);
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value;
      }
    });
  }

  /**
   * A check in small steps (a path refreshed, a file's symbols indexed, a document's references
   * synced, a reference classified), so an index can let other work run between them: each step
   * reads and writes through the same connection, so check() runs them all in one transaction.
   * With `warm`, the symbol index is built here a file at a time, not at the first reference that
   * needs it (one pause as long as the workspace).
   */
  private *checking(
    unique: string[],
    warm: boolean,
    texts: ReadonlyMap<string, string> = new Map(),
  ): Generator<void, DriftFinding[]> {
    const ws = this.ws();
    ws.forgetTexts();
    for (const path of unique) {
      ws.refresh([path]);
      const text = texts.get(path);
      if (text !== undefined) ws.knownText(path, text);
      yield;
    }
    forgetSites(ws, unique);
    const docs = unique.filter((p) => DRIFT_SOURCE.test(p));
    if (warm && docs.length) yield* ws.indexingSymbols();
    this.sync.settleRemotes(ws);
    for (const path of docs) {
      yield;
      this.sync.syncDoc(path, ws, false);
    }
    yield* this.sync.retryingBrokenNaming(
      unique.filter((p) => ws.isFile(p)),
      ws,
    );
    yield;
    const folders = new Set<string>();
    for (const path of unique) for (const folder of parentsOf(path)) folders.add(folder);
    const rows = [...refsTargeting(this.ctx.db, [...unique, ...folders]), ...refsOfSources(this.ctx.db, 'doc', docs)];
    const seen = new Set<number>();
    const named = new Set(unique);
    const distinct = rows.filter(
      (r) =>
        !seen.has(r.id) &&
        seen.add(r.id) &&
        (r.target_kind === 'dir' || !folders.has(r.target_path ?? '') || named.has(r.target_path!)),
    );
    // A changed code file's symbol references look the name up in the symbol index: built in steps here too.
    if (warm && distinct.some((r) => r.symbol)) yield* ws.indexingSymbols();
    const search = { candidates: [...unique, ...sameContent(this.ctx, distinct)], wide: false };
    const out: DriftFinding[] = [];
    for (const row of distinct) {
      out.push(...applyVerdicts(this.ctx, [row], ws, search).map(toFinding));
      yield;
    }
    return out;
  }

  /** Every reference into `path` (or to where its target moved), whatever its state: one indexed read. */
  referencesTo(path: string): DriftFinding[] {
    return refsTargeting(this.ctx.db, [path]).map(toFinding);
  }

  /** Findings, drift caused since Lore started first; `ambiguous` (no finding) only when asked for by state. */
  findings(filter: DriftFilter = {}): DriftFinding[] {
    const states = filter.states?.length ? filter.states : DRIFT_STATES.filter((s) => !NOT_FINDINGS.includes(s));
    return refsMatching(this.ctx.db, { key: filter.key, path: filter.path, states, fresh: filter.fresh }).map(
      toFinding,
    );
  }

  /**
   * "Not about this file": a document's reference is untied from the target it was resolved to, for
   * good — the dismissal is stored with the document's path and honoured by every later extraction.
   * Audited. Returns the finding as it was.
   */
  dismissReference(actor: Actor, id: string): DriftFinding {
    const row = docReference(this.ctx, id, 'dismissed');
    return this.ctx.db.transaction(() => {
      const now = nowIso(this.ctx);
      if (!row.target_path) {
        const what = `${id} (${row.raw}) is tied to no file: there is nothing to dismiss`;
        throw new LoreError('INVALID_STATE', what, `edit ${row.source} instead`);
      }
      dismissTie(this.ctx.db, row.source, row.raw, row.target_path, now, `${actor.door}:${actor.name}`);
      deleteRefs(this.ctx.db, [row.id]);
      const digests = { source: sha256(row.source), reference: sha256(row.raw), target: sha256(row.target_path) };
      appendAudit(this.ctx.db, actor, now, { event: 'drift.dismiss', key: null, version: null, digests });
      return toFinding(row);
    });
  }

  /**
   * After a write (any door, any path: remember, session close, inbox, bundle or `.lore/` import,
   * supersede): each memory's references, fingerprinted now (kept ones keep their baseline); a
   * record no longer live leaves none. One workspace view serves the whole write.
   */
  trackMemories(keys: readonly string[]): void {
    if (!this.reader || !keys.length) return;
    const ws = new Workspace(this.reader);
    this.ctx.db.transaction(() => {
      for (const key of new Set(keys)) {
        const row = currentMemoryAnchors(this.ctx.db, key);
        if (!row || !TRACKED.has(row.status)) deleteSource(this.ctx.db, 'memory', key);
        else this.sync.syncMemory(memoryRefs(key, row), ws, true);
      }
    });
  }

  /**
   * After the index committed a batch: the changed documents' references extracted again and those
   * into the changed files classified, in slices (the owner keeps answering), so drift is current
   * after an index without a full scan. Returns the findings, or undefined when the check failed
   * (logged; the next change checks again). `texts`: what the index read (the engine keeps only
   * those drift would read itself, driftReadsText), so no file is read twice.
   */
  async indexed(paths: readonly string[], texts?: ReadonlyMap<string, string>): Promise<DriftFinding[] | undefined> {
    if (!this.reader || !paths.length) return [];
    try {
      const steps = this.checking(checkedPaths(paths), true, texts);
      return await inSlices(steps, DriftService.sliceMs, (w) => this.slice(w));
    } catch (error) {
      const why = (error as Error).message;
      this.ctx.logger.warn(`drift: references of ${paths.length} indexed file(s) not updated: ${why}`);
      return undefined;
    } finally {
      this.ctx.db.flush?.();
    }
  }

  /** check() in slices (slices.ts) for an owner that keeps answering; a failure is thrown, earlier slices kept. */
  async checkInSlices(paths: readonly string[]): Promise<DriftFinding[]> {
    const unique = checkedPaths(paths);
    if (!this.reader || !unique.length) return this.check(unique);
    try {
      return await inSlices(this.checking(unique, true), DriftService.sliceMs, (w) => this.slice(w));
    } finally {
      this.ctx.db.flush?.();
    }
  }

  /**
   * How long one slice of an index's drift check holds the thread, in ms: about a batch write's
   * own pause, well under the owner's 50 ms target. Tests set 0 to turn the thread after each step.
   */
  static sliceMs = 8;

  /** A slice's writes share the index's commit where the store groups work (a commit per slice costs fsyncs). */
  private slice<T>(work: () => T): T {
    return this.ctx.db.grouped ? this.ctx.db.grouped(work) : this.ctx.db.transaction(work);
  }

  /**
   * Drift flags for records about to be shown. A memory's references are checked live (a stat per
   * target, a read only when it changed) without writing; a document's come from the last check.
   */
  flags(kind: 'memory' | 'doc', sources: readonly string[]): Map<string, DriftFlag[]> {
    return driftFlags(this.ctx, this.reader, kind, sources);
  }

  /**
   * Drift flags for document hits, each a chunk of its file: only the references written on the
   * chunk's own lines (1-based, inclusive), so a hit on one section does not carry another's.
   */
  docFlags(hits: ReadonlyArray<{ path: string; lines: readonly [number, number] }>): Array<DriftFlag[] | undefined> {
    return docDriftFlags(this.ctx, hits);
  }

  /**
   * Re-verifies one reference a document makes (a finding's id, `ref-N`): its target is accepted
   * as it is now, and the finding clears until the target changes again. Audited.
   */
  reverifyReference(actor: Actor, id: string): DriftFinding {
    const match = typeof id === 'string' ? /^ref-(\d+)$/.exec(id) : null;
    if (!match) {
      const got = JSON.stringify(id);
      const hint = 'see the ids with lore drift list --json';
      throw new LoreError('INVALID_INPUT', `a drift finding id looks like ref-12; got ${got}`, hint);
    }
    const ws = new Workspace(this.requireReader());
    return this.ctx.db.transaction(() => {
      const row = refById(this.ctx.db, Number(match[1]));
      if (!row)
        throw new LoreError('NOT_FOUND', `no drift finding ${id}`, 'it may have cleared already: lore drift list');
      if (row.source_kind !== 'doc') {
        const what = `${id} is a reference of ${row.source}; a memory is re-verified whole`;
        throw new LoreError('INVALID_INPUT', what, `lore reverify ${row.source}`);
      }
      const now = nowIso(this.ctx);
      const [checked] = applyVerdicts(this.ctx, [row], ws, { candidates: [], wide: false });
      const where = `${row.source}:${row.line}`;
      const accepted = acceptTarget(
        this.ctx,
        checked,
        ws,
        actor,
        now,
        where,
        `update or remove the reference in ${row.source}`,
      );
      const digests = { source: sha256(row.source), reference: sha256(row.raw), fingerprint: accepted.fingerprint! };
      appendAudit(this.ctx.db, actor, now, { event: 'drift.reverify', key: null, version: null, digests });
      return toFinding(accepted);
    });
  }

  /**
   * Where a memory's relocated anchors and links went (memory/reverify.ts moves them there): each
   * written path whose target drift found moved, to the new path (its `#fragment` kept, or the moved
   * lines'). The whole workspace is looked in, as a scan does. A target that is gone stays as it is:
   * accepting it then fails, naming the files that could be it.
   */
  relocatedAnchors(memory: Pick<Memory, 'key' | 'anchors' | 'links'>): Map<string, string> {
    const ws = new Workspace(this.requireReader());
    this.sync.syncMemory(memory, ws, true);
    const rows = applyVerdicts(this.ctx, refsOfSource(this.ctx.db, 'memory', memory.key), ws, {
      candidates: [],
      wide: true,
    });
    const out = new Map<string, string>();
    for (const row of rows) {
      if (row.state !== 'relocated' || !row.new_path || !row.target_path || /^https?:/i.test(row.raw)) continue;
      const hash = row.raw.indexOf('#');
      const [pathPart, fragment] = hash < 0 ? [row.raw, ''] : [row.raw.slice(0, hash), row.raw.slice(hash)];
      if (!pathPart) continue; // a bare `#symbol` names no file
      const [newPath, movedLines] = row.new_path.split('#');
      out.set(row.raw, `${newPath}${movedLines ? `#${movedLines}` : fragment}`);
    }
    return out;
  }

  /**
   * A memory's targets accepted as they are now (memory/reverify.ts makes the record verified):
   * its references extracted again, each classified and fingerprinted afresh. Runs inside the
   * caller's transaction.
   */
  acceptTargets(
    actor: Actor,
    memory: Pick<Memory, 'key' | 'anchors' | 'links'>,
    now: string,
  ): { references: number; fingerprints: string[] } {
    const ws = new Workspace(this.requireReader());
    this.sync.syncMemory(memory, ws, true);
    const rows = refsOfSource(this.ctx.db, 'memory', memory.key);
    const fingerprints: string[] = [];
    for (const row of applyVerdicts(this.ctx, rows, ws, { candidates: [], wide: false })) {
      const hint = "fix the record's anchors (save it again), or supersede or dispute it";
      fingerprints.push(acceptTarget(this.ctx, row, ws, actor, now, memory.key, hint).fingerprint!);
    }
    return { references: rows.length, fingerprints };
  }
}

/** The paths a check takes: workspace-relative with forward slashes, each once; anything else is refused. */
function checkedPaths(paths: readonly string[]): string[] {
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) {
    throw new LoreError(
      'INVALID_INPUT',
      'a drift check needs a list of workspace-relative paths',
      'e.g. ["src/jobs/queue.ts"]',
    );
  }
  return [...new Set(paths.map((p) => p.replace(/^\.\//, '').replace(/\\/g, '/')).filter(Boolean))];
}
