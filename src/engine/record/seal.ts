// Sealed copies: the one rule for a row's fields that change what recall shows or what Lore trusts
// (a memory version's lifecycle, a history event, an author's trust). The fields are kept as
// canonical JSON beside the row and signed by this store's machine over the table, the row's
// identity and the store id. A read compares the row with its copy: an edit of a field is named
// with the value Lore sealed and the value found, and an edit of the copy itself breaks its
// signature. Only a person's `lore doctor --repair` writes a sealed value back (repair.ts); no
// write signs a row whose seal does not hold (docs/security.md, "Sealed fields").

import { canonicalJson } from '../model/digest';
import type { Signer } from './signatures';

/** What a seal is made over: which table, which row, in which store. */
export interface SealIdentity {
  table: string;
  store_id: string;
  [field: string]: string | number | null;
}

export interface Sealed {
  /** Canonical JSON of the sealed fields. */
  sealed: string;
  signature: string;
  signer: string;
}

/** A field whose value is not the one Lore sealed. */
export interface SealDifference {
  field: string;
  sealed: unknown;
  current: unknown;
}

export type SealVerdict =
  | { ok: true }
  | { ok: false; reason: string; authentic: true; differences: SealDifference[] }
  | { ok: false; reason: string; authentic: false };

export function sealPayload(identity: SealIdentity, sealed: string): string {
  return canonicalJson({ ...identity, sealed });
}

export function makeSeal(signer: Pick<Signer, 'keyId' | 'sign'>, identity: SealIdentity, fields: object): Sealed {
  const sealed = canonicalJson(fields);
  return { sealed, signature: signer.sign(sealPayload(identity, sealed)), signer: signer.keyId };
}

/** The fields whose values differ from the sealed copy (every field of either side is compared). */
export function sealDifferences(sealed: string, current: object): SealDifference[] {
  const kept = JSON.parse(sealed) as Record<string, unknown>;
  const now = JSON.parse(canonicalJson(current)) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(kept), ...Object.keys(now)])].sort();
  return fields
    .filter((field) => canonicalJson(kept[field] ?? null) !== canonicalJson(now[field] ?? null))
    .map((field) => ({ field, sealed: kept[field] ?? null, current: now[field] ?? null }));
}

/** `field: sealed → current`, each value as JSON (so no control character reaches a terminal), cut at 80. */
export function describeDifference(d: SealDifference): string {
  const shown = (value: unknown) => {
    const text = JSON.stringify(value) ?? 'null';
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  return `${d.field}: ${shown(d.sealed)} → ${shown(d.current)}`;
}

/**
 * Checks a row against its seal: `verify` says whether a signature holds for a payload (the
 * caller knows the signer's key). `what` names the row in the reason.
 */
export function checkSeal(
  seal: Partial<Sealed> | null,
  identity: SealIdentity,
  current: object,
  verify: (signer: string, payload: string, signature: string) => boolean,
): SealVerdict {
  if (!seal?.sealed || !seal.signature || !seal.signer)
    return { ok: false, authentic: false, reason: 'it is not sealed (written or edited outside Lore)' };
  let differences: SealDifference[];
  try {
    if (!verify(seal.signer, sealPayload(identity, seal.sealed), seal.signature))
      return {
        ok: false,
        authentic: false,
        reason: 'its seal was edited (the sealed values no longer match their signature)',
      };
    differences = sealDifferences(seal.sealed, current);
  } catch {
    return { ok: false, authentic: false, reason: 'its seal is not JSON (edited outside Lore)' };
  }
  if (!differences.length) return { ok: true };
  return {
    ok: false,
    authentic: true,
    differences,
    reason: `changed outside Lore: ${differences.map(describeDifference).join('; ')}`,
  };
}
