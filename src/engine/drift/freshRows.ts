// A reference resolved and fingerprinted afresh: the rows a new reference of a document or memory
// becomes (one per file it may mean), from the workspace alone. This is the costly part of keeping
// references current (a file's outline, folder listings, symbol definitions), and it reads no
// store: so a document's new references can be prepared away from the store's owner thread (the
// owner's drift worker, host/driftWorker.ts) and only written by the owner (DriftService).

import { firstSecret } from '../model/secretRules';
import type { DocKind } from '../model/kinds';
import { sha256 } from '../model/digest';
import { extractFromMarkdown, refKey, type RawReference } from './extract';
import type { Neighbours } from './mention';
import { resolveReference } from './resolve';
import type { NewRef } from './store';
import { fingerprintOf, type Target } from './target';
import { TextMemo } from './textMemo';
import type { Workspace } from './workspace';

/** Whether a reference's text looks like a secret: the same link or path recurs in many documents and checks. */
const secretLooking = new TextMemo<boolean>(8192);

/** A reference that looks like a secret is not kept (a document's text is not redacted as the index redacts it). */
export function looksSecret(raw: string): boolean {
  return secretLooking.get(raw, '', () => firstSecret(raw) !== undefined);
}

/** The rows a new reference becomes, stamped `now`; not yet written. */
export function freshRows(
  ws: Workspace,
  kind: 'memory' | 'doc',
  source: string,
  ref: RawReference,
  sourcePath: string | null,
  now: string,
  repositories: readonly string[],
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
  return resolveReference(ws, ref, sourcePath, repositories, near).map((resolution) => {
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

/** Why a resolved target has no fingerprint: the anchor it names is not in the file, or the file cannot be read. */
function unreadable(target: Target): string {
  if (target.kind === 'heading') return `${target.path} has no heading #${target.symbol}`;
  if (target.kind === 'lines') return `${target.path} has no lines ${target.symbol}`;
  if (target.kind === 'mention') return `${target.path} no longer uses ${target.symbol}`;
  return `${target.path} could not be read`;
}

/** A document whose references are to be prepared: its stored kind, and the reference keys already stored. */
export interface PrepareRequest {
  path: string;
  kind: DocKind | undefined;
  stored: string[];
}

/** A document's references as the preparer read them, and the rows of each not stored yet (by index). */
export interface PreparedDoc {
  /** sha256 of the text the references were read from: the owner uses them only for the same text. */
  textHash: string;
  refs: RawReference[];
  rows: Array<[number, NewRef[]]>;
}

/**
 * A check's documents prepared off the owner's thread, for the paths the check names; resolves to
 * undefined when it could not be done (the check then does the work itself).
 */
export type DriftPreparer = (
  changed: readonly string[],
  docs: readonly PrepareRequest[],
  repositories: readonly string[],
) => Promise<Map<string, PreparedDoc> | undefined>;

/** What a preparer does for one document (in the worker): read, extract, resolve the references not stored. */
export function prepareDoc(
  ws: Workspace,
  doc: PrepareRequest,
  repositories: readonly string[],
  near: Neighbours,
): PreparedDoc | null {
  const text = ws.text(doc.path);
  if (text === null) return null;
  const refs = extractFromMarkdown(text, doc.path, doc.kind);
  const stored = new Set(doc.stored);
  const rows: Array<[number, NewRef[]]> = [];
  refs.forEach((ref, i) => {
    if (looksSecret(ref.raw) || stored.has(refKey(ref.raw, ref.form === 'flag' ? ref.command : null))) return;
    rows.push([i, freshRows(ws, 'doc', doc.path, ref, doc.path, '', repositories, near)]);
  });
  return { textHash: sha256(text), refs, rows };
}
