// Tool `drift`: references (in the repository's documents and in memories' anchors and links)
// whose target changed, moved or went away since it was fingerprinted — read from the last
// check, so an agent can see what a record or file it is about to rely on has drifted from.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DRIFT_STATES, type DriftFinding } from '../../engine';
import { fence } from '../fence';
import { driftFinding, driftState, key } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

const MAX_FINDINGS = 200;

function render(f: DriftFinding): string {
  const where =
    f.source.kind === 'memory'
      ? `memory ${f.source.key}`
      : `${f.source.path}${f.source.line ? `:${f.source.line}` : ''}`;
  return `${f.state}: ${where} → ${f.reference.raw} (${f.evidence.detail}; since ${f.detected_at})`;
}

export function registerDrift(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'drift',
    {
      title: 'Drift findings',
      description:
        'List references that drifted: a memory anchor or a path, link or ' +
        'symbol in a repository document whose target changed (changed), ' +
        'moved (relocated, with the new place), was deleted (gone) or ' +
        'never resolved (broken). Filter by a memory key or a file path ' +
        '(as the referring document or as the target). Check before ' +
        'relying on a decision or runbook.',
      inputSchema: {
        key: key.optional().describe('only the references of this memory'),
        path: z
          .string()
          .min(1)
          .max(1024)
          .optional()
          .describe('only references made by this document or pointing at this file (workspace-relative)'),
        states: z.array(driftState).max(DRIFT_STATES.length).optional().describe('default: every state but current'),
      },
      outputSchema: { findings: z.array(driftFinding), total: z.number(), truncated: z.boolean() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const all = await deps.access.use((engine) => engine.driftFindings(args));
        if (!all.length)
          return ok(
            { findings: [], total: 0, truncated: false },
            'No drift found for that filter (as of the last check).',
          );
        const findings = all.slice(0, MAX_FINDINGS);
        const block = fence('drift findings', findings.map(render), { more: 'filter by key or path' });
        const shown = findings.slice(0, block.items_shown || 1);
        return ok(
          { findings: shown, total: all.length, truncated: block.truncated || shown.length < all.length },
          block.text,
        );
      }),
  );
}
