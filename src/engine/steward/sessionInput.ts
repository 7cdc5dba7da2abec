// Session close, step 1: the session an agent hands in, checked field by field in the agent's
// terms (`memories[2].provenance must be an object`), each candidate validated as a remember.

import { LoreError, invalid } from '../errors';
import { LIMITS } from '../model/limits';
import type { RememberInput, SourceKind } from '../model/types';
import { requireEnum, requireText, validateRemember, type ValidRemember } from '../model/validate';
import { parseKey } from '../model/keys';
import type { Actor } from '../ports';
import { requireClaimableSource } from '../record/sourcePolicy';
import type { Candidate, ValidSession } from './sessionTypes';
import { SESSION_KINDS } from './types';

/** At most this many candidate memories per session: a session settles a handful of things. */
export const MAX_CANDIDATES = 50;
const KNOWN_FIELDS = new Set(['kind', 'summary', 'session_id', 'agent', 'client', 'source', 'memories']);

/** What the session fills in for a candidate's provenance when the candidate leaves it out. */
interface SessionProvenance {
  source: SourceKind;
  session_id: string | null;
  agent?: string;
  client?: string;
}

function optionalText(field: string, value: unknown, max: number): string | undefined {
  return value === undefined || value === null ? undefined : requireText(field, value, max);
}

export function validateSession(actor: Actor, raw: unknown): ValidSession {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw invalid('a session close is an object: { kind, summary?, memories? }');
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length)
    throw invalid(
      `the session has unknown field(s): ${unknown.join(', ')}`,
      `allowed: ${[...KNOWN_FIELDS].join(', ')}`,
    );
  const kind = input.kind === undefined ? 'routine' : requireEnum('kind', input.kind, SESSION_KINDS);
  const summary =
    input.summary === undefined || input.summary === null
      ? null
      : requireText('summary', input.summary, Number.MAX_SAFE_INTEGER, {
          maxBytes: LIMITS.bodyBytes,
          limitHint: 'summarise it; put what should be remembered in memories',
        });
  const session: SessionProvenance = {
    source: input.source === undefined ? 'agent' : requireClaimableSource(actor, 'source', input.source),
    session_id: optionalText('session_id', input.session_id, LIMITS.provenanceFieldChars) ?? null,
    agent: optionalText('agent', input.agent, LIMITS.provenanceFieldChars),
    client: optionalText('client', input.client, LIMITS.provenanceFieldChars),
  };
  if (input.memories !== undefined && !Array.isArray(input.memories))
    throw invalid('memories must be a list of candidate memories (the remember fields)');
  const memories = (input.memories ?? []) as unknown[];
  if (memories.length > MAX_CANDIDATES)
    throw new LoreError(
      'LIMIT_EXCEEDED',
      `the session has ${memories.length} candidate memories; the limit is ${MAX_CANDIDATES}`,
      'send the ones that matter, or close the session in parts',
    );
  if (!memories.length && summary === null)
    throw invalid(
      'the session has neither a summary nor memories',
      'send memories (candidate records with the remember fields) and/or a summary',
    );

  const seen = new Map<string, number>();
  const candidates = memories.map((m, index) => validateCandidate(actor, m, index, session, seen));
  return { kind, summary, session_id: session.session_id, candidates };
}

/** One candidate memory; `seen` (key → index) refuses two candidates saving the same record. */
function validateCandidate(
  actor: Actor,
  m: unknown,
  index: number,
  session: SessionProvenance,
  seen: Map<string, number>,
): Candidate {
  const at = `memories[${index}]`;
  if (m === null || typeof m !== 'object' || Array.isArray(m))
    throw invalid(`${at} must be an object with the remember fields`);
  const { supersedes: rawSupersedes, provenance: rawProvenance, ...fields } = m as Record<string, unknown>;
  if (
    rawProvenance !== undefined &&
    (rawProvenance === null || typeof rawProvenance !== 'object' || Array.isArray(rawProvenance))
  )
    throw invalid(`${at}.provenance must be an object`);
  // The candidate's own provenance wins; the session fills in what it leaves out.
  const { source, client, agent, session_id } = session;
  const provenance = {
    source,
    ...(client ? { client } : {}),
    ...(agent ? { agent } : {}),
    ...(session_id ? { session_id } : {}),
    ...(rawProvenance as Record<string, unknown> | undefined),
  };
  requireClaimableSource(actor, `${at}.provenance.source`, provenance.source);
  const candidate = { ...fields, provenance } as unknown as RememberInput;
  let valid: ValidRemember;
  try {
    valid = validateRemember(candidate);
  } catch (error) {
    if (error instanceof LoreError)
      throw new LoreError(error.code, `${at}: ${error.message}`, error.hint, error.details);
    throw error;
  }
  if (seen.has(valid.key))
    throw invalid(`memories[${seen.get(valid.key)}] and ${at} both save ${valid.key}`, 'send one candidate per record');
  seen.set(valid.key, index);
  let supersedes: string | null = null;
  if (rawSupersedes !== undefined && rawSupersedes !== null) {
    if (typeof rawSupersedes !== 'string') throw invalid(`${at}.supersedes must be a memory key`);
    parseKey(rawSupersedes);
    if (rawSupersedes === valid.key) throw invalid(`${at} cannot supersede itself`);
    supersedes = rawSupersedes;
  }
  return { index, input: { ...candidate, key: valid.key }, valid, supersedes };
}
