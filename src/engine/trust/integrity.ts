// Integrity on read: a memory version is returned only if its content still matches its digest
// and its signature verifies against its author's known public key for this store. Otherwise it
// is refused with the reason; rows written before signing existed read as unattributed.

import { generateKeyPairSync, sign as signMessage } from 'node:crypto';
import { contentDigest } from '../memory/contentDigest';
import type { EngineContext } from '../memory/context';
import { rowToMemory, type MemoryRow } from '../store/memoryRows';
import { sha256 } from './digest';
import { signingPayload, verifyPayload, type Signer } from './signatures';

export interface Refusal {
  key: string;
  version: number;
  reason: string;
}

export type Verdict = { ok: true; unattributed: boolean } | { ok: false; reason: string };

/** A signer whose key lives only as long as this process: for stores opened without a machine key. */
export function ephemeralSigner(): Signer {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  return { keyId: keyIdOf(der), publicKey: der, sign: (message) => signMessage(null, Buffer.from(message, 'utf8'), privateKey).toString('base64') };
}

export function keyIdOf(publicKey: string): string {
  return `ed25519:${sha256(publicKey).slice(0, 16)}`;
}

export function registerAuthor(ctx: Pick<EngineContext, 'db' | 'clock'>, signer: Pick<Signer, 'keyId' | 'publicKey'>, label: string | null = null): void {
  ctx.db.run('INSERT OR IGNORE INTO authors (key_id, public_key, label, added_at) VALUES (?, ?, ?, ?)', [signer.keyId, signer.publicKey, label, ctx.clock.now().toISOString()]);
}

export class IntegrityChecker {
  private signingFrom: number | undefined;
  private readonly authors = new Map<string, string | null>();
  private readonly verified = new Set<string>();

  constructor(private readonly ctx: Pick<EngineContext, 'db' | 'storeId'>) {}

  private publicKey(author: string): string | null {
    if (!this.authors.has(author)) {
      this.authors.set(author, this.ctx.db.get<{ public_key: string }>('SELECT public_key FROM authors WHERE key_id = ?', [author])?.public_key ?? null);
    }
    return this.authors.get(author) ?? null;
  }

  check(row: MemoryRow): Verdict {
    this.signingFrom ??= Number(this.ctx.db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'signing_from_id'")?.value ?? '1');
    if (row.id < this.signingFrom && !row.signature) return { ok: true, unattributed: true };
    if (!row.signature || !row.author) return { ok: false, reason: 'its signature is missing' };
    if (contentDigest(rowToMemory(row)) !== row.content_digest) return { ok: false, reason: 'its content was changed after it was signed' };
    const publicKey = this.publicKey(row.author);
    if (!publicKey) return { ok: false, reason: `its author ${row.author} is not a known key in this store` };
    const payload = signingPayload(this.ctx.storeId, row);
    const memo = `${publicKey}|${payload}|${row.signature}`;
    if (this.verified.has(memo)) return { ok: true, unattributed: false };
    if (!verifyPayload(publicKey, payload, row.signature)) {
      return { ok: false, reason: 'its signature does not match its key, version, store or author (it was moved, copied or re-attributed)' };
    }
    this.verified.add(memo);
    return { ok: true, unattributed: false };
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
