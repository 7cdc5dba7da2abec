// Tool `history`: every kept version and lifecycle event of a memory, in order.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { fence } from '../fence';
import { key } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerHistory(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'history',
    {
      title: 'History of a memory',
      description:
        'List the kept versions of a memory and every change to it ' +
        '(updates, status changes with reasons, supersessions, ' +
        'tombstones), oldest first.',
      inputSchema: { key },
      outputSchema: {
        key: z.string(),
        versions: z.array(
          z.object({
            version: z.number(),
            current: z.boolean(),
            title: z.string(),
            description: z.string(),
            status: z.string(),
            valid_from: z.string(),
            valid_until: z.string().nullable(),
            recorded_at: z.string(),
            content_digest: z.string(),
          }),
        ),
        events: z.array(
          z.object({
            key: z.string(),
            version: z.number(),
            event: z.string(),
            reason: z.string().nullable(),
            related_key: z.string().nullable(),
            valid_at: z.string().nullable(),
            at: z.string(),
            actor: z.string(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ key }) =>
      guarded(async () => {
        const result = await deps.access.use((engine) => engine.history(key));
        const lines = [
          ...result.versions.map(
            (v) =>
              `v${v.version}${v.current ? ' (current)' : ''} ${v.status}, valid ` +
              `${v.valid_from} → ${v.valid_until ?? 'now'}: ${v.title} — ` +
              `${v.description}`,
          ),
          ...result.events.map(
            (e) =>
              `${e.at} ` +
              `${e.event}${e.related_key ? ` ${e.related_key}` : ''}${e.reason ? `: ${e.reason}` : ''} ` +
              `(v${e.version}, by ${e.actor})`,
          ),
        ];
        return ok({ ...result }, fence(`history of ${key}`, lines).text);
      }),
  );
}
