// The one line an empty recall adds when meaning-based recall could have helped: a question that
// shares no word with its answer is the vector arm's job, and that arm is off without a model.

import type { RecallResult } from './recall';

export function meaningHint(result: Pick<RecallResult, 'results' | 'vectors'>): string | null {
  if (result.results.length || result.vectors) return null;
  return (
    'No record shares a word with the question, and meaning-based recall is off (no embedding model loaded): ' +
    'enable it with the editor command "Lore: Download Embedding Model" or `lore model download`.'
  );
}
