// The contextValue a tree row carries, which the manifest's menus (`when` clauses on `viewItem`)
// test. No `vscode` import, so a unit test reads the same strings the views set.

/**
 * A memory row's: `memory.<status>`, and `.anchored` when it has something to open. The lifecycle
 * menus' patterns must agree with the engine's canBecome (test/unit/vscode/lifecycleMenus.test.ts).
 */
export function memoryContextValue(status: string, anchored: boolean): string {
  return `memory.${status}${anchored ? '.anchored' : ''}`;
}
