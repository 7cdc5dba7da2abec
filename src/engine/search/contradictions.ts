// Contradictions a save may bring: live records of the same type that the new record restates
// with a different value of one exclusive kind (steward/valueConflict.ts decides), returned with
// the save like a resembling dead end is, so the saver can supersede the old one.

import type { EngineContext } from '../context';
import type { ContradictionMatch } from '../model/types';
import { rowToMemory } from '../record/rows';
import { statesValue, valueConflict } from '../model/valueConflict';
import { queryTerms } from '../text/words';
import { memorySearch } from './memorySearch';

export type { ContradictionMatch };

/** How many same-type records sharing title words are compared (FTS5 ranks them first). */
const CANDIDATES = 20;

export function findContradictions(
  ctx: Pick<EngineContext, 'db' | 'integrity' | 'memories'>,
  input: { key: string; type: string; title: string; description: string; fact_key?: string | null },
): ContradictionMatch[] {
  const words = queryTerms(input.title);
  // A record stating no value of a closed set contradicts none: the lookup (the most of a session
  // start's cost on a large store, one per listed memory) is skipped, the answer the same.
  if (!words.length || !statesValue(input)) return [];
  const rows = memorySearch(ctx).sameTypeByTitle(words, input.type, input.key, CANDIDATES);
  const out: ContradictionMatch[] = [];
  for (const row of ctx.integrity.partition(rows).accepted) {
    // One fact key between them is the supersede path, not a warning.
    if (input.fact_key && row.fact_key === input.fact_key) continue;
    const found = valueConflict(row, input);
    if (!found) continue;
    const m = rowToMemory(row);
    out.push({
      key: m.key,
      title: m.title,
      description: m.description,
      value_kind: found.kind,
      values: found.values,
      valid_from: m.valid_from,
    });
  }
  return out;
}
