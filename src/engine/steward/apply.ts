// The writes the steward and the Inbox make, built from the ordinary lifecycle and save paths so
// each is validated, evented and audited like any other write: merging duplicates (the copies are
// superseded by the survivor, their history kept) and applying a session proposal.

import { LoreError } from '../errors';
import { LIMITS } from '../model/limits';
import type { RememberInput } from '../model/types';
import type { Actor } from '../ports';
import { nowIso, type EngineContext } from '../context';
import { recordEvent } from '../record/events';
import { requireCurrent } from '../record/current';
import { toRememberInput } from '../record/rememberInput';
import { rowToMemory } from '../record/rows';
import type { MemoryWrites, StewardSaveResult } from './memoryWrites';
import type { SessionProposal } from './types';

/** `duplicate` stops being a record of its own: superseded by `survivor`, with a merged event saying why. */
export function mergeRecords(
  ctx: EngineContext,
  memory: MemoryWrites,
  actor: Actor,
  survivor: string,
  duplicate: string,
  reason: string,
): void {
  const result = memory.supersede(ctx, actor, duplicate, survivor);
  const row = requireCurrent(ctx, duplicate);
  recordEvent(ctx, actor, {
    key: duplicate,
    version: row.version,
    event: 'merged',
    reason,
    related_key: survivor,
    valid_at: result.valid_from,
    at: nowIso(ctx),
  });
}

const union = (a: string[], b: string[] | undefined, max: number) => [...new Set([...a, ...(b ?? [])])].slice(0, max);

export interface ProposalOutcome {
  key: string;
  version: number | null;
  unchanged: boolean;
}

/** Applies a session proposal as planned. Promote checks that a person confirmed it. */
export function applyProposal(
  ctx: EngineContext,
  memory: MemoryWrites,
  actor: Actor,
  proposal: SessionProposal,
): ProposalOutcome {
  switch (proposal.action) {
    case 'add':
      return saved(memory.save(ctx, actor, proposal.candidate));
    case 'merge':
      return saved(memory.save(ctx, actor, mergedInput(ctx, proposal)));
    case 'supersede': {
      const result = saved(memory.save(ctx, actor, proposal.candidate));
      const target = proposal.target ? rowToMemory(requireCurrent(ctx, proposal.target)) : null;
      // A shared fact_key already superseded the target during the save; otherwise do it here.
      if (target && target.superseded_by !== proposal.key) memory.supersede(ctx, actor, target.key, proposal.key);
      return result;
    }
    case 'promote': {
      const r = memory.promote(ctx, actor, proposal.key);
      return { key: r.key, version: r.version, unchanged: false };
    }
  }
}

/**
 * The new version a merge writes. Into its own key, the candidate is the new content. Into another
 * record (a near duplicate), that record keeps what it says and gains the candidate's anchors,
 * links, tags and evidence: the candidate never was in the store, so nothing of the store is lost.
 */
function mergedInput(ctx: EngineContext, proposal: SessionProposal): RememberInput {
  const target = rowToMemory(requireCurrent(ctx, proposal.target ?? proposal.key));
  const c = proposal.candidate;
  if (target.key === proposal.key) {
    return {
      ...c,
      anchors: union(target.anchors, c.anchors, LIMITS.anchors),
      links: union(target.links, c.links, LIMITS.links),
      tags: union(target.tags, c.tags, LIMITS.tags),
    };
  }
  const restated = toRememberInput(target, {
    anchors: union(target.anchors, c.anchors, LIMITS.anchors),
    links: union(target.links, c.links, LIMITS.links),
    tags: union(target.tags, c.tags, LIMITS.tags),
    expected_version: target.version,
  });
  const evidence = union(restated.provenance.evidence ?? [], c.provenance.evidence, LIMITS.evidence);
  return { ...restated, provenance: { ...restated.provenance, evidence } };
}

function saved(result: StewardSaveResult): ProposalOutcome {
  if (!result.saved)
    throw new LoreError(
      'INVALID_STATE',
      `not saved: ${result.conflict.reason}`,
      'the record changed since the plan was made; close the session again for a fresh plan',
    );
  return { key: result.key, version: result.version, unchanged: result.unchanged };
}
