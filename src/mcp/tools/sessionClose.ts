// Tool `session_close`: at the end of a session the agent hands in the memories it would keep (and
// optionally a summary) and gets a plan back. mode "review" writes nothing; "accept" applies the
// low-risk items of a routine session and queues the rest in the Inbox for a person. Promote is
// never applied here: quarantined text waits for a person.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  AGENT_SOURCES,
  LIMITS,
  MAX_CANDIDATES,
  PLAN_ACTIONS,
  RISKS,
  SESSION_KINDS,
  type SessionCloseResult,
} from '../../engine';
import { fence } from '../fence';
import { basis, isoDate, key, memoryTypeChoice } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

const candidate = z
  .object({
    type: memoryTypeChoice,
    title: z.string().min(1).max(LIMITS.titleChars),
    description: z.string().min(1).max(LIMITS.descriptionChars),
    body: z.string().optional(),
    key: key.optional(),
    anchors: z.array(z.string().max(LIMITS.anchorChars)).max(LIMITS.anchors).optional(),
    links: z.array(z.string().max(LIMITS.linkChars)).max(LIMITS.links).optional(),
    tags: z.array(z.string().max(LIMITS.tagChars)).max(LIMITS.tags).optional(),
    basis: basis.optional(),
    confidence: z.number().min(0).max(1).optional(),
    source: z
      .enum(AGENT_SOURCES)
      .optional()
      .describe('where the content came from (default agent); webpage and tool land quarantined'),
    evidence: z.array(z.string().max(LIMITS.linkChars)).max(LIMITS.evidence).optional(),
    turn: z.number().int().min(0).optional().describe('the turn of the session it was settled in'),
    valid_from: isoDate.optional(),
    valid_until: isoDate.optional(),
    review_after: isoDate.optional(),
    fact_key: z.string().max(LIMITS.factKeyChars).optional(),
    supersedes: key.optional().describe('a record this one replaces'),
  })
  .strict();

const planItem = z.object({
  id: z.number(),
  action: z.enum(PLAN_ACTIONS),
  key: z.string(),
  target: z.string().nullable(),
  candidate: z.number(),
  title: z.string(),
  risk: z.enum(RISKS),
  reason: z.string(),
  applies: z.boolean(),
  outcome: z.string().optional(),
  version: z.number().nullable().optional(),
  inbox_id: z.number().nullable().optional(),
});

function describePlan(r: SessionCloseResult): string {
  const head =
    r.mode === 'review'
      ? `Plan for a ${r.kind} session (review: nothing was written). Call ` +
        `again with mode "accept" to apply the items marked applies=true ` +
        `and queue the rest for a person.`
      : `${r.kind} session closed: ${r.applied} applied, ${r.queued} queued in the Inbox for a person.`;
  const lines = r.items.map(
    (i) =>
      `${i.id}. ${i.action} ` +
      `${i.key}${i.target && i.target !== i.key ? ` → ${i.target}` : ''} ` +
      `[${i.risk}${i.outcome ? `, ${i.outcome}` : i.applies ? ', applies on accept' : ''}]: ` +
      `${i.reason}`,
  );
  return `${head}\n${fence('session plan', [...lines, ...r.notes.map((n) => `note: ${n}`)]).text}`;
}

export function registerSessionClose(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'session_close',
    {
      title: 'Close a session',
      description:
        'At the end of a session, hand in the memories worth keeping ' +
        '(decisions with why, dead ends, verified runbooks, conventions, ' +
        'facts; never secrets or raw logs) and get a plan: add, merge, ' +
        'supersede or promote, each with a risk and a reason. mode ' +
        '"review" (default) writes nothing; "accept" applies the low-risk ' +
        'items and queues the rest in the Inbox for a person. Incident ' +
        'and migration sessions are review-first: accept queues ' +
        "everything. Promote is a person's act and is never applied by " +
        'this tool. Lore does not extract memories from the summary: put ' +
        'them in memories.',
      // Strict: a misspelt field (say `type: "incident"` for kind) is refused by name, not dropped —
      // dropped, it would turn a review-first session into a routine one that applies on accept.
      inputSchema: z
        .object({
          kind: z
            .enum(SESSION_KINDS)
            .optional()
            .describe('routine (default), incident or migration; incident and migration are review-first'),
          summary: z
            .string()
            .max(LIMITS.bodyBytes)
            .optional()
            .describe('what the session did, in a few lines (checked against dead ends; not stored)'),
          memories: z
            .array(candidate)
            .max(MAX_CANDIDATES)
            .optional()
            .describe('candidate memories: the remember fields'),
          mode: z
            .enum(['review', 'accept'])
            .optional()
            .describe('review (default): plan only; accept: apply the low-risk items, queue the rest'),
        })
        .strict(),
      outputSchema: {
        mode: z.enum(['review', 'accept']),
        kind: z.string(),
        review_first: z.boolean(),
        items: z.array(planItem),
        notes: z.array(z.string()),
        applied: z.number(),
        queued: z.number(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ kind, summary, memories, mode }, extra) =>
      guarded(async () => {
        const input = {
          kind,
          summary,
          client: deps.clientName(),
          ...(extra.sessionId ? { session_id: extra.sessionId } : {}),
          memories: (memories ?? []).map(({ source, evidence, turn, ...fields }) => ({
            ...fields,
            provenance: {
              source: source ?? 'agent',
              ...(evidence ? { evidence } : {}),
              ...(turn !== undefined ? { turn } : {}),
            },
          })),
        };
        const result = await deps.access.use((engine) =>
          engine.sessionClose(deps.actor(extra), input, { mode: mode ?? 'review' }),
        );
        return ok({ ...result }, describePlan(result));
      }),
  );
}
