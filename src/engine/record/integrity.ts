// Integrity on read: a memory version is returned only if its content still matches its digest
// and its signature verifies against its author's known public key for this store (for an
// imported version, its author's original signature and this store's import signature), its
// author's key record holds its seal, and its state (status, lifecycle, provenance) still matches
// this store's seal (record/state.ts). Otherwise it is refused with the reason, naming an edited
// field; rows written before signing existed read as unattributed. The authors table is owned
// here: each author's key, label and trust are sealed too (seal.ts), and trust is read from a
// seal that holds, so a flipped `trusted` never lets an author's bundle arrive active.

import { generateKeyPairSync, sign as signMessage } from 'node:crypto';
import { contentDigest } from './contentDigest';
import type { RecordOrigin } from '../model/types';
import { rowToMemory, type MemoryRow } from './rows';
import { legacyStatePayload, rowState, sealedState, stateIdentity } from './stateFields';
import { sha256 } from '../model/digest';
import { signingPayload, verifyPayload, type Signer } from './signatures';
import { LoreError } from '../errors';
import type { Clock, SqlDatabase } from '../ports';
import { checkSeal, makeSeal, type SealIdentity, type SealVerdict } from './seal';

export interface Refusal {
  key: string;
  version: number;
  reason: string;
}

/** `legacy`: status and provenance hold their first signature, the rest was never sealed (an older Lore's row). */
export type RecordVerdict = { ok: true; unattributed: boolean } | { ok: false; reason: string; legacy?: boolean };

/** A signer whose key lives only as long as this process: for stores opened without a machine key. */
export function ephemeralSigner(): Signer {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  return {
    keyId: keyIdOf(der),
    publicKey: der,
    sign: (message) => signMessage(null, Buffer.from(message, 'utf8'), privateKey).toString('base64'),
  };
}

export function keyIdOf(publicKey: string): string {
  return `ed25519:${sha256(publicKey).slice(0, 16)}`;
}

/** An author's row as stored, with its seal. */
export interface AuthorRow {
  key_id: string;
  public_key: string;
  label: string | null;
  added_at: string;
  trusted: number;
  sealed: string | null;
  seal_signature: string | null;
  seal_signer: string | null;
}

/** The parts of the engine context this module reads (typed here so it need not import the context). */
interface RecordContext {
  db: SqlDatabase;
  clock: Clock;
  signer: Signer;
  storeId: string;
}

type EngineContext = RecordContext;

type AuthorContext = Pick<EngineContext, 'db' | 'clock' | 'signer'>;

/** This SQLite store's own id: authors are local to it, whichever store the memories are in. */
export function localStoreId(db: SqlDatabase): string {
  return db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'store_id'")?.value ?? '';
}

function authorIdentity(db: SqlDatabase, keyId: string): SealIdentity {
  return { table: 'authors', store_id: localStoreId(db), key_id: keyId };
}

function authorFields(row: Pick<AuthorRow, 'public_key' | 'label' | 'added_at' | 'trusted'>): object {
  return { public_key: row.public_key, label: row.label, added_at: row.added_at, trusted: row.trusted };
}

function writeAuthorSeal(ctx: AuthorContext, row: AuthorRow): void {
  const seal = makeSeal(ctx.signer, authorIdentity(ctx.db, row.key_id), authorFields(row));
  ctx.db.run('UPDATE authors SET sealed = ?, seal_signature = ?, seal_signer = ? WHERE key_id = ?', [
    seal.sealed,
    seal.signature,
    seal.signer,
    row.key_id,
  ]);
}

export function authorRow(db: SqlDatabase, keyId: string): AuthorRow | undefined {
  return db.get<AuthorRow>('SELECT * FROM authors WHERE key_id = ?', [keyId]);
}

export function everyAuthorRow(db: SqlDatabase): AuthorRow[] {
  return db.all<AuthorRow>('SELECT * FROM authors ORDER BY key_id');
}

/**
 * An author row against its seal. The seal's key is this machine's own (known from the signer,
 * not the file) or, for a row another machine sealed (a store used with another key), that key's
 * own row.
 */
export function authorVerdict(ctx: Pick<EngineContext, 'db' | 'signer'>, row: AuthorRow): SealVerdict {
  const seal = {
    sealed: row.sealed ?? undefined,
    signature: row.seal_signature ?? undefined,
    signer: row.seal_signer ?? undefined,
  };
  return checkSeal(seal, authorIdentity(ctx.db, row.key_id), authorFields(row), (signer, payload, signature) => {
    const key = signer === ctx.signer.keyId ? ctx.signer.publicKey : authorRow(ctx.db, signer)?.public_key;
    return key !== undefined && verifyPayload(key, payload, signature);
  });
}

