// Keeping a source's stored references in step with what it says: a document's or memory's
// references extracted again, new ones resolved and fingerprinted, kept ones keeping their baseline,
// dropped ones deleted; same-repository URLs resolved again when the remotes change; broken
// references retried when a file they name appears. The drift engine (service.ts) calls these.

import type { Memory } from '../model/types';
import { nowIso, type EngineContext } from '../context';
import { firstSecret } from '../model/secretRules';
import { isMemoryKey } from './anchor';
import { usesAnsibleVariables, variableUses } from './ansibleVars';
import { extractFromComments } from './codeComments';
import { isCodeSource } from './sources';
import { extractFromMarkdown, extractFromMemory, refKey, type RawReference } from './extract';
import { Neighbours } from './mention';
import { resolveReference } from './resolve';
import {
  brokenRefs,
  deleteRefs,
  deleteSource,
  dismissedTies,
  docUrlRefs,
  driftSince,
  insertRef,
  knownRemotes,
  refsOfSource,
  saveRemotes,
  storedDocKind,
  trackedMemory,
  updateRef,
  type NewRef,
  type RefRow,
} from './store';
import { fingerprintOf, type Target } from './target';
import { basename, type Workspace } from './workspace';
import { TextMemo } from './textMemo';
import type { KindOf } from './types';

/** Whether a reference's text looks like a secret: the same link or path recurs in many documents and checks. */
const secretLooking = new TextMemo<boolean>(8192);
/** A check of more paths than this (a branch switch) leaves broken references to the next full scan. */
const MAX_RETRY_PATHS = 100;

/** A memory row's anchors and links as stored (JSON text), read back. */
export function memoryRefs(
  key: string,
  row: { anchors: string; links: string },
): Pick<Memory, 'key' | 'anchors' | 'links'> {
  return { key, anchors: JSON.parse(row.anchors), links: JSON.parse(row.links) };
}

export class SourceSync {
  /** The listing by folder (mention.ts) of the check or scan under way, made when first needed. */
  private neighbours: Neighbours | null = null;
  /**
   * The remotes of the check or scan under way, read once: reading them costs a stat of
   * `.git/config`, which once per reference was a tenth of a full index's CPU.
   */
  private remotes: { ws: Workspace; list: readonly string[] } | null = null;

  constructor(
    private readonly ctx: EngineContext,
    private readonly repositories: () => readonly string[],
    private readonly kindOf: KindOf,
  ) {}

  /** A check or scan starts: its listing by folder is made anew and its remotes read again. */
  forgetNeighbours(): void {
    this.neighbours = null;
    this.remotes = null;
  }

  /** The remotes for every reference one check or scan (one workspace view) resolves. */
  private remotesFor(ws: Workspace): readonly string[] {
    if (this.remotes?.ws !== ws) this.remotes = { ws, list: this.repositories() };
    return this.remotes.list;
  }

  /** One listing by folder for every document a check or scan resolves, however many (an index batch's). */
  near(ws: Workspace): Neighbours {
    if (this.neighbours?.ws !== ws) this.neighbours = new Neighbours(ws);
    return this.neighbours;
  }

  freshRow(
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
    return resolveReference(ws, ref, sourcePath, this.remotesFor(ws), near).map((resolution) => {
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

  syncDoc(path: string, ws: Workspace, retry: boolean): void {
    const text = ws.text(path);
    if (text === null) deleteSource(this.ctx.db, 'doc', path);
    else {
      // A code file says something only in its comments; a document's kind is the one the index stored, so a
      // person's `.lore/kinds` rule (a changelog or not) holds here too, and the index's classifier's otherwise.
      const refs = isCodeSource(path)
        ? [...extractFromComments(path, text), ...(usesAnsibleVariables(path) ? variableUses(text) : [])]
        : extractFromMarkdown(text, path, storedDocKind(this.ctx.db, path) ?? this.kindOf(path, text));
      this.syncSource('doc', path, refs, ws, retry);
    }
  }

  syncMemory(memory: Pick<Memory, 'key' | 'anchors' | 'links'>, ws: Workspace, retry: boolean): void {
    this.syncSource('memory', memory.key, extractFromMemory(memory.anchors, memory.links, isMemoryKey), ws, retry);
  }

  /**
   * Same-repository URLs are resolved with the remotes known then: when they differ now (a remote
   * added after the store opened, or a store written before remotes were recorded), every stored
   * URL is resolved again — one that names another repository now goes, one whose target is the
   * same keeps its baseline (an edit made meanwhile must not be absorbed), another is fingerprinted.
   */
  settleRemotes(ws: Workspace): void {
    const remotes = JSON.stringify([...new Set(this.remotesFor(ws).map((r) => r.toLowerCase()))].sort());
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

  /**
   * A file that appears may be what a broken reference named (a dead link fixed by creating its
   * target): the sources whose broken references mention its name are resolved again. A save
   * names a few files; a branch switch's thousands wait for the next full scan. A step per source
   * re-synced (a check in slices turns the thread between them).
   */
  *retryingBrokenNaming(present: readonly string[], ws: Workspace): Generator<void> {
    if (!present.length || present.length > MAX_RETRY_PATHS) return;
    const stems = [...new Set(present.map((p) => basename(p).split('.')[0]).filter((stem) => stem.length >= 2))];
    const broken = brokenRefs(this.ctx.db);
    const sources = new Set(
      broken.filter((r) => stems.some((stem) => r.raw.includes(stem))).map((r) => `${r.source_kind}\u0000${r.source}`),
    );
    for (const entry of sources) {
      yield;
      const [kind, source] = entry.split('\u0000');
      if (kind === 'doc') this.syncDoc(source, ws, true);
      else {
        const m = trackedMemory(this.ctx.db, source);
        if (m) this.syncMemory(memoryRefs(source, m), ws, true);
      }
    }
  }
}

/** Why a resolved target has no fingerprint: the anchor it names is not in the file, or the file cannot be read. */
function unreadable(target: Target): string {
  if (target.kind === 'heading') return `${target.path} has no heading #${target.symbol}`;
  if (target.kind === 'lines') return `${target.path} has no lines ${target.symbol}`;
  if (target.kind === 'mention') return `${target.path} no longer uses ${target.symbol}`;
  if (target.kind === 'declared') return `${target.symbol} is declared nowhere in the workspace`;
  return `${target.path} could not be read`;
}
