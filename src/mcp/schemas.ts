// Zod shapes shared by the tools' input and output schemas.

import { z } from 'zod';
import {
  BASES,
  DOC_KINDS,
  DRIFT_STATES,
  LIMITS,
  MEMORY_TYPES,
  SCOPES,
  STATUSES,
  typeGuide,
  VERIFICATION_STATES,
} from '../engine';

export const memoryType = z.enum(MEMORY_TYPES);
/** The type an agent picks for a new record, with what each holds (the engine's type table). */
export const memoryTypeChoice = memoryType.describe(`what the record is: ${typeGuide()}`);
export const status = z.enum(STATUSES);
export const basis = z.enum(BASES);
export const key = z
  .string()
  .min(3)
  .max(LIMITS.keyChars)
  .describe('a memory key, <type>/<slug>, e.g. "decision/use-postgres"');
export const isoDate = z.string().describe('ISO 8601 date or date-time, e.g. 2026-03-01 or 2026-03-01T12:00:00Z');

export const scoreParts = z.object({
  total: z.number(),
  lexical: z.number(),
  basis: z.number(),
  status: z.number(),
  freshness: z.number(),
  vector: z.number().optional(),
  kind: z.number().optional(),
  type: z.number().optional(),
  dead_end_match: z.number().optional(),
  intent: z.number().optional(),
  verification: z.number().optional(),
});

export const driftState = z.enum(DRIFT_STATES);
/** A reference of a record that moved on since it was fingerprinted. */
export const driftFlag = z.object({ state: driftState, reference: z.string(), detail: z.string() });

export const driftFinding = z.object({
  id: z.string(),
  source: z.object({
    kind: z.enum(['memory', 'doc']),
    key: z.string().optional(),
    path: z.string().optional(),
    line: z.number().optional(),
  }),
  reference: z.object({
    raw: z.string(),
    form: z.string(),
    target_path: z.string().nullable(),
    symbol: z.string().nullable().optional(),
  }),
  state: driftState,
  evidence: z.object({ old_path: z.string().optional(), new_path: z.string().optional(), detail: z.string() }),
  detected_at: z.string(),
  already_broken: z.boolean().optional(),
});

export const memorySummary = z.object({
  key: z.string(),
  type: memoryType,
  title: z.string(),
  description: z.string(),
  status,
  status_reason: z.string().nullable(),
  superseded_by: z.string().nullable(),
  basis,
  confidence: z.number().nullable(),
  source: z.string(),
  version: z.number(),
  valid_from: z.string(),
  valid_until: z.string().nullable(),
  recorded_at: z.string(),
  updated_at: z.string(),
  review_after: z.string().nullable(),
  flags: z.array(z.string()),
  drift: z.array(driftFlag).optional(),
});

export const memoryRecord = memorySummary.omit({ source: true, flags: true, drift: true }).extend({
  body: z.string(),
  links: z.array(z.string()),
  anchors: z.array(z.string()),
  tags: z.array(z.string()),
  scope: z.enum(SCOPES),
  supersedes: z.string().nullable(),
  provenance: z.object({ source: z.string() }).passthrough(),
  fact_key: z.string().nullable(),
  author: z.string().nullable(),
  content_digest: z.string(),
});

export const deadEndWarning = z.object({
  key: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.string(),
  resemblance: z.number(),
});
export const contradictionWarning = z.object({
  key: z.string(),
  title: z.string(),
  description: z.string(),
  value_kind: z.string(),
  values: z.tuple([z.array(z.string()), z.array(z.string())]),
});

const relatedRecord = z.object({ key: z.string(), title: z.string(), why: z.string() });
/** Whether a recall hit still holds (engine/search/verification.ts). */
export const verification = z
  .object({
    state: z.enum(VERIFICATION_STATES),
    anchors: z.object({
      total: z.number().nullable(),
      current: z.number().nullable(),
      drifted: z.array(z.object({ state: z.string(), reference: z.string(), detail: z.string() })),
    }),
    contradicted_by: z.array(relatedRecord).describe('newer live records that state otherwise: trust those'),
    contradicts: z.array(relatedRecord).describe('older live records this one replaces'),
    duplicates: z.array(relatedRecord),
    reason: z.string(),
  })
  .describe(
    'whether the hit still holds: holds, unanchored, drifted (an anchor moved or changed), ' +
      'anchors_gone, or contradicted (a newer record says otherwise); do not act on the last two',
  );

export const docHit = z.object({
  record: z.literal('doc'),
  key: z.string(),
  path: z.string(),
  kind: z.enum(DOC_KINDS),
  title: z.string(),
  description: z.string(),
  lines: z.tuple([z.number(), z.number()]),
  indexed_at: z.string(),
  flags: z.array(z.string()),
  drift: z.array(driftFlag).optional(),
  score: scoreParts,
  verification: verification.optional(),
});

export const refusal = z.object({ key: z.string(), version: z.number(), reason: z.string() });
