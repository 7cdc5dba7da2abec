// The one place the editor rewords what the engine and host say for the CLI: a hint naming a
// `lore …` command or a LORE_* variable reaches a person at the editor as the command, view or
// `lore.*` setting that does the same here. Hints with no editor counterpart (lore history, lore
// promote in a terminal, lore doctor, lore trust) pass unchanged.

import { isLoreError } from '../engine';

/** CLI fragment (backticks or quotes around it optional) → what to use in the editor. */
const REWORDINGS: [RegExp, string][] = [
  [/lore model download/, 'Lore: Download Embedding Model'],
  [/lore reverify( [^\s`"',;)]+)?/, 'Lore: Re-verify… (or the Drift view)'],
  [/lore drift list( --json)?/, 'the Drift view'],
  [/lore inbox resolve [^\s`"',;)]+ --action [a-z_]+/, 'Resolve… on the item in the Inbox view'],
  [/lore inbox/, 'the Inbox view'],
  [/lore list/, 'the Lore views'],
  [/lore recall/, 'Lore: Recall…'],
  [/lore export/, 'Lore: Export Memories…'],
  [/lore index( --full)?/, 'Lore: Reindex Workspace'],
  [/LORE_MODEL_DIR/, 'the lore.embedding.modelDir setting'],
  [/LORE_HOME/, 'the lore.dataDir setting'],
];

export function editorWording(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REWORDINGS) {
    const quoted = new RegExp(`[\`"]?${pattern.source}[\`"]?`, 'g');
    out = out.replace(quoted, replacement);
  }
  return out;
}

/** An error as one line for a notification: its message, then its hint in the editor's words. */
export function errorText(error: unknown): string {
  if (!isLoreError(error)) return (error as Error).message;
  return error.hint ? `${error.message} — ${editorWording(error.hint)}` : error.message;
}
