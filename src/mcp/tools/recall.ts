// Tool `recall`: ranked summaries that answer a question; fenced, bounded text for the model.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  DOC_KINDS,
  LIMITS,
  describeDrift,
  describeVerification,
  meaningHint,
  type DriftFlag,
  type RecallHit,
} from '../../engine';
import { fence } from '../fence';
import { docHit, isoDate, memorySummary, memoryType, refusal, scoreParts, verification } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function renderHit(hit: RecallHit, rank: number): string {
  const flags = hit.flags.length ? ` [${hit.flags.join(', ')}]` : '';
  const drift = describeDrift((hit as { drift?: DriftFlag[] }).drift)
    .map((line) => `\n   ${line}`)
    .join('');
  // Every memory says whether it holds; a document only when a reference on its lines drifted.
  const verified =
    hit.verification && (hit.record === 'memory' || hit.verification.state !== 'holds')
      ? `\n   ${describeVerification(hit.verification)}`
      : '';
  if (hit.record === 'doc') {
    return (
      `${rank}. ${hit.path}:${hit.lines[0]}-${hit.lines[1]} (score ` +
      `${hit.score.total}; ${hit.kind} document)${flags}\n   ` +
      `${hit.title} — ${hit.description}${drift}${verified}`
    );
  }
  const reason = hit.status_reason ? `\n   ${hit.status}: ${hit.status_reason}` : '';
  const successor = hit.superseded_by ? `\n   superseded by ${hit.superseded_by}` : '';
  return (
    `${rank}. ${hit.key} (score ${hit.score.total}; ${hit.status}, ` +
    `${hit.basis})${flags}\n   ${hit.title} — ` +
    `${hit.description}${reason}${successor}${drift}${verified}`
  );
}

const hintLine = (hint: string | null) => (hint ? `\n${hint}` : '');

export function registerRecall(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'recall',
    {
      title: 'Recall memories',
      description:
        'Search Lore before you change code or repeat an approach: ' +
        'returns the memories (decisions, dead ends, runbooks, facts) and ' +
        'the repository documents (ADRs, runbooks, postmortems, guides, ' +
        'infrastructure) that match, best first, as titles and one-line ' +
        "descriptions (call `get` for a memory's body, `read_file` with " +
        'the path and lines for a document). Dead ends that resemble the ' +
        'query come first, flagged "dead_end". Use as_of to ask what was ' +
        'valid at a past instant.',
      inputSchema: {
        query: z
          .string()
          .min(1)
          .max(LIMITS.queryChars)
          .describe('what you are about to do or want to know, in plain words'),
        types: z
          .array(memoryType)
          .max(9)
          .optional()
          .describe('only these memory types (documents are left out unless kinds is given too)'),
        kinds: z
          .array(z.enum(DOC_KINDS))
          .max(16)
          .optional()
          .describe('only documents of these kinds (e.g. adr, runbook)'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(LIMITS.recallMax)
          .optional()
          .describe(`how many results (default ${LIMITS.recallDefault})`),
        as_of: isoDate
          .optional()
          .describe('answer as of this instant (valid time), including records superseded since'),
      },
      outputSchema: {
        query: z.string(),
        as_of: z.string().nullable(),
        results: z.array(
          z.discriminatedUnion('record', [
            memorySummary.extend({
              record: z.literal('memory'),
              score: scoreParts,
              verification: verification.optional(),
            }),
            docHit,
          ]),
        ),
        refused: z
          .array(refusal)
          .describe('matching records that failed signature or content verification: never memory'),
        candidates: z.number(),
        vectors: z.boolean().describe('whether vector similarity from the local model took part'),
        truncated: z.boolean(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const result = await deps.access.use((engine) => engine.recall(args));
        if (!result.results.length) {
          return ok(
            { ...result, truncated: false },
            `Nothing in Lore matches ` +
              `"${result.query}"${result.as_of ? ` as of ${result.as_of}` : ''}. ` +
              `If you settle something worth keeping, save it with ` +
              `remember.${hintLine(meaningHint(result))}`,
          );
        }
        const block = fence(
          `recall results for "${result.query}"`,
          result.results.map((hit, i) => renderHit(hit, i + 1)),
        );
        const deadEnds = result.results.filter((h) => h.flags.includes('dead_end'));
        const refusedNote = result.refused.length
          ? `\nRefused (failed verification, not memory): ` +
            `${result.refused.map((r) => `${r.key} v${r.version} — ${r.reason}`).join('; ')}`
          : '';
        const warning = deadEnds.length
          ? `Warning: ${deadEnds.map((d) => d.key).join(', ')} ` +
            `${deadEnds.length > 1 ? 'are dead ends' : 'is a dead end'} ` +
            `resembling this query; read ` +
            `${deadEnds.length > 1 ? 'them' : 'it'} before trying that ` +
            `approach.\n`
          : '';
        return ok(
          { ...result, results: result.results.slice(0, block.items_shown || 1), truncated: block.truncated },
          warning + block.text + refusedNote,
        );
      }),
  );
}
