// Export and import of signed bundles. Export writes the current version of each selected record
// with the signature its author made, and signs the whole. Import checks the whole bundle first
// (bundleFormat.readBundle), then writes every record in one transaction or none: a record keeps
// its author and their signature, and this machine signs it for the store, key and version it now
// has. Records by authors this store does not trust, or from untrusted sources, or in a bundle
// signed by a key this store does not trust (only the exporter vouches for a record's status and
// provenance), land quarantined. An older version than this store's from the same origin is kept out.

import { LoreError } from '../errors';
import { nowIso, type EngineContext } from '../context';
import { recordEvent } from '../record/events';
import { archiveCurrent } from '../record/current';
import { sealState, stateDigest } from '../record/state';
import {
  BASES,
  LIVE_STATUSES,
  MEMORY_TYPES,
  STATUSES,
  UNTRUSTED_SOURCES,
  type Memory,
  type Status,
} from '../model/types';
import { requireEnum } from '../model/validate';
import type { Actor } from '../ports';
import { currentRow, insertMemoryRow, rowToMemory, type MemoryRow } from '../record/rows';
import { appendAudit } from '../record/audit';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  bundleRecordOf,
  readBundle,
  signBundle,
  type Bundle,
  type BundleAuthor,
  type BundleFilter,
  type BundleRecord,
} from './bundleFormat';
import { digestOf } from '../model/digest';
import { registerAuthor, type Refusal } from '../record/integrity';
import { signingPayload } from '../record/signatures';
import { isKnownAuthor } from './trustedKeys';

export interface ExportFilter {
  types?: string[];
  statuses?: string[];
  bases?: string[];
}

export interface ExportOptions {
  /** How this machine's key is labelled for the people who import the bundle (e.g. user@host). */
  label?: string | null;
}

/** Every status except retracted (tombstones) and quarantined (untrusted text should not travel unasked). */
export const DEFAULT_EXPORT_STATUSES: readonly Status[] = [...LIVE_STATUSES, 'superseded'];

function enums<T extends string>(field: string, values: string[] | undefined, allowed: readonly T[]): T[] {
  return [...new Set((values ?? []).map((v) => requireEnum(field, v, allowed)))];
}

export function exportBundle(ctx: EngineContext, raw: ExportFilter = {}, options: ExportOptions = {}): Bundle {
  const filter: BundleFilter = {
    types: enums('type', raw.types, MEMORY_TYPES),
    statuses: enums('status', raw.statuses, STATUSES),
    bases: enums('basis', raw.bases, BASES),
  };
  const where = ['is_current = 1'];
  const params: string[] = [];
  const statuses = filter.statuses.length ? filter.statuses : DEFAULT_EXPORT_STATUSES;
  for (const [column, values] of [
    ['type', filter.types],
    ['status', statuses],
    ['basis', filter.bases],
  ] as const) {
    if (!values.length) continue;
    where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  }
  const rows = ctx.db.all<MemoryRow>(`SELECT * FROM memories WHERE ${where.join(' AND ')} ORDER BY key`, params);
  return signedBundleOf(ctx, rows, filter, options);
}

/**
 * Signs `rows` as one bundle (also what a `.lore/` record file holds). Every row is verified
 * first: a record that does not verify here is never handed on, and the export is refused.
 */
export function signedBundleOf(
  ctx: EngineContext,
  rows: MemoryRow[],
  filter: BundleFilter,
  options: ExportOptions = {},
): Bundle {
  const records: BundleRecord[] = [];
  const refused: Refusal[] = [];
  for (const row of rows) {
    const verdict = ctx.integrity.check(row);
    if (!verdict.ok) refused.push({ key: row.key, version: row.version, reason: verdict.reason });
    else if (verdict.unattributed)
      refused.push({
        key: row.key,
        version: row.version,
        reason: 'it was written before records were signed (save it again to sign it)',
      });
    else records.push(bundleRecordOf(rowToMemory(row), ctx.storeId));
  }
  if (refused.length) {
    throw new LoreError(
      'INTEGRITY',
      `export refused: ${refused.length} record(s) do not verify here: ${refused
        .slice(0, 10)
        .map((r) => `${r.key} v${r.version}: ${r.reason}`)
        .join('; ')}`,
      'forget or re-save those records, or leave them out with --type/--status/--basis',
      { refused },
    );
  }
  const authorIds = [...new Set([ctx.signer.keyId, ...records.map((r) => r.signed.author)])].sort();
  const authors: BundleAuthor[] = authorIds.map((keyId) => {
    if (keyId === ctx.signer.keyId)
      return { key_id: keyId, public_key: ctx.signer.publicKey, label: options.label ?? null };
    const row = ctx.db.get<{ public_key: string; label: string | null }>(
      'SELECT public_key, label FROM authors WHERE key_id = ?',
      [keyId],
    )!;
    return { key_id: keyId, public_key: row.public_key, label: row.label === 'this machine' ? null : row.label };
  });
  return signBundle(
    {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      created_at: nowIso(ctx),
      store_id: ctx.storeId,
      filter,
      authors,
      records,
      signer: ctx.signer.keyId,
    },
    ctx.signer,
  );
}

