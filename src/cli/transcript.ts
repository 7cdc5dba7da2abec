// What a capture hook takes from a Claude Code transcript (JSONL, one event a line), without an
// LLM and conservatively: the session's own summary lines, and candidate memories the agent wrote
// out explicitly as fenced ```lore-candidate blocks of JSON in its replies. Nothing is inferred from
// prose, tool output or the user's messages.

import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** The fence an agent writes a candidate memory in (the skill tells it how). */
export const CANDIDATE_FENCE = 'lore-candidate';
/** At most this many candidates are handed in (the latest win), as many as session_close takes. */
export const MAX_TRANSCRIPT_CANDIDATES = 50;

export interface TranscriptCapture {
  summary?: string;
  candidates: Array<Record<string, unknown>>;
}

const BLOCK = new RegExp('```' + CANDIDATE_FENCE + '[^\\n]*\\n([\\s\\S]*?)```', 'g');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text an assistant event carries: its text content blocks (never tool calls or results). */
function assistantText(event: Record<string, unknown>): string[] {
  const message = event.message;
  if (!isObject(message) || message.role !== 'assistant') return [];
  const content = message.content;
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter((c) => isObject(c) && c.type === 'text' && typeof c.text === 'string')
    .map((c) => (c as { text: string }).text);
}

/** The candidates fenced in one piece of text; a block that is not JSON objects is skipped. */
export function candidatesIn(text: string): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  for (const match of text.matchAll(BLOCK)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(match[1]);
    } catch {
      continue;
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(item)) found.push(item);
  }
  return found;
}

/** Reads the transcript once, line by line; a missing or unreadable file yields nothing. */
export async function readTranscript(path: string): Promise<TranscriptCapture> {
  try {
    if (!statSync(path).isFile()) return { candidates: [] };
  } catch {
    return { candidates: [] };
  }
  let summary: string | undefined;
  const byText = new Map<string, Record<string, unknown>>();
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    // Most lines are neither; skipping them unparsed keeps a long session's hook fast.
    const mayHold = line.includes(CANDIDATE_FENCE) || line.includes('"summary"');
    if (!mayHold) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(event)) continue;
    if (event.type === 'summary' && typeof event.summary === 'string' && event.summary.trim()) {
      summary = event.summary.trim();
      continue;
    }
    if (event.type !== 'assistant') continue;
    for (const text of assistantText(event)) {
      for (const candidate of candidatesIn(text)) {
        const id = JSON.stringify(candidate);
        // A candidate restated later moves to the end, so the cap keeps the latest.
        byText.delete(id);
        byText.set(id, candidate);
      }
    }
  }
  return { summary, candidates: [...byText.values()].slice(-MAX_TRANSCRIPT_CANDIDATES) };
}
