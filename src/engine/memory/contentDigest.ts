// The content digest of a memory version: what the record says, not its lifecycle or bookkeeping.
// Signatures cover it, and every read recomputes it to notice an edit. valid_until is left out:
// supersession and archiving close a version's valid interval after it was signed.

import type { Memory } from '../model/types';
import { digestOf } from '../trust/digest';

export function contentDigest(
  m: Pick<
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
    | 'fact_key'
    | 'valid_from'
    | 'review_after'
  >,
): string {
  return digestOf({
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
    confidence: m.confidence,
    fact_key: m.fact_key,
    valid_from: m.valid_from,
    review_after: m.review_after,
  });
}
