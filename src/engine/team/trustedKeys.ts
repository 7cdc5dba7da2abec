// Which authors this store trusts. An author is known when its key is this machine's own or a
// person trusted it here (`lore trust add`); imported records by anyone else land quarantined.
// Trust is per store, kept in the authors table beside the public keys signatures are checked
// against. Trusting a key is a person's act, like promote; withdrawing trust is not restricted.

import { LoreError, invalid } from '../errors';
import { nowIso, type EngineContext } from '../context';
import { requireText } from '../model/validate';
import type { Actor } from '../ports';
import { appendAudit } from '../record/audit';
import { sha256 } from '../model/digest';
import {
  authorRow,
  authorTrusted,
  keyIdOf,
  refuseUnsealedAuthor,
  registerAuthor,
  updateAuthor,
} from '../record/integrity';
import { isEd25519PublicKey } from '../record/signatures';

export interface AuthorInfo {
  key_id: string;
  public_key: string;
  label: string | null;
  trusted: boolean;
  this_machine: boolean;
  /** Current records by this author in the store. */
  records: number;
  added_at: string;
}

export interface TrustList {
  this_machine: { key_id: string; public_key: string };
  authors: AuthorInfo[];
}

interface AuthorRow {
  key_id: string;
  public_key: string;
  label: string | null;
  trusted: number;
  added_at: string;
  records: number;
}

/** Trust is read from the author's sealed row: a `trusted` flipped in the file counts for nothing. */
export function isKnownAuthor(ctx: Pick<EngineContext, 'db' | 'signer'>, keyId: string): boolean {
  return authorTrusted(ctx, keyId);
}

function authorRows(ctx: EngineContext, keyId?: string): AuthorInfo[] {
  const rows = ctx.db.all<AuthorRow>(
    `SELECT a.key_id, a.public_key, a.label, a.trusted, a.added_at,
            (SELECT COUNT(*) FROM memories m WHERE m.author = a.key_id AND m.is_current = 1) AS records
     FROM authors a ${keyId ? 'WHERE a.key_id = ?' : ''} ORDER BY a.added_at, a.key_id`,
    keyId ? [keyId] : [],
  );
  return rows.map((r) => ({
    key_id: r.key_id,
    public_key: r.public_key,
    label: r.label,
    trusted: authorTrusted(ctx, r.key_id),
    this_machine: r.key_id === ctx.signer.keyId,
    records: r.records,
    added_at: r.added_at,
  }));
}

export function trustList(ctx: EngineContext): TrustList {
  return { this_machine: { key_id: ctx.signer.keyId, public_key: ctx.signer.publicKey }, authors: authorRows(ctx) };
}

function publicKeyOf(ctx: EngineContext, key: string): string {
  if (/^ed25519:[0-9a-f]{16}$/.test(key)) {
    const known = ctx.db.get<{ public_key: string }>('SELECT public_key FROM authors WHERE key_id = ?', [key]);
    if (!known)
      throw new LoreError(
        'NOT_FOUND',
        `no author ${key} is known to this store`,
        "give the author's public key (they print it with `lore trust key`) instead of its key id",
      );
    return known.public_key;
  }
  if (isEd25519PublicKey(key)) return key;
  throw invalid(
    `${JSON.stringify(key.slice(0, 40))} is neither a key id (ed25519:…) nor an Ed25519 public key`,
    'the author prints theirs with `lore trust key`',
  );
}

/** Trusts an author's key: their future imports are recalled without a promote. A person's act. */
export function trustAuthor(ctx: EngineContext, actor: Actor, key: unknown, label?: unknown): AuthorInfo {
  if (!actor.human) {
    throw new LoreError(
      'HUMAN_ONLY',
      "trusting an author is a person's act and was not confirmed by one",
      'run `lore trust add KEY` yourself in an interactive terminal',
    );
  }
  if (typeof key !== 'string' || !key.trim()) throw invalid("give the author's key id or public key");
  const name = label === undefined || label === null ? null : requireText('label', label, 120);
  return ctx.db.transaction(() => {
    const publicKey = publicKeyOf(ctx, key.trim());
    const keyId = keyIdOf(publicKey);
    const existing = authorRow(ctx.db, keyId);
    if (existing) refuseUnsealedAuthor(ctx, existing);
    registerAuthor(ctx, { keyId, publicKey }, name, true);
    if (name) updateAuthor(ctx, keyId, { label: name });
    appendAudit(ctx.db, actor, nowIso(ctx), { event: 'author.trust', digests: { author: sha256(publicKey) } });
    return authorRows(ctx, keyId)[0];
  });
}

/** Withdraws trust: later imports by this author land quarantined. Records already here stay. */
export function distrustAuthor(ctx: EngineContext, actor: Actor, keyId: unknown): AuthorInfo {
  if (typeof keyId !== 'string') throw invalid("give the author's key id (ed25519:…)");
  if (keyId === ctx.signer.keyId)
    throw new LoreError('INVALID_STATE', `${keyId} is this machine's own key; it is always trusted here`);
  return ctx.db.transaction(() => {
    const row = ctx.db.get<{ public_key: string; trusted: number }>(
      'SELECT public_key, trusted FROM authors WHERE key_id = ?',
      [keyId],
    );
    if (!row)
      throw new LoreError(
        'NOT_FOUND',
        `no author ${keyId} is known to this store`,
        'see the authors with `lore trust list`',
      );
    if (row.trusted === 1) {
      updateAuthor(ctx, keyId, { trusted: false });
      appendAudit(ctx.db, actor, nowIso(ctx), {
        event: 'author.distrust',
        digests: { author: sha256(row.public_key) },
      });
    }
    return authorRows(ctx, keyId)[0];
  });
}
