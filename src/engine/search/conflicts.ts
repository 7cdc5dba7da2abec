// Records the steward found contradicting each other, while a person has not resolved the Inbox
// item: recall flags each of them `conflict` and ranks the newer above the older (an item lists
// its records oldest first), so the answer an agent reads first is the latest statement.

import type { SqlDatabase } from '../ports';

/** Open conflict items' key lists, oldest record first. */
function openConflicts(db: SqlDatabase): string[][] {
  const rows = db.all<{ keys: string }>("SELECT keys FROM inbox_items WHERE state = 'open' AND kind = 'conflict'");
  return rows.map((r) => JSON.parse(r.keys) as string[]);
}

/** Flags and reorders `ranked` (best first) in place. */
export function markConflicts<T extends { key: string; record: string; flags: string[] }>(
  db: SqlDatabase,
  ranked: T[],
): void {
  const groups = openConflicts(db);
  if (!groups.length) return;
  const position = new Map(ranked.map((hit, i) => [hit.key, i]));
  for (const keys of groups) {
    const present = keys.filter((k) => position.has(k));
    for (const key of present) {
      const hit = ranked[position.get(key)!];
      if (hit.record === 'memory' && !hit.flags.includes('conflict')) hit.flags.push('conflict');
    }
    // The slots the group holds, refilled newest first.
    const slots = present.map((k) => position.get(k)!).sort((a, b) => a - b);
    const newestFirst = [...present].reverse().map((k) => ranked[position.get(k)!]);
    slots.forEach((slot, i) => {
      ranked[slot] = newestFirst[i];
      position.set(newestFirst[i].key, slot);
    });
  }
}
