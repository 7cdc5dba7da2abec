// A stored record restated as a `remember` input: what drift's reverify, the steward's merge and a
// bundle's content check hand to validation and save. One rebuild over the record's content fields
// (contentDigest.ts), so a field added to a record cannot be dropped by one of them (a merge once
// lost valid_from and restarted the valid time).

import type { Memory, RememberInput } from '../model/types';
import { CONTENT_FIELDS, type ContentField } from './contentDigest';

/** The fields of a record that a `remember` input carries: its content, provenance and valid_until. */
export type RestatedFields = Pick<Memory, ContentField | 'provenance' | 'valid_until'>;

export function toRememberInput(m: RestatedFields, overrides: Partial<RememberInput> = {}): RememberInput {
  // created_at is the store's bookkeeping of when a version was written, never an input.
  const { created_at: _created, ...provenance } = m.provenance;
  // A field the record holds no value for (null) is left out, as a person leaves it out.
  const content = Object.fromEntries(
    CONTENT_FIELDS.filter((field) => m[field] !== null).map((field) => [field, m[field]]),
  ) as Pick<RememberInput, ContentField>;
  return {
    ...content,
    provenance: { ...provenance, evidence: provenance.evidence ?? [] },
    ...(m.valid_until ? { valid_until: m.valid_until } : {}),
    ...overrides,
  };
}