/**
 * Whether a key is trusted here: this machine's own, or trusted by a row this machine sealed and that
 * holds its seal. Trust is rooted in this machine's key (known from its key file, not the store), so
 * neither a flipped `trusted` nor an inserted row sealed by a key of its own makes an author trusted.
 */
export function authorTrusted(ctx: Pick<EngineContext, 'db' | 'signer'>, keyId: string): boolean {
  if (keyId === ctx.signer.keyId) return true;
  const row = authorRow(ctx.db, keyId);
  return row !== undefined && row.trusted === 1 && row.seal_signer === ctx.signer.keyId && authorVerdict(ctx, row).ok;
}

/** Refuses to write an author's row whose seal does not hold (a person's trust too: it would not take). */
export function refuseUnsealedAuthor(ctx: Pick<EngineContext, 'db' | 'signer'>, row: AuthorRow): void {
  const verdict = authorVerdict(ctx, row);
  if (verdict.ok) return;
  throw new LoreError(
    'INTEGRITY',
    `the author ${row.key_id} was changed outside Lore (${verdict.reason}); Lore will not sign it again`,
    'run `lore doctor` to see what changed, and `lore doctor --repair` to restore what Lore sealed',
    { key_id: row.key_id },
  );
}

/** Changes an author's label or trust: the row must hold its seal, and is sealed again as it then stands. */
export function updateAuthor(
  ctx: AuthorContext,
  keyId: string,
  change: { label?: string | null; trusted?: boolean },
): void {
  const row = authorRow(ctx.db, keyId);
  if (!row) return;
  const next = {
    ...row,
    ...(change.label !== undefined ? { label: change.label } : {}),
    ...(change.trusted !== undefined ? { trusted: change.trusted ? 1 : 0 } : {}),
  };
  if (next.label === row.label && next.trusted === row.trusted) return;
  refuseUnsealedAuthor(ctx, row);
  ctx.db.run('UPDATE authors SET label = ?, trusted = ? WHERE key_id = ?', [next.label, next.trusted, keyId]);
  writeAuthorSeal(ctx, next);
}

/** Writes sealed values back into an author's row (a person's repair, record/repair.ts). */
export function restoreAuthorFields(db: SqlDatabase, keyId: string, sealed: string): void {
  const kept = JSON.parse(sealed) as Pick<AuthorRow, 'public_key' | 'label' | 'added_at' | 'trusted'>;
  db.run('UPDATE authors SET public_key = ?, label = ?, added_at = ?, trusted = ? WHERE key_id = ?', [
    kept.public_key,
    kept.label,
    kept.added_at,
    kept.trusted,
    keyId,
  ]);
}

/** Seals every author row as it stands (migration 15), once. */
export function sealEveryAuthor(ctx: AuthorContext): number {
  const rows = everyAuthorRow(ctx.db);
  for (const row of rows) writeAuthorSeal(ctx, row);
  return rows.length;
}

/**
 * Records an author's public key so its signatures can be checked. `trusted` is for keys a person
 * vouches for (this machine's own, `lore trust add`); registering never lowers a key's trust, and
 * the row is sealed as written.
 */
export function registerAuthor(
  ctx: AuthorContext,
  signer: Pick<Signer, 'keyId' | 'publicKey'>,
  label: string | null = null,
  trusted = true,
): void {
  const existing = authorRow(ctx.db, signer.keyId);
  if (existing) {
    updateAuthor(ctx, signer.keyId, { label: existing.label ?? label, trusted: existing.trusted === 1 || trusted });
    return;
  }
  const row: AuthorRow = {
    key_id: signer.keyId,
    public_key: signer.publicKey,
    label,
    added_at: ctx.clock.now().toISOString(),
    trusted: trusted ? 1 : 0,
    sealed: null,
    seal_signature: null,
    seal_signer: null,
  };
  insertAuthorRow(ctx.db, row);
  writeAuthorSeal(ctx, row);
}

/** The author's row alone, unsealed: for the schema 8 upgrade, before authors had seals (schema 15 seals it). */
export function insertAuthorRow(
  db: SqlDatabase,
  row: Pick<AuthorRow, 'key_id' | 'public_key' | 'label' | 'added_at' | 'trusted'>,
): void {
  db.run('INSERT OR IGNORE INTO authors (key_id, public_key, label, added_at, trusted) VALUES (?, ?, ?, ?, ?)', [
    row.key_id,
    row.public_key,
    row.label,
    row.added_at,
    row.trusted,
  ]);
}

export class IntegrityChecker {
  private signingFrom: number | undefined;
  private readonly authors = new Map<string, string | null>();
  private readonly verified = new Set<string>();

  constructor(private readonly ctx: Pick<EngineContext, 'db' | 'storeId' | 'signer'>) {}

