// Tool `list`: pages of memory summaries, newest change first.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMITS } from '../../engine';
import { fence } from '../fence';
import { memorySummary, memoryType, refusal, status } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerList(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'list',
    {
      title: 'List memories',
      description:
        `Browse memories by type and status, newest change first, ` +
        `${LIMITS.listDefault} a page by default (at most ` +
        `${LIMITS.listMax}). To find what answers a question, use recall ` +
        `instead.`,
      inputSchema: {
        types: z.array(memoryType).max(9).optional(),
        statuses: z.array(status).max(6).optional().describe('default: every status but retracted'),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(LIMITS.listMax).optional(),
      },
      outputSchema: {
        items: z.array(memorySummary),
        refused: z.array(refusal),
        total: z.number(),
        offset: z.number(),
        limit: z.number(),
        next_offset: z.number().nullable(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const result = await deps.access.use((engine) => engine.list(args));
        const block = fence(
          'memory list',
          result.items.map(
            (m) =>
              `${m.key} (${m.status}${m.flags.length ? `; ${m.flags.join(', ')}` : ''}): ${m.title} — ${m.description}`,
          ),
        );
        const page =
          `${result.items.length} of ` +
          `${result.total}${result.next_offset !== null ? `; next page: offset ${result.next_offset}` : ''}`;
        return ok({ ...result }, `${page}\n${block.text}`);
      }),
  );
}
