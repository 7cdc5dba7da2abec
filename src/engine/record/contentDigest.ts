// What a memory version says — its content, not its lifecycle or bookkeeping — and its digest.
// Signatures cover the digest, and every read recomputes it to notice an edit. The same field list
// is what a record restated as a `remember` input carries (rememberInput.ts), so a field added to
// a record's content is signed and restated alike. valid_until is left out: supersession and
// archiving close a version's valid interval after it was signed.

import type { Memory } from '../model/types';
import { digestOf } from '../model/digest';

export const CONTENT_FIELDS = [
  'key',
  'type',
  'title',
  'description',
  'body',
  'links',
  'anchors',
  'tags',
  'scope',
  'basis',
  'confidence',
  'fact_key',
  'valid_from',
  'review_after',
] as const satisfies ReadonlyArray<keyof Memory>;

export type ContentField = (typeof CONTENT_FIELDS)[number];

export function contentDigest(m: Pick<Memory, ContentField>): string {
  return digestOf(Object.fromEntries(CONTENT_FIELDS.map((field) => [field, m[field]])));
}
