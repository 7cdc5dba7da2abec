// Canonicalize ("Promote to Repository"): write a record into the repository so the team gets it
// through git — a decision as an ADR in the repository's own convention, or any record as a
// signed `.lore/` record file. The engine renders the file and hands it to the host's RepoFiles
// port to write; the write is then recorded in the record's history and the audit chain.

import { LoreError, invalid } from '../errors';
import { requireCurrent } from '../record/current';
import { LIVE_STATUSES } from '../model/types';
import { nowIso, type EngineContext } from '../context';
import { recordEvent } from '../record/events';
import type { Actor } from '../ports';
import { rowToMemory } from '../record/rows';
import { appendAudit } from '../record/audit';
import { signedBundleOf } from './bundle';
import { sha256 } from '../model/digest';
import { defaultAdrConvention, detectAdrConvention, existingAdrFor, renderAdr, type AdrStyle } from './adrConvention';
import { indexWithEntry, type IndexEntry } from './adrIndex';
import type { RepoFiles } from './repoFiles';
import { repoRecordPath } from './repoRecords';

export interface CanonicalizeOptions {
  /**
   * `adr` (decisions only) or `record`; default: an ADR when the record is a decision and the repository keeps ADRs.
   */
  as?: 'adr' | 'record';
  /** How this machine's key is labelled in a record file. */
  label?: string | null;
  /** Only say where the file would be written (the confirmation shows it): nothing is written or recorded. */
  preview?: boolean;
}

export interface CanonicalizeResult {
  key: string;
  version: number;
  as: 'adr' | 'record';
  path: string;
  /** The ADR convention followed, for `as: 'adr'`. */
  convention: AdrStyle | null;
  /** Whether a record file already existed and was rewritten. */
  replaced: boolean;
  /** The ADR folder's index (README.md or index.md listing its ADRs) the new entry was added to. */
  index: string | null;
}

const WRITABLE: readonly string[] = [...LIVE_STATUSES, 'superseded'];

export function canonicalize(
  ctx: EngineContext,
  actor: Actor,
  key: string,
  options: CanonicalizeOptions,
  repo: RepoFiles,
): CanonicalizeResult {
  const as = options.as ?? null;
  if (as !== null && as !== 'adr' && as !== 'record')
    throw invalid(`as must be adr or record; got ${JSON.stringify(as)}`);
  const row = requireCurrent(ctx, key);
  const verdict = ctx.integrity.check(row);
  if (!verdict.ok)
    throw new LoreError(
      'INTEGRITY',
      `${key} v${row.version} is refused: ${verdict.reason}`,
      'a record that does not verify is not written to the repository',
    );
  if (!WRITABLE.includes(row.status)) {
    throw new LoreError(
      'INVALID_STATE',
      `${key} is ${row.status}; only a live record is written to the repository`,
      row.status === 'quarantined' ? `a person promotes it first: lore promote ${key}` : undefined,
    );
  }
  const memory = rowToMemory(row);
  // Where this repository keeps its ADRs is learned from the documents the index classified as ADRs.
  const indexedAdrs = ctx.db.all<{ path: string }>("SELECT path FROM docs WHERE kind = 'adr'").map((d) => d.path);
  const detected = memory.type === 'decision' && as !== 'record' ? detectAdrConvention(repo, indexedAdrs) : null;
  const chosen = as ?? (detected ? 'adr' : 'record');
  if (chosen === 'adr' && memory.type !== 'decision')
    throw invalid(`${key} is a ${memory.type}; only a decision is written as an ADR`, 'use --as record');

  let path: string;
  let content: string;
  let replaced = false;
  let style: AdrStyle | null = null;
  let index: IndexEntry | null = null;
  if (chosen === 'adr') {
    const conv = detected ?? defaultAdrConvention();
    const existing = existingAdrFor(repo, conv, key);
    if (existing)
      throw new LoreError(
        'INVALID_STATE',
        `${key} was already written as ${existing}`,
        'an ADR belongs to the repository once written: edit that file, or write a new decision that supersedes it',
      );
    ({ path, content } = renderAdr(conv, memory));
    style = conv.style;
    const numbered = conv.style === 'log4brains' ? null : conv.next;
    index = indexWithEntry(repo, conv.dir, path.slice(conv.dir.length + 1), numbered, memory.title);
  } else {
    const bundle = signedBundleOf(ctx, [row], { types: [], statuses: [], bases: [] }, { label: options.label ?? null });
    path = repoRecordPath(key);
    content = JSON.stringify(bundle, null, 2) + '\n';
    replaced = repo.read(path) !== null;
  }
  const planned = {
    key,
    version: row.version,
    as: chosen,
    path,
    convention: style,
    replaced,
    index: index?.path ?? null,
  };
  if (options.preview) return planned;
  repo.write(path, content, { overwrite: chosen === 'record' });
  if (index) repo.write(index.path, index.content, { overwrite: true });
  return ctx.db.transaction(() => {
    const now = nowIso(ctx);
    recordEvent(ctx, actor, {
      key,
      version: row.version,
      event: 'canonicalized',
      reason: `written to ${path}`,
      at: now,
    });
    appendAudit(ctx.db, actor, now, {
      event: 'memory.canonicalize',
      key,
      version: row.version,
      digests: { content: row.content_digest, file: sha256(content), path: sha256(path) },
    });
    return planned;
  });
}