export interface ImportOptions {
  dryRun?: boolean;
  /** Take the bundle's version of records that differ from this store's (the local one is archived). */
  replace?: boolean;
}

/** `older`: this store holds a later version from the same origin store; the bundle's is not taken. */
export type ImportAction = 'create' | 'replace' | 'unchanged' | 'conflict' | 'older';

export interface ImportItem {
  key: string;
  action: ImportAction;
  /** The status it has (or would have) here. */
  status: Status;
  author: string;
  author_known: boolean;
  local_version: number | null;
  /** Why it lands quarantined here, when it does and the bundle did not say so itself. */
  quarantine_reason?: string;
}

export interface ImportResult {
  dry_run: boolean;
  bundle: { store_id: string; signer: string; created_at: string; records: number; digest: string };
  items: ImportItem[];
  created: number;
  replaced: number;
  unchanged: number;
  quarantined: string[];
  conflicts: string[];
}

/** How records that differ from this store's are treated. */
export type ConflictPolicy = 'refuse' | 'replace' | 'keep-local-edits';

export function importBundle(
  ctx: EngineContext,
  actor: Actor,
  input: unknown,
  options: ImportOptions = {},
): ImportResult {
  const bundle = readBundle(input);
  // Whichever surface a person imports through, the audit chain records it as an import.
  const importer: Actor = actor.door === 'import' ? actor : { ...actor, door: 'import' };
  return applyBundle(ctx, importer, bundle, {
    dryRun: options.dryRun === true,
    conflicts: options.replace ? 'replace' : 'refuse',
  });
}

/**
 * The author's signature covers a record's content only; its status and provenance are the
 * exporter's word (the bundle signature). So both the author and the exporter must be trusted
 * for a record to keep the status it arrives with: otherwise anyone could re-sign a trusted
 * author's retracted, deprecated or quarantined record, or its webpage-sourced text, as active.
 */
function landing(
  record: BundleRecord,
  authorKnown: boolean,
  signer: string,
  signerKnown: boolean,
): { status: Status; reason?: string } {
  if (record.status === 'quarantined') return { status: 'quarantined' };
  if (!authorKnown)
    return {
      status: 'quarantined',
      reason: `imported from ${record.signed.author}, an author this store does not trust`,
    };
  if (!signerKnown)
    return {
      status: 'quarantined',
      reason: `its status and source were vouched for by ${signer}, an exporter this store does not trust`,
    };
  if (UNTRUSTED_SOURCES.includes(record.provenance.source))
    return { status: 'quarantined', reason: `imported; its source (${record.provenance.source}) is untrusted` };
  return { status: record.status };
}

/** The store and version a current row was signed as where it was written (its origin, if imported). */
function signedAs(ctx: EngineContext, row: MemoryRow): { store_id: string; version: number } {
  if (!row.origin) return { store_id: ctx.storeId, version: row.version };
  const origin = JSON.parse(row.origin) as { store_id: string; version: number };
  return { store_id: origin.store_id, version: origin.version };
}

/**
 * Writes a verified bundle. `keep-local-edits` (used for `.lore/` records) replaces only records
 * that themselves came from elsewhere and reports the others as conflicts instead of refusing.
 */
