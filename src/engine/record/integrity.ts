// Integrity on read: a memory version is returned only if its content still matches its digest
// and its signature verifies against its author's known public key for this store (for an
// imported version, its author's original signature and this store's import signature), and its
// status and provenance still match this store's state signature (record/state.ts). Otherwise it
// is refused with the reason; rows written before signing existed read as unattributed.

import { generateKeyPairSync, sign as signMessage } from 'node:crypto';
import { contentDigest } from './contentDigest';
import type { Clock, SqlDatabase } from '../ports';
import type { RecordOrigin } from '../model/types';
import { rowToMemory, type MemoryRow } from './rows';
import { rowState, statePayload } from './stateFields';
import { sha256 } from '../model/digest';
import { signingPayload, verifyPayload, type Signer } from './signatures';

export interface Refusal {
  key: string;
  version: number;
  reason: string;
}

export type RecordVerdict = { ok: true; unattributed: boolean } | { ok: false; reason: string };

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

/**
 * Records an author's public key so its signatures can be checked. `trusted` is for keys a person
 * vouches for (this machine's own, `lore trust add`); registering never lowers a key's trust.
 */
export function registerAuthor(
  ctx: { db: SqlDatabase; clock: Clock },
  signer: Pick<Signer, 'keyId' | 'publicKey'>,
  label: string | null = null,
  trusted = true,
): void {
  ctx.db.run(
    `INSERT INTO authors (key_id, public_key, label, added_at, trusted) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key_id) DO UPDATE
       SET trusted = MAX(trusted, excluded.trusted), label = COALESCE(label, excluded.label)`,
    [signer.keyId, signer.publicKey, label, ctx.clock.now().toISOString(), trusted ? 1 : 0],
  );
}

export class IntegrityChecker {
  private signingFrom: number | undefined;
  private readonly authors = new Map<string, string | null>();
  private readonly verified = new Set<string>();

  constructor(private readonly ctx: { db: SqlDatabase; storeId: string }) {}

  private publicKey(author: string): string | null {
    if (!this.authors.has(author)) {
      this.authors.set(
        author,
        this.ctx.db.get<{ public_key: string }>('SELECT public_key FROM authors WHERE key_id = ?', [author])
          ?.public_key ?? null,
      );
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

  /** Status and provenance: signed by this store's machine as written and at every status change (record/state.ts). */
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
    let payload: string;
    try {
      payload = statePayload(this.ctx.storeId, rowState(row));
    } catch {
      return { ok: false, reason: 'its provenance is not JSON (the row was edited outside Lore)' };
    }
    if (!this.holds(signerKey, payload, row.state_signature)) {
      return { ok: false, reason: 'its status or provenance was changed after it was signed' };
    }
    return null;
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
