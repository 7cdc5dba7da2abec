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
