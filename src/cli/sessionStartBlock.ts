// The lines `lore hook session-start` lists, read from the store: each section's live records
// (dead ends first), those that still hold before those that do not, each saying its verification,
// and the records refused for failing verification. Bounded by what the block can show.

import {
  LIVE_STATUSES,
  TYPE_INFO,
  briefVerification,
  describeVerification,
  stillHolds,
  typeHeading,
  type MemorySummary,
  type Refusal,
  type Verification,
} from '../engine';
import type { EngineApi } from '../host/engineApi';
import { SESSION_START_CHARS } from '../mcp/fence';

/** A listed record's line is rarely shorter (key, title, description): the bound on what is read. */
const MIN_LINE_BYTES = 80;

const SECTIONS: Array<{ heading: string; types: string[] }> = [
  {
    heading: `${typeHeading('dead_end')} (approaches that failed — do not repeat without reading them)`,
    types: ['dead_end'],
  },
  { heading: typeHeading('decision'), types: ['decision'] },
  { heading: typeHeading('convention'), types: ['convention', 'preference'] },
  { heading: typeHeading('runbook'), types: ['runbook'] },
  { heading: `${typeHeading('incident')} and ${TYPE_INFO.postmortem.plural}`, types: ['incident', 'postmortem'] },
  { heading: `${typeHeading('fact')} and ${TYPE_INFO.reference.plural}`, types: ['fact', 'reference'] },
];

function line(m: MemorySummary, v: Verification | undefined): string {
  const flags = m.flags.length ? ` [${m.flags.join(', ')}]` : '';
  const verified = !v ? '' : stillHolds(v) ? ` (${briefVerification(v)})` : `\n  ${describeVerification(v)}`;
  return `- ${m.key}${flags}: ${m.title} — ${m.description}${verified}`;
}

/** Records that still hold first; a contradicted one or one whose anchors are gone last, saying why. */
const unreliable = (v: Verification | undefined) => v?.state === 'contradicted' || v?.state === 'anchors_gone';

export interface SessionStartBlock {
  /** How many memories the store holds (the block's label). */
  total: number;
  /** The rendered lines, refused records first. */
  items: string[];
  /** Every record listed, with when a date-driven flag of its (stale, expired) may change. */
  listed: Array<Pick<MemorySummary, 'key' | 'review_after' | 'valid_until'>>;
}

export async function sessionStartBlock(engine: EngineApi): Promise<SessionStartBlock> {
  const stats = await engine.stats();
  const items: string[] = [];
  const refused: Refusal[] = [];
  const listed: SessionStartBlock['listed'] = [];
  // Every record read is verified (a signature check each): read no more than the block can show.
  let room = SESSION_START_CHARS;
  for (const section of SECTIONS) {
    if (room <= 0) break;
    const limit = Math.min(200, Math.ceil(room / MIN_LINE_BYTES));
    const page = await engine.list({ types: section.types, statuses: [...LIVE_STATUSES], limit });
    refused.push(...page.refused);
    if (!page.items.length) continue;
    const verified = await engine.verifyMemories(page.items.map((m) => m.key));
    const ordered = [...page.items].sort(
      (a, b) => Number(unreliable(verified[a.key])) - Number(unreliable(verified[b.key])),
    );
    const lines = ordered.map((m) => line(m, verified[m.key]));
    items.push(`${section.heading}:`, ...lines);
    listed.push(...page.items.map(({ key, review_after, valid_until }) => ({ key, review_after, valid_until })));
    room -= lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
  }
  if (refused.length)
    items.unshift(
      'Refused (failed verification; not memory):',
      ...refused.map((r) => `- ${r.key} v${r.version}: ${r.reason}`),
    );
  return { total: stats.memories, items, listed };
}
