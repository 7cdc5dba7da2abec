// Tool results: structured content plus a readable text block; errors as isError results that
// say what was wrong and what to do, built from the engine's error codes.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isLoreError } from '../../engine';

export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

export function toolError(error: unknown): CallToolResult {
  if (isLoreError(error)) {
    const text = `${error.code}: ${error.message}${error.hint ? `\nWhat to do: ${error.hint}` : ''}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `INTERNAL: ${(error as Error)?.message ?? String(error)}\nWhat to ` +
          `do: this is a bug in Lore; the store was not changed by this ` +
          `call.`,
      },
    ],
  };
}

/** Runs a tool body, turning any thrown error into an isError result. */
export async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolError(error);
  }
}