  /** An author's public key, when its row holds its seal (an edited key record signs nothing here). */
  private publicKey(author: string): string | null {
    if (!this.authors.has(author)) {
      const row = authorRow(this.ctx.db, author);
      this.authors.set(author, row && authorVerdict(this.ctx, row).ok ? row.public_key : null);
    }
    return this.authors.get(author) ?? null;
  }

  check(row: MemoryRow): RecordVerdict {
    const content = this.checkContent(row);
    if (!content.ok) return content;
    const state = this.checkState(row);
    return state ?? content;
  }

  /** The content and its author's signature (and, for an import, this store's import signature). */
  private checkContent(row: MemoryRow): RecordVerdict {
    this.signingFrom ??= Number(
      this.ctx.db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'signing_from_id'")?.value ?? '1',
    );
    if (row.id < this.signingFrom && !row.signature) return { ok: true, unattributed: true };
    if (!row.signature || !row.author) return { ok: false, reason: 'its signature is missing' };
    if (contentDigest(rowToMemory(row)) !== row.content_digest)
      return { ok: false, reason: 'its content was changed after it was signed' };
    const publicKey = this.publicKey(row.author);
    if (!publicKey) return { ok: false, reason: `its author ${row.author} is not a known key in this store` };
    if (!row.origin) {
      if (!this.holds(publicKey, signingPayload(this.ctx.storeId, row), row.signature)) {
        return {
          ok: false,
          reason:
            'its signature does not match its key, version, store or author (it was moved, copied or re-attributed)',
        };
      }
      return { ok: true, unattributed: false };
    }
    // An imported version carries two signatures: its author's, made in the store it was written
    // in, and the one the importing machine made for this store, key and version.
    const origin = JSON.parse(row.origin) as RecordOrigin;
    if (
      !this.holds(publicKey, signingPayload(origin.store_id, { ...row, version: origin.version }), origin.signature)
    ) {
      return {
        ok: false,
        reason:
          `its author's signature does not match its content, key or author ` +
          `(it was edited or re-attributed after import)`,
      };
    }
    const localKey = this.publicKey(origin.signer);
    if (!localKey || !this.holds(localKey, signingPayload(this.ctx.storeId, row), row.signature)) {
      return {
        ok: false,
        reason: 'its import signature does not match this store, key or version (it was moved or copied)',
      };
    }
    return { ok: true, unattributed: false };
  }

  /** The state (status, lifecycle, provenance): sealed by this store's machine at every write (record/state.ts). */
  private checkState(row: MemoryRow): RecordVerdict | null {
    if (!row.state_signature || !row.state_signer) {
      return {
        ok: false,
        reason: 'its status and provenance are not signed (the row was written or edited outside Lore)',
      };
    }
    const signerKey = this.publicKey(row.state_signer);
    if (!signerKey) {
      return {
        ok: false,
        reason: `its status and provenance were signed by ${row.state_signer}, not a known key in this store`,
      };
    }
    let state: ReturnType<typeof rowState>;
    try {
      state = rowState(row);
    } catch {
      return { ok: false, reason: 'its provenance or origin is not JSON (the row was edited outside Lore)' };
    }
    if (!row.state_sealed) {
      if (this.holds(signerKey, legacyStatePayload(this.ctx.storeId, state), row.state_signature)) {
        return {
          ok: false,
          legacy: true,
          reason:
            'its lifecycle (valid_until, superseded_by, status reason, …) is not sealed (written by an older Lore)',
        };
      }
      return { ok: false, reason: 'its status or provenance was changed after it was signed' };
    }
    const seal = { sealed: row.state_sealed, signature: row.state_signature, signer: row.state_signer };
    const verdict = checkSeal(
      seal,
      stateIdentity(this.ctx.storeId, row),
      sealedState(state),
      (_signer, payload, signature) => this.holds(signerKey, payload, signature),
    );
    return verdict.ok ? null : { ok: false, reason: verdict.reason };
  }

  private holds(publicKey: string, payload: string, signature: string): boolean {
    const memo = `${publicKey}|${payload}|${signature}`;
    if (this.verified.has(memo)) return true;
    if (!verifyPayload(publicKey, payload, signature)) return false;
    this.verified.add(memo);
    return true;
  }

  /** Splits rows into those that verify and refusals with reasons. */
  partition<T extends MemoryRow>(rows: T[]): { accepted: T[]; refused: Refusal[] } {
    const accepted: T[] = [];
    const refused: Refusal[] = [];
    for (const row of rows) {
      const verdict = this.check(row);
      if (verdict.ok) accepted.push(row);
      else refused.push({ key: row.key, version: row.version, reason: verdict.reason });
    }
    return { accepted, refused };
  }
}
