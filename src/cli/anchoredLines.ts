// The lines `lore hook pre-tool-use` shows for the records anchored to a file, one rule for both
// of its paths: read from the store (commands/hookPreToolUse.ts) and kept in the anchor snapshot
// (anchorSnapshotWrite.ts).

import { describeVerification, type MemorySummary, type Verification } from '../engine';

type Verified = MemorySummary & { verification: Verification };

function line(m: Verified): string {
  const v = m.verification;
  const holds = v.state === 'holds' || v.state === 'unanchored';
  const state = holds ? ` (${v.state})` : `\n  ${describeVerification(v)}`;
  return `- ${m.type === 'dead_end' ? 'DEAD END ' : ''}${m.key}: ${m.title} — ${m.description}${state}`;
}

/** Dead ends first, then what still holds, then what no longer does; else the store's order. */
export function anchoredLines(items: readonly Verified[]): string[] {
  const rank = (m: Verified) =>
    (m.type === 'dead_end' ? 0 : 2) +
    (m.verification.state === 'contradicted' || m.verification.state === 'anchors_gone' ? 1 : 0);
  return [...items].sort((a, b) => rank(a) - rank(b)).map(line);
}
