// Drifted anchors, as the steward sees them: the drift findings (owned by the drift module) that
// say a memory's reference changed, moved, went away or no longer resolves, grouped by memory key.
// Kept apart so the steward depends only on the finding's shape, not on how drift is computed.

/** The part of a drift finding the steward reads. */
export interface DriftFindingLike {
  id: string;
  source: { kind: string; key?: string; path?: string };
  reference: { raw: string };
  state: string;
  evidence: { detail: string };
}

/** States that make a memory's anchor worth a person's look. */
export const DRIFTED_STATES = ['changed', 'gone', 'relocated', 'broken'] as const;

export interface DriftSignal {
  finding_id: string;
  state: string;
  reference: string;
  detail: string;
}

/** Findings about memories in a drifted state, by memory key. */
export function driftByMemory(findings: readonly DriftFindingLike[]): Map<string, DriftSignal[]> {
  const byKey = new Map<string, DriftSignal[]>();
  for (const f of findings) {
    if (f.source.kind !== 'memory' || !f.source.key) continue;
    if (!(DRIFTED_STATES as readonly string[]).includes(f.state)) continue;
    const list = byKey.get(f.source.key) ?? [];
    list.push({ finding_id: f.id, state: f.state, reference: f.reference.raw, detail: f.evidence.detail });
    byKey.set(f.source.key, list);
  }
  return byKey;
}
