// Tool `set_status`: deprecate, dispute or retract a memory, with a reason.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LIMITS } from '../../engine';
import { key } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerSetStatus(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'set_status',
    {
      title: 'Deprecate, dispute or retract',
      description:
        "Change a memory's status and say why. deprecated / disputed: " +
        'still recalled, ranked lower, with your reason. retracted: a ' +
        'tombstone, never recalled again (use when a record was wrong ' +
        'from the start). To replace a record with a newer one, use ' +
        'supersede instead.',
      inputSchema: {
        key,
        status: z.enum(['deprecated', 'disputed', 'retracted']),
        reason: z.string().min(1).max(LIMITS.reasonChars),
      },
      outputSchema: { key: z.string(), version: z.number(), status: z.string(), previous_status: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ key, status, reason }, extra) =>
      guarded(async () => {
        const result = await deps.access.use((engine) => engine.setStatus(deps.actor(extra), key, status, reason));
        return ok({ ...result }, `${result.key}: ${result.previous_status} → ${result.status}.`);
      }),
  );
}
