// Record signatures: each memory version is signed (Ed25519) by the key of the machine that wrote
// it, over a canonical payload binding the store id, key, version, content digest and author. A
// read verifies both the content (its digest) and the signature; a record that fails is refused,
// never returned as memory.

import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../model/digest';

// The machine's signing key is a port the host provides (the private key never enters the store).
export type { Signer } from '../ports';

export interface SignedFields {
  key: string;
  version: number;
  content_digest: string;
  author: string | null;
}

export function signingPayload(storeId: string, record: SignedFields): string {
  return canonicalJson({
    store_id: storeId,
    key: record.key,
    version: record.version,
    content_digest: record.content_digest,
    author: record.author,
  });
}

/** Whether `publicKey` (base64 SPKI DER) is an Ed25519 public key, the only kind Lore signs with. */
export function isEd25519PublicKey(publicKey: string): boolean {
  try {
    return (
      createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyType ===
      'ed25519'
    );
  } catch {
    return false;
  }
}

const publicKeys = new Map<string, KeyObject>();

export function verifyPayload(publicKey: string, payload: string, signature: string): boolean {
  let key = publicKeys.get(publicKey);
  if (!key) {
    key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    publicKeys.set(publicKey, key);
  }
  try {
    return verifySignature(null, Buffer.from(payload, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
