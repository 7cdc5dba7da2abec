// What `lore hook session-start` prints, shared by its two paths (commands/hook.ts, which reads the
// store, and hookFast.ts, which reads the session snapshot): the preamble and the fenced, bounded
// block around the listed records' lines, as the SessionStart JSON. Light on purpose: the fast
// path loads this and little else. The fence's nonce is fresh on every answer, on either path.

import { fence, SESSION_START_CHARS } from '../mcp/fence';

const PREAMBLE =
  `Lore holds this repository's engineering memory. Call its recall ` +
  `tool before changing code and remember after deciding.\n`;

/** The hook's JSON line for `total` memories and the rendered `items`; null when there is nothing to say. */
export function sessionStartOutput(total: number, items: readonly string[]): string | null {
  if (!items.length) return null;
  // Bytes bound characters from above, so the whole context stays within SESSION_START_CHARS.
  const block = fence(`session start: ${total} memories of this repository`, [...items], {
    maxBytes: SESSION_START_CHARS - Buffer.byteLength(PREAMBLE),
    more: 'use the recall tool for the rest',
    bound: `${SESSION_START_CHARS} characters`,
  });
  const additionalContext = PREAMBLE + block.text;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } });
}
