// `remember`: validated, secret-free, versioned, conditional saves. A save of an existing key
// archives the previous version (the newest five are kept); a caller's expected_version that
// lost a race gets the winner back instead of overwriting it; a fact_key takes over from the
// active record that held it; untrusted sources land quarantined; resembling dead ends come back
// as warnings.

import { LIMITS } from '../model/limits';
import { UNTRUSTED_SOURCES, type Memory, type RememberInput, type SaveWarnings, type Status } from '../model/types';
import { validateRemember, type ValidRemember } from '../model/validate';
import type { Actor } from '../ports';
import { rowToMemory } from '../record/rows';
import { digestOf } from '../model/digest';
import { registerAuthor } from '../record/integrity';
import { signingPayload } from '../record/signatures';
import { contentDigest } from '../record/contentDigest';
import { nowIso, type EngineContext } from '../context';
import { recordEvent } from '../record/events';
import { sealState, stateDigest } from '../record/state';

export type SaveResult =
  | {
      saved: true;
      key: string;
      version: number;
      status: Status;
      created: boolean;
      unchanged: boolean;
      superseded: string[];
      warnings: SaveWarnings;
    }
  | {
      saved: false;
      key: string;
      conflict: { reason: string; expected_version: number; current_version: number | null; current: Memory | null };
    };

function nextStatus(input: ValidRemember, previous: Memory | undefined): Status {
  if (UNTRUSTED_SOURCES.includes(input.provenance.source)) return 'quarantined';
  if (!previous || previous.status === 'retracted') return 'active';
  // An update never launders a quarantined record: only promote (a person's act) does that.
  return previous.status;
}

/**
 * An update of a live record keeps what the caller left out (body, links, anchors, tags, basis…):
 * leaving a field out never clears it; null, "" or [] does. A valid_until that the new version's
 * start would pass is not kept: the update starts a new valid interval.
 */
function withKeptFields(input: ValidRemember, previous: Memory | undefined, validFrom: string): ValidRemember {
  if (!previous || previous.status === 'retracted' || input.omitted.length === 0) return input;
  const kept: ValidRemember = { ...input };
  for (const field of input.omitted) {
    if (field === 'valid_until') {
      if (previous.valid_until && previous.valid_until > validFrom) kept.valid_until = previous.valid_until;
    } else (kept as unknown as Record<string, unknown>)[field] = previous[field];
  }
  return kept;
}

