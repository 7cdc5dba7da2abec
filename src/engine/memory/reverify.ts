// Re-verifying a memory: a person accepts its anchors' targets as they are now. Drift takes the
// targets' fingerprints afresh (DriftService.acceptTargets); the record becomes `verified` (a new
// version only when its basis changes) and keeps its status; one audit event says what was accepted.

import { nowIso, type EngineContext } from '../context';
import type { Memory } from '../model/types';
import type { Actor } from '../ports';
import { rowToMemory } from '../record/rows';
import { appendAudit } from '../record/audit';
import { requireCurrent } from './lifecycle';
import { toRememberInput } from '../record/rememberInput';
import { save } from './save';
import { rowState, stateDigest, writeStatus } from '../record/state';

export interface ReverifyResult {
  key: string;
  version: number;
  basis: 'verified';
  references: number;
  verified_at: string;
  /** Anchors and links whose target had moved, moved with it (the record's new version says so). */
  moved: Array<{ from: string; to: string }>;
}

type Anchored = Pick<Memory, 'key' | 'anchors' | 'links'>;

/** What re-verifying asks of drift (the engine hands it its DriftService). */
export interface AnchorTargets {
  /** Anchors whose target moved: old anchor → new one. */
  relocatedAnchors(memory: Anchored): Map<string, string>;
  /** Takes the targets' fingerprints as they are now. */
  acceptTargets(actor: Actor, memory: Anchored, now: string): { references: number; fingerprints: string[] };
}

export function reverifyMemory(ctx: EngineContext, drift: AnchorTargets, actor: Actor, key: string): ReverifyResult {
  return ctx.db.transaction(() => {
    const current = rowToMemory(requireCurrent(ctx, key));
    const now = nowIso(ctx);
    // An anchor whose target moved follows it: the record is saved with the new place, then accepted there.
    const moves = drift.relocatedAnchors(current);
    const follow = (list: readonly string[]) => list.map((a) => moves.get(a.trim()) ?? a);
    const anchors = follow(current.anchors);
    const links = follow(current.links);
    const moved = [...moves].map(([from, to]) => ({ from, to }));
    const restated = toRememberInput(current, {
      basis: 'verified',
      expected_version: current.version,
      ...(moved.length ? { anchors, links } : {}),
    });
    const saved = current.basis === 'verified' && !moved.length ? null : save(ctx, actor, restated);
    const { references, fingerprints } = drift.acceptTargets(actor, { key, anchors, links }, now);
    const version = saved && saved.saved ? saved.version : current.version;
    // Only the basis changed: the record keeps its status (a web page's record a person promoted
    // is not quarantined again because its source is untrusted), signed again as it is restored.
    const row = requireCurrent(ctx, key);
    const state =
      saved && saved.saved && saved.status !== current.status
        ? writeStatus(ctx, row.id, { status: current.status })
        : stateDigest(rowState(row));
    const content = saved && saved.saved ? '' : current.content_digest;
    appendAudit(ctx.db, actor, now, {
      event: 'memory.reverify',
      key,
      version,
      digests: { content, state, references: fingerprints.length, fingerprints },
    });
    return { key, version, basis: 'verified' as const, references, verified_at: now, moved };
  });
}
