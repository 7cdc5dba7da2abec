// The drift engine: extracts the references of documents and memories, keeps their baselines,
// classifies them on a full scan or for the paths a save touched, answers "what drifted" for a
// record, and re-verifies a memory (fresh fingerprints, basis → verified, audited).

import { LoreError } from '../errors';
import type { Memory } from '../model/types';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { appendAudit } from '../record/audit';
import { sha256 } from '../model/digest';
import { firstSecret } from '../model/secretRules';
import { isMemoryKey } from './anchor';
import { evaluateWithFinder, type Search } from './evaluate';
import { extractFromMarkdown, extractFromMemory, refKey, RELEASE_NOTE, type RawReference } from './extract';
import { Neighbours } from './mention';
import { MARKDOWN, resolveReference } from './resolve';
import {
  allRefs,
  brokenRefs,
  currentMemoryAnchors,
  deleteRefs,
  deleteSource,
  dismissedTies,
  dismissTie,
  docsWithContent,
  driftSince,
  docUrlRefs,
  insertRef,
  knownRemotes,
  refById,
  refsMatching,
  refsOfSource,
  refsOfSources,
  refsTargeting,
  saveRemotes,
  siblingTargets,
  sourcesOf,
  storedDocKind,
  toFinding,
  trackedMemories,
  trackedMemory,
  TRACKED_STATUSES,
  updateRef,
  type NewRef,
  type RefRow,
} from './store';
import { EMPTY_PRINT, fingerprintOf, type Target } from './target';
import {
  DRIFT_STATES,
  NOT_FINDINGS,
  type DriftFinding,
  type DriftFlag,
  type DriftScanResult,
  type DriftState,
  type WorkspaceReader,
} from './types';
import { basename, parentsOf, Workspace } from './workspace';
import { forgetSites } from './site';
import { TextMemo } from './textMemo';

/** Documents whose references drift watches: prose, where people write paths and names down. */
const DRIFT_SOURCE = { test: (path: string) => MARKDOWN.test(path) || RELEASE_NOTE.test(path) };
/** The memories whose references drift tracks: the live ones and those waiting in quarantine. */
const TRACKED = new Set<string>(TRACKED_STATUSES);
/** Whether a reference's text looks like a secret: the same link or path recurs in many documents and checks. */
const secretLooking = new TextMemo<boolean>(8192);
/** A check of more paths than this (a branch switch) leaves broken references to the next full scan. */
const MAX_RETRY_PATHS = 100;

export interface DriftFilter {
  key?: string;
  path?: string;
  states?: DriftState[];
  /** Only drift caused since Lore started: not what was already broken when it first looked. */
  fresh?: boolean;
}

/** A memory row's anchors and links as stored (JSON text), read back. */
function memoryRefs(key: string, row: { anchors: string; links: string }): Pick<Memory, 'key' | 'anchors' | 'links'> {
  return { key, anchors: JSON.parse(row.anchors), links: JSON.parse(row.links) };
}

export class DriftService {
  private workspace: Workspace | null = null;
  /** The listing by folder (mention.ts) of the check or scan under way, made when first needed. */
  private neighbours: Neighbours | null = null;

