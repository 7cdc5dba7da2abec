// Tool `context`: where Lore is and what it holds. Answers even when no store can be opened, so
// an agent learns what to do next.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { IndexStatus, StoreStats } from '../../engine';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerContext(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'context',
    {
      title: 'Lore status',
      description:
        'Where Lore is running, whether its store is available, and how ' +
        'many memories it holds. Works even when the store is not; call ' +
        'it when another tool reports the store unavailable.',
      inputSchema: {},
      outputSchema: {
        workspace: z.string().nullable(),
        store: z.string().nullable(),
        state: z.enum(['open', 'closed', 'unavailable']),
        problem: z.string().nullable(),
        stats: z
          .object({
            memories: z.number(),
            by_status: z.record(z.string(), z.number()),
            archived_versions: z.number(),
            audit_events: z.number(),
          })
          .nullable(),
        index: z
          .object({
            files: z.number(),
            chunks: z.number(),
            pending: z.number(),
            model: z.string().nullable(),
            model_problem: z.string().nullable(),
            last_update: z.string().nullable(),
          })
          .nullable(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        let stats: StoreStats | null = null;
        let index: IndexStatus | null = null;
        try {
          [stats, index] = await deps.access.use((engine) => [engine.stats(), engine.indexStatus()] as const);
        } catch {
          // The description below carries the problem.
        }
        const where = deps.access.describe();
        const text = stats
          ? `Lore is serving ${where.workspace}: ${stats.memories} memories (${
              Object.entries(stats.by_status)
                .map(([s, n]) => `${n} ${s}`)
                .join(', ') || 'none yet'
            }); index: ${index?.files ?? 0} files, ${index?.chunks ?? 0} chunks, ` +
            `${index?.model ? `model ${index.model}` : 'lexical only (no embedding model)'}.`
          : `Lore's store is not ` +
            `available${where.workspace ? ` for ${where.workspace}` : ''}: ` +
            `${where.problem ?? 'unknown reason'}.`;
        return ok(
          {
            ...where,
            stats: stats && {
              memories: stats.memories,
              by_status: stats.by_status,
              archived_versions: stats.archived_versions,
              audit_events: stats.audit_events,
            },
            index: index && {
              files: index.files,
              chunks: index.chunks,
              pending: index.pending,
              model: index.model,
              model_problem: index.model_problem,
              last_update: index.last_update,
            },
          },
          text,
        );
      }),
  );
}
