// A stored record restated as a `remember` input: what drift's reverify, the steward's merge and a
// bundle's content check hand to validation and save. One rebuild, so a field added to a record
// cannot be dropped by one of them (a merge once lost valid_from and restarted the valid time).

import type { Memory, RememberInput } from '../model/types';

/** The fields of a record that a `remember` input carries. */
export type RestatedFields = Pick<
  Memory,
  | 'key'
  | 'type'
  | 'title'
  | 'description'
  | 'body'
  | 'links'
  | 'anchors'
  | 'tags'
  | 'scope'
  | 'basis'
  | 'confidence'
  | 'provenance'
  | 'valid_from'
  | 'valid_until'
  | 'review_after'
  | 'fact_key'
>;

export function toRememberInput(m: RestatedFields, overrides: Partial<RememberInput> = {}): RememberInput {
  // created_at is the store's bookkeeping of when a version was written, never an input.
  const { created_at: _created, ...provenance } = m.provenance;
  return {
    key: m.key,
    type: m.type,
    title: m.title,
    description: m.description,
    body: m.body,
    links: m.links,
    anchors: m.anchors,
    tags: m.tags,
    scope: m.scope,
    basis: m.basis,
    ...(m.confidence !== null ? { confidence: m.confidence } : {}),
    provenance: { ...provenance, evidence: provenance.evidence ?? [] },
    valid_from: m.valid_from,
    ...(m.valid_until ? { valid_until: m.valid_until } : {}),
    ...(m.review_after ? { review_after: m.review_after } : {}),
    ...(m.fact_key ? { fact_key: m.fact_key } : {}),
    ...overrides,
  };
}
