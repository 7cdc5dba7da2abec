// What a recall hit's verification says (the wire shape every door shows): its state, its anchors'
// drift, and the records that contradict, are contradicted by or duplicate it. Types only, so
// recall's hits can carry one without importing how it is worked out (verification.ts).

export const VERIFICATION_STATES = ['holds', 'unanchored', 'drifted', 'anchors_gone', 'contradicted'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** Another record this hit stands in a relation to, and why. */
export interface RelatedRecord {
  key: string;
  title: string;
  why: string;
}

/** The drift of one anchor (a memory) or reference (a document's lines) that no longer holds as written. */
export interface AnchorDrift {
  state: string;
  reference: string;
  detail: string;
}

export interface Verification {
  state: VerificationState;
  /** Memories: how many anchors, how many still current (null for documents: only drift is known). */
  anchors: { total: number | null; current: number | null; drifted: AnchorDrift[] };
  /** Newer live records that state something else: read them instead. */
  contradicted_by: RelatedRecord[];
  /** Older live records this one contradicts (this one is the newer statement). */
  contradicts: RelatedRecord[];
  /** Live records that say the same thing. */
  duplicates: RelatedRecord[];
  /** One line for a person or an agent. */
  reason: string;
}