  constructor(
    private readonly ctx: EngineContext,
    private reader: WorkspaceReader | undefined,
    private readonly repositories: () => readonly string[] = () => [],
  ) {}

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
    this.neighbours = null;
    return this.workspace;
  }

  /** One listing by folder for every document a check or scan resolves, however many (an index batch's). */
  private near(ws: Workspace): Neighbours {
    if (this.neighbours?.ws !== ws) this.neighbours = new Neighbours(ws);
    return this.neighbours;
  }

  private freshRow(
    kind: 'memory' | 'doc',
    source: string,
    ref: RawReference,
    ws: Workspace,
    sourcePath: string | null,
    now: string,
    near?: Neighbours,
  ): NewRef[] {
    const base = {
      source_kind: kind,
      source,
      line: ref.line,
      raw: ref.raw,
      command: ref.form === 'flag' ? (ref.command ?? null) : null,
      already_broken: 0,
      old_path: null,
      new_path: null,
      detected_at: now,
      checked_at: now,
      verified_at: null,
      verified_by: null,
      finder: null,
      symbol_kind: null,
    };
    return resolveReference(ws, ref, sourcePath, this.repositories(), near).map((resolution) => {
      if (!resolution.ok)
        return {
          ...base,
          form: resolution.form,
          target_path: null,
          target_kind: 'none',
          symbol: ref.symbol ?? null,
          fingerprint: null,
          base_size: null,
          size: null,
          mtime_ms: null,
          state: resolution.state ?? 'broken',
          detail: resolution.detail,
        };
      const print = fingerprintOf(ws, resolution.target);
      const target = resolution.target;
      if (!print)
        return {
          ...base,
          form: resolution.form,
          target_path: target.path,
          target_kind: target.kind,
          symbol: target.symbol,
          fingerprint: null,
          base_size: null,
          size: null,
          mtime_ms: null,
          state: 'broken',
          detail: unreadable(target),
        };
      return {
        ...base,
        form: resolution.form,
        target_path: target.path,
        target_kind: target.kind,
        symbol: target.symbol,
        fingerprint: print.fingerprint,
        base_size: print.size,
        size: print.size,
        mtime_ms: print.mtimeMs,
        state: 'current',
        detail: 'fingerprinted',
        finder: print.finder,
        symbol_kind: print.kinds,
      };
    });
  }

  /**
   * Makes the stored references of one source match what it says now. A reference it still makes
   * keeps its row and baseline (a doc edit must not absorb a change to what it points at); new
   * ones are resolved and fingerprinted; dropped ones go. With `retry`, broken ones are resolved again.
   */
  private syncSource(
    kind: 'memory' | 'doc',
    source: string,
    refs: RawReference[],
    ws: Workspace,
    retry: boolean,
  ): void {
    const near = this.near(ws);
    const now = nowIso(this.ctx);
    const sourcePath = kind === 'doc' ? source : null;
    const existing = new Map<string, RefRow[]>();
    for (const row of refsOfSource(this.ctx.db, kind, source)) {
      const key = refKey(row.raw, row.command);
      existing.set(key, [...(existing.get(key) ?? []), row]);
    }
    const dismissed = kind === 'doc' ? dismissedTies(this.ctx.db, source) : new Set<string>();
    const alreadyThere = kind === 'doc' && this.writtenBefore(source, ws, now);
    const kept = new Set<number>();
    for (const ref of refs) {
      // A document's text is not redacted here as the index redacts it: a reference that looks like a secret is not
      // kept.
      if (secretLooking.get(ref.raw, '', () => firstSecret(ref.raw) !== undefined)) continue;
      const rows = existing.get(refKey(ref.raw, ref.form === 'flag' ? ref.command : null));
      if (rows?.length && !(retry && rows.every((r) => r.state === 'broken' || r.state === 'ambiguous'))) {
        for (const row of rows) {
          kept.add(row.id);
          if (row.line !== ref.line) updateRef(this.ctx.db, { ...row, line: ref.line });
        }
        continue;
      }
      const fresh = this.freshRow(kind, source, ref, ws, sourcePath, now, near).filter(
        (row) => !row.target_path || !dismissed.has(`${row.raw}\u0000${row.target_path}`),
      );
      // Resolving again finds nothing better: a broken reference stays as it was, and one that meant a file
      // and now matches several keeps the file it meant.
      if (rows?.length && fresh.every((f) => f.state === 'broken' || f.state === 'ambiguous')) {
        rows.forEach((r) => kept.add(r.id));
        continue;
      }
      for (const row of fresh) {
        const broken = row.state === 'broken' && alreadyThere && !rows?.length;
        kept.add(insertRef(this.ctx.db, broken ? { ...row, already_broken: 1 } : row));
      }
    }
    const stale = [...existing.values()]
      .flat()
      .filter((r) => !kept.has(r.id))
      .map((r) => r.id);
    deleteRefs(this.ctx.db, stale);
  }

  /**
   * Whether a document was last written before drift first stored anything in this store: what it
   * says then was there before Lore (a broken link in it is already broken, not drift caused since).
   */
  private writtenBefore(path: string, ws: Workspace, now: string): boolean {
    const since = Date.parse(driftSince(this.ctx.db, now));
    const written = ws.stat(path)?.mtimeMs;
    return written !== undefined && written <= since;
  }

  private syncDoc(path: string, ws: Workspace, retry: boolean): void {
    const text = ws.text(path);
    if (text === null) deleteSource(this.ctx.db, 'doc', path);
    else {
      // The kind the index stored, so a person's `.lore/kinds` rule (a changelog or not) holds here too.
      this.syncSource('doc', path, extractFromMarkdown(text, path, storedDocKind(this.ctx.db, path)), ws, retry);
    }
  }

  private syncMemory(memory: Pick<Memory, 'key' | 'anchors' | 'links'>, ws: Workspace, retry: boolean): void {
    this.syncSource('memory', memory.key, extractFromMemory(memory.anchors, memory.links, isMemoryKey), ws, retry);
  }

  private apply(rows: RefRow[], ws: Workspace, search: Search): RefRow[] {
    const now = nowIso(this.ctx);
    search = { ...search, siblings: (row) => this.siblingTargets(row) };
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
      updateRef(this.ctx.db, next);
      out.push(next);
    }
    return out;
  }

  /**
   * Same-repository URLs are resolved with the remotes known then: when they differ now (a remote
   * added after the store opened, or a store written before remotes were recorded), every stored
   * URL is resolved again — one that names another repository now goes, one whose target is the
   * same keeps its baseline (an edit made meanwhile must not be absorbed), another is fingerprinted.
   */
  private settleRemotes(ws: Workspace): void {
    const remotes = JSON.stringify([...new Set(this.repositories().map((r) => r.toLowerCase()))].sort());
    const known = knownRemotes(this.ctx.db);
    if (known === remotes) return;
    const now = nowIso(this.ctx);
    for (const row of docUrlRefs(this.ctx.db)) {
      const ref: RawReference = { raw: row.raw, form: 'url', line: row.line, deliberate: true };
      const fresh = this.freshRow('doc', row.source, ref, ws, row.source, now);
      const same =
        fresh.length === 1 &&
        fresh[0].target_path === row.target_path &&
        fresh[0].target_kind === row.target_kind &&
        fresh[0].symbol === row.symbol;
      if (same) continue;
      deleteRefs(this.ctx.db, [row.id]);
      for (const next of fresh) insertRef(this.ctx.db, next);
    }
    saveRemotes(this.ctx.db, remotes);
  }

  /** A full scan: every document and live memory re-read, every reference classified. */
  scan(): DriftScanResult {
    const ws = this.ws(true);
    const docs = ws.allFiles().filter((p) => DRIFT_SOURCE.test(p));
    this.ctx.db.transaction(() => {
      this.settleRemotes(ws);
      const present = new Set(docs);
      for (const source of sourcesOf(this.ctx.db, 'doc'))
        if (!present.has(source)) deleteSource(this.ctx.db, 'doc', source);
      for (const path of docs) this.syncDoc(path, ws, true);
      const memories = trackedMemories(this.ctx.db);
      const live = new Set(memories.map((m) => m.key));
      for (const source of sourcesOf(this.ctx.db, 'memory'))
        if (!live.has(source)) deleteSource(this.ctx.db, 'memory', source);
      for (const m of memories) this.syncMemory(memoryRefs(m.key, m), ws, true);
    });
    const rows = this.ctx.db.transaction(() => this.apply(allRefs(this.ctx.db), ws, { candidates: [], wide: true }));
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
  private *checking(unique: string[], warm: boolean): Generator<void, DriftFinding[]> {
    const ws = this.ws();
    ws.forgetTexts();
    for (const path of unique) {
      ws.refresh([path]);
      yield;
    }
    forgetSites(ws, unique);
    const docs = unique.filter((p) => DRIFT_SOURCE.test(p));
    if (warm && docs.length) yield* ws.indexingSymbols();
    this.settleRemotes(ws);
    for (const path of docs) {
      this.syncDoc(path, ws, false);
      yield;
    }
    this.retryBrokenNaming(
      unique.filter((p) => ws.isFile(p)),
      ws,
    );
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
    const search = { candidates: [...unique, ...this.sameContent(distinct)], wide: false };
    const out: DriftFinding[] = [];
    for (const row of distinct) {
      out.push(...this.apply([row], ws, search).map(toFinding));
      yield;
    }
    return out;
  }

  /**
   * A file that appears may be what a broken reference named (a dead link fixed by creating its
   * target): the sources whose broken references mention its name are resolved again. A save
   * names a few files; a branch switch's thousands wait for the next full scan.
   */
  private retryBrokenNaming(present: readonly string[], ws: Workspace): void {
    if (!present.length || present.length > MAX_RETRY_PATHS) return;
    const stems = [...new Set(present.map((p) => basename(p).split('.')[0]).filter((stem) => stem.length >= 2))];
    const broken = brokenRefs(this.ctx.db);
    const sources = new Set(
      broken.filter((r) => stems.some((stem) => r.raw.includes(stem))).map((r) => `${r.source_kind}\u0000${r.source}`),
    );
    for (const entry of sources) {
      const [kind, source] = entry.split('\u0000');
      if (kind === 'doc') this.syncDoc(source, ws, true);
      else {
        const m = trackedMemory(this.ctx.db, source);
        if (m) this.syncMemory(memoryRefs(source, m), ws, true);
      }
    }
  }

  private siblingTargets(row: RefRow): string[] {
    return siblingTargets(this.ctx.db, row);
  }

  /** Indexed files with the content a vanished file had: the index already knows every file's hash. */
  private sameContent(rows: RefRow[]): string[] {
    const hashes = [
      ...new Set(
        rows
          .filter((r) => r.target_kind === 'file' && r.fingerprint && r.fingerprint !== EMPTY_PRINT)
          .map((r) => r.fingerprint!),
      ),
    ];
    return docsWithContent(this.ctx.db, hashes);
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
    const row = this.docRow(id, 'dismissed');
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

  /** A document's reference by finding id (`ref-N`), or a clear error naming what to do. */
  private docRow(id: string, verb: string): RefRow {
    const match = typeof id === 'string' ? /^ref-(\d+)$/.exec(id) : null;
    if (!match) {
      const got = JSON.stringify(id);
      const hint = 'see the ids with lore drift list --json';
      throw new LoreError('INVALID_INPUT', `a drift finding id looks like ref-12; got ${got}`, hint);
    }
    const row = refById(this.ctx.db, Number(match[1]));
    if (!row)
      throw new LoreError('NOT_FOUND', `no drift finding ${id}`, 'it may have cleared already: lore drift list');
    if (row.source_kind !== 'doc') {
      const what = `${id} is a reference of ${row.source}; a memory's anchors are ${verb} with the record`;
      throw new LoreError('INVALID_INPUT', what, `lore reverify ${row.source}`);
    }
    return row;
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
        else this.syncMemory(memoryRefs(key, row), ws, true);
      }
    });
  }

  /**
   * After the index committed a batch: the changed documents' references extracted again and the
   * references into the changed files classified (the per-save check), so drift is current after
   * `lore index` and after the editor's first index without a full scan. Done in slices of at most
   * about DriftService.sliceMs, the thread turned between them: the owner answers agents and the
   * editor while a batch of hundreds of documents is checked.
   */
  async indexed(paths: readonly string[]): Promise<void> {
    if (!this.reader || !paths.length) return;
    try {
      const steps = this.checking(checkedPaths(paths), true);
      for (let done = false; !done;) {
        const started = performance.now();
        done = this.slice(() => {
          let step = steps.next();
          while (!step.done && performance.now() - started < DriftService.sliceMs) step = steps.next();
          return step.done === true;
        });
        if (!done) await new Promise((turned) => setImmediate(turned));
      }
    } catch (error) {
      const why = (error as Error).message;
      this.ctx.logger.warn(`drift: references of ${paths.length} indexed file(s) not updated: ${why}`);
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
    const out = new Map<string, DriftFlag[]>();
    const rows = refsOfSources(this.ctx.db, kind, sources);
    if (!rows.length) return out;
    let checked = rows;
    if (kind === 'memory' && this.reader) {
      const ws = new Workspace(this.reader);
      const candidates = this.sameContent(rows);
      checked = rows.map((row) => {
        // A folder's or a pattern's fingerprint needs the workspace's listing, a walk no recall should wait for:
        // it shows its last check.
        if (row.target_kind === 'dir' || row.target_kind === 'pattern') return row;
        const verdict = evaluateWithFinder(
          ws,
          row,
          { candidates, wide: false, siblings: (r) => this.siblingTargets(r) },
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
  docFlags(hits: ReadonlyArray<{ path: string; lines: readonly [number, number] }>): Array<DriftFlag[] | undefined> {
    const rows = refsOfSources(this.ctx.db, 'doc', [...new Set(hits.map((h) => h.path))]).filter(
      (r) => r.state !== 'current',
    );
    return hits.map((hit) => {
      const own = rows.filter((r) => r.source === hit.path && r.line >= hit.lines[0] && r.line <= hit.lines[1]);
      return own.length ? own.map((r) => ({ state: r.state, reference: r.raw, detail: r.detail })) : undefined;
    });
  }

  /**
   * A reference's target accepted as it is now: a relocated one is followed to its new place, and
   * the fingerprint becomes what is there. A target that is gone or broken cannot be accepted.
   */
  private accept(row: RefRow, ws: Workspace, actor: Actor, now: string, who: string, hint: string): RefRow {
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
    updateRef(this.ctx.db, next);
    return next;
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
      const [checked] = this.apply([row], ws, { candidates: [], wide: false });
      const where = `${row.source}:${row.line}`;
      const accepted = this.accept(checked, ws, actor, now, where, `update or remove the reference in ${row.source}`);
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
    this.syncMemory(memory, ws, true);
    const rows = this.apply(refsOfSource(this.ctx.db, 'memory', memory.key), ws, { candidates: [], wide: true });
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
    this.syncMemory(memory, ws, true);
    const rows = refsOfSource(this.ctx.db, 'memory', memory.key);
    const fingerprints: string[] = [];
    for (const row of this.apply(rows, ws, { candidates: [], wide: false })) {
      const hint = "fix the record's anchors (save it again), or supersede or dispute it";
      fingerprints.push(this.accept(row, ws, actor, now, memory.key, hint).fingerprint!);
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

/** Why a resolved target has no fingerprint: the anchor it names is not in the file, or the file cannot be read. */
function unreadable(target: Target): string {
  if (target.kind === 'heading') return `${target.path} has no heading #${target.symbol}`;
  if (target.kind === 'lines') return `${target.path} has no lines ${target.symbol}`;
  if (target.kind === 'mention') return `${target.path} no longer uses ${target.symbol}`;
  return `${target.path} could not be read`;
}