export function applyBundle(
  ctx: EngineContext,
  actor: Actor,
  bundle: Bundle,
  how: { dryRun: boolean; conflicts: ConflictPolicy },
): ImportResult {
  const digest = digestOf(bundle);
  return ctx.db.transaction(() => {
    const signerKnown = isKnownAuthor(ctx, bundle.signer);
    const items: ImportItem[] = bundle.records.map((record) => {
      const local = currentRow(ctx.db, record.key);
      const authorKnown = isKnownAuthor(ctx, record.signed.author);
      const localSigned = local ? signedAs(ctx, local) : null;
      // Same origin store and the same author: a version number is only that author's own claim.
      const older =
        localSigned !== null &&
        local!.author === record.signed.author &&
        localSigned.store_id === record.signed.store_id &&
        record.signed.version < localSigned.version;
      let action: ImportAction = 'create';
      if (local && local.content_digest === record.content_digest) action = 'unchanged';
      // A replayed older version (an old bundle or an old .lore/ file) never replaces a newer one;
      // a record edited here since its own file was written stays a conflict, as it is reported.
      else if (local && older && (how.conflicts !== 'keep-local-edits' || local.origin !== null)) action = 'older';
      else if (local)
        action =
          how.conflicts === 'replace' || (how.conflicts === 'keep-local-edits' && local.origin !== null)
            ? 'replace'
            : 'conflict';
      const writes = action === 'create' || action === 'replace';
      const lands = writes
        ? landing(record, authorKnown, bundle.signer, signerKnown)
        : { status: local!.status as Status };
      return {
        key: record.key,
        action,
        status: lands.status,
        author: record.signed.author,
        author_known: authorKnown,
        local_version: local?.version ?? null,
        ...(lands.reason ? { quarantine_reason: lands.reason } : {}),
      };
    });
    const conflicts = items.filter((i) => i.action === 'conflict').map((i) => i.key);
    // A dry run reports conflicts instead of refusing, so a person sees all of what would happen.
    if (conflicts.length && how.conflicts === 'refuse' && !how.dryRun) {
      throw new LoreError(
        'INVALID_STATE',
        `bundle refused, nothing was imported: ${conflicts.length} ` +
          `record(s) already exist here with different content: ` +
          `${conflicts.slice(0, 10).join(', ')}${conflicts.length > 10 ? ', …' : ''}`,
        "import with --replace to take the bundle's versions (yours are " +
          'archived and stay in history), or --dry-run to see what would ' +
          'change',
        { conflicts },
      );
    }
    const result: ImportResult = {
      dry_run: how.dryRun,
      bundle: {
        store_id: bundle.store_id,
        signer: bundle.signer,
        created_at: bundle.created_at,
        records: bundle.records.length,
        digest,
      },
      items,
      created: items.filter((i) => i.action === 'create').length,
      replaced: items.filter((i) => i.action === 'replace').length,
      unchanged: items.filter((i) => i.action === 'unchanged' || i.action === 'older').length,
      quarantined: items
        .filter((i) => (i.action === 'create' || i.action === 'replace') && i.status === 'quarantined')
        .map((i) => i.key),
      conflicts,
    };
    if (how.dryRun || result.created + result.replaced === 0) return result;

    const now = nowIso(ctx);
    const authors = new Map(bundle.authors.map((a) => [a.key_id, a]));
    registerAuthor(ctx, ctx.signer, 'this machine');
    bundle.records.forEach((record, i) => {
      const item = items[i];
      if (item.action !== 'create' && item.action !== 'replace') return;
      const author = authors.get(record.signed.author)!;
      registerAuthor(ctx, { keyId: author.key_id, publicKey: author.public_key }, author.label, false);
      writeImported(ctx, actor, record, item, now, digest);
    });
    appendAudit(ctx.db, actor, now, {
      event: 'bundle.import',
      digests: {
        bundle: digest,
        created: result.created,
        replaced: result.replaced,
        quarantined: result.quarantined.length,
      },
    });
    return result;
  });
}

function writeImported(
  ctx: EngineContext,
  actor: Actor,
  record: BundleRecord,
  item: ImportItem,
  now: string,
  bundleDigest: string,
): void {
  const previous = currentRow(ctx.db, record.key);
  if (previous) archiveCurrent(ctx, previous, now);
  // readBundle refused any field a record does not have, so `fields` is exactly the record's memory fields.
  const { signed, ...fields } = record;
  const memory: Memory = {
    ...fields,
    status: item.status,
    status_reason: item.quarantine_reason ?? record.status_reason,
    recorded_at: now,
    updated_at: now,
    version: (previous?.version ?? 0) + 1,
    author: signed.author,
    signature: null,
    origin: {
      store_id: signed.store_id,
      version: signed.version,
      signature: signed.signature,
      signer: ctx.signer.keyId,
      imported_at: now,
    },
  };
  memory.signature = ctx.signer.sign(signingPayload(ctx.storeId, memory));
  insertMemoryRow(ctx.db, memory, true, sealState(ctx.signer, ctx.storeId, memory));
  recordEvent(ctx, actor, {
    key: memory.key,
    version: memory.version,
    event: 'imported',
    reason: `signed by ${record.signed.author}${item.status === 'quarantined' ? '; quarantined' : ''}`,
    at: now,
    valid_at: memory.valid_from,
  });
  appendAudit(ctx.db, actor, now, {
    event: 'memory.import',
    key: memory.key,
    version: memory.version,
    digests: {
      content: memory.content_digest,
      state: stateDigest(memory),
      bundle: bundleDigest,
      ...(previous ? { previous: previous.content_digest } : {}),
    },
  });
}