export function save(ctx: EngineContext, actor: Actor, raw: RememberInput | Record<string, unknown>): SaveResult {
  const given = validateRemember(raw);
  return ctx.memories.transaction(() => {
    const now = nowIso(ctx);
    const previousRow = ctx.memories.current(given.key);
    const previous = previousRow ? rowToMemory(previousRow) : undefined;
    const input = withKeptFields(given, previous, given.valid_from ?? now);

    if (input.expected_version !== null && input.expected_version !== (previous?.version ?? 0)) {
      return {
        saved: false as const,
        key: input.key,
        conflict: {
          reason: previous
            ? `${input.key} is at version ${previous.version}, not ${input.expected_version}: someone saved it first`
            : `${input.key} does not exist, so it is not at version ${input.expected_version}`,
          expected_version: input.expected_version,
          current_version: previous?.version ?? null,
          current: previous ?? null,
        },
      };
    }

    const draft: Memory = {
      key: input.key,
      type: input.type,
      title: input.title,
      description: input.description,
      body: input.body,
      links: input.links,
      anchors: input.anchors,
      tags: input.tags,
      scope: input.scope,
      status: nextStatus(input, previous),
      status_reason: previous && previous.status !== 'retracted' ? previous.status_reason : null,
      superseded_by: previous?.superseded_by ?? null,
      supersedes: previous?.supersedes ?? null,
      basis: input.basis,
      confidence: input.confidence,
      provenance: { ...input.provenance, created_at: now },
      valid_from: input.valid_from ?? previous?.valid_from ?? now,
      valid_until: input.valid_until,
      recorded_at: now,
      updated_at: now,
      review_after: input.review_after,
      fact_key: input.fact_key,
      version: (previous?.version ?? 0) + 1,
      author: null,
      signature: null,
      content_digest: '',
    };
    draft.content_digest = contentDigest(draft);

    const { dead_ends: deadEndProbe, contradictions } = ctx.hooks.saving(ctx, input);

    if (previous && previous.content_digest === draft.content_digest && previous.status === draft.status) {
      return {
        saved: true as const,
        key: previous.key,
        version: previous.version,
        status: previous.status,
        created: false,
        unchanged: true,
        superseded: [],
        warnings: { dead_ends: deadEndProbe, contradictions },
      };
    }

    if (previous) {
      // A change of content starts a new valid interval now unless the caller said when it began;
      // the archived version's interval ends where the new one starts.
      if (input.valid_from === null && previous.valid_from < now) draft.valid_from = now;
      draft.content_digest = contentDigest(draft);
      archiveCurrent(ctx, previousRow!, draft.valid_from);
    }
    // The author's public key is stored on its first write, so reading never changes the file.
    registerAuthor(ctx, ctx.signer, 'this machine');
    draft.author = ctx.signer.keyId;
    draft.signature = ctx.signer.sign(signingPayload(ctx.storeId, draft));
    const id = ctx.memories.insertVersion(draft, sealState(ctx.signer, ctx.storeId, draft));
    recordEvent(ctx, actor, {
      key: draft.key,
      version: draft.version,
      event:
        previous && previous.status !== 'retracted'
          ? 'updated'
          : draft.status === 'quarantined'
            ? 'quarantined'
            : 'created',
      at: now,
      valid_at: draft.valid_from,
    });
    ctx.memories.appendAudit(actor, now, {
      event: previous ? 'memory.update' : 'memory.create',
      key: draft.key,
      version: draft.version,
      digests: {
        content: draft.content_digest,
        state: stateDigest(draft),
        ...(previous ? { previous: previous.content_digest } : {}),
      },
    });

    const superseded = input.fact_key ? supersedeFactHolders(ctx, actor, draft, id, now) : [];

    return {
      saved: true as const,
      key: draft.key,
      version: draft.version,
      status: draft.status,
      created: !previous,
      unchanged: false,
      superseded,
      warnings: { dead_ends: deadEndProbe, contradictions },
    };
  });
}

/** Archives a key's current version, its valid interval ending at `until` (if not already), and prunes the archive. */
export function archiveCurrent(ctx: EngineContext, current: { id: number; key: string }, until: string): void {
  ctx.memories.archive(current, until, LIMITS.archivedVersions);
}

/** A save carrying the fact_key of other live records supersedes them, effective at the new record's valid_from. */
function supersedeFactHolders(ctx: EngineContext, actor: Actor, record: Memory, id: number, now: string): string[] {
  if (record.status === 'quarantined') return [];
  const holders = ctx.memories.liveByFactKey(record.fact_key!, record.key);
  for (const holder of holders) {
    markSuperseded(ctx, actor, holder, record.key, record.valid_from, now);
  }
  if (holders.length) {
    ctx.memories.setPredecessor(id, holders[0].key);
  }
  return holders.map((h) => h.key);
}

/** Marks `old` superseded by `successor` from `validAt`, with its event and audit entry. */
export function markSuperseded(
  ctx: EngineContext,
  actor: Actor,
  old: { id: number; key: string; version: number; content_digest: string },
  successor: string,
  validAt: string,
  now: string,
): void {
  // A change that takes effect later leaves the record live until then: its valid interval ends
  // at the change, and recall stops returning it from that instant on.
  const superseded = validAt <= now;
  ctx.memories.setSuccessor(old.id, successor, validAt);
  const state = ctx.memories.writeState(old.id, superseded ? { status: 'superseded', reason: null, now } : { now });
  recordEvent(ctx, actor, {
    key: old.key,
    version: old.version,
    event: 'superseded',
    related_key: successor,
    valid_at: validAt,
    at: now,
  });
  recordEvent(ctx, actor, {
    key: successor,
    version: 0,
    event: 'supersedes',
    related_key: old.key,
    valid_at: validAt,
    at: now,
  });
  const digests = { content: old.content_digest, state, successor: digestOf(successor) };
  ctx.memories.appendAudit(actor, now, { event: 'memory.supersede', key: old.key, version: old.version, digests });
}
