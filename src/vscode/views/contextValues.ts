// The contextValue a tree row carries, which the manifest's menus (`when` clauses on `viewItem`)
// test. No `vscode` import, so a unit test reads the same strings the views set.

import { canBecome, type Status, type Transition } from '../../engine';

/** The capability token each lifecycle act puts on a memory row the engine lets make that change. */
export const LIFECYCLE_TOKENS: Readonly<Record<Transition, string>> = {
  deprecated: 'canDeprecate',
  disputed: 'canDispute',
  retracted: 'canRetract',
  superseded: 'canSupersede',
  active: 'canPromote',
};

/**
 * A memory row's: `memory.<status>`, `.anchored` when it has something to open, then one
 * space-separated capability token per lifecycle act the engine allows from that status
 * (canBecome), e.g. `memory.active canDeprecate canDispute canRetract canSupersede`. The lifecycle
 * menus test the tokens (`viewItem =~ /\bcanDispute\b/`), never a list of statuses, so they cannot
 * offer a change the engine refuses (test/unit/vscode/lifecycleMenus.test.ts).
 */
export function memoryContextValue(status: string, anchored: boolean): string {
  const acts = (Object.keys(LIFECYCLE_TOKENS) as Transition[]).filter((to) => canBecome(status as Status, to));
  return [`memory.${status}${anchored ? '.anchored' : ''}`, ...acts.map((to) => LIFECYCLE_TOKENS[to])].join(' ');
}

/** The lifecycle acts a memory's drift finding offers (the others are on the memory's own row). */
const FINDING_ACTS: readonly Transition[] = ['disputed', 'superseded'];

/**
 * A drift finding row's: `finding.doc.<state>` (`.unlinked` when its text cannot be updated) for a
 * document's reference; `finding.memory` for a memory's, then the tokens of the acts the row offers
 * (Dispute, Supersede) that the engine allows from the memory's `status`. No status known (it could
 * not be read): no token, so no act the engine might refuse is offered.
 */
export function findingContextValue(
  finding: { source: { kind: 'memory' | 'doc' }; state: string },
  options: { unlinked?: boolean; status?: string } = {},
): string {
  if (finding.source.kind === 'doc') return `finding.doc.${finding.state}${options.unlinked ? '.unlinked' : ''}`;
  const status = options.status as Status | undefined;
  const acts = status ? FINDING_ACTS.filter((to) => canBecome(status, to)) : [];
  return ['finding.memory', ...acts.map((to) => LIFECYCLE_TOKENS[to])].join(' ');
}
