// Tool `forget`: the hard delete. Final; returns a receipt of digests.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { key } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerForget(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'forget',
    {
      title: 'Forget',
      description:
        'Permanently delete a memory and every version of it (for content ' +
        'that must not be kept, such as personal data). This cannot be ' +
        'undone; to mark a record wrong or outdated, use set_status or ' +
        'supersede instead.',
      inputSchema: { key },
      outputSchema: {
        receipt: z.object({
          key: z.string(),
          versions_removed: z.number(),
          digests: z.array(z.string()),
          forgotten_at: z.string(),
          audit_seq: z.number(),
        }),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ key }, extra) =>
      guarded(async () => {
        const receipt = await deps.access.use((engine) => engine.forget(deps.actor(extra), key));
        return ok(
          { receipt },
          `Forgot ${receipt.key}: ${receipt.versions_removed} version(s) ` +
            `removed; receipt digests: ${receipt.digests.join(', ')}.`,
        );
      }),
  );
}
