// Tool `supersede`: an old record stops being valid when a newer one takes over.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isoDate, key } from '../schemas';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerSupersede(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'supersede',
    {
      title: 'Supersede',
      description:
        'Mark old_key superseded by new_key (save the new record first). ' +
        'The old one leaves recall but stays in history, and recall with ' +
        'as_of before the change still returns it. valid_from is when the ' +
        'change took effect in the world (default now).',
      inputSchema: { old_key: key, new_key: key, valid_from: isoDate.optional() },
      outputSchema: { key: z.string(), superseded_by: z.string(), valid_from: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ old_key, new_key, valid_from }, extra) =>
      guarded(async () => {
        const result = await deps.access.use((engine) =>
          engine.supersede(deps.actor(extra), old_key, new_key, valid_from),
        );
        return ok({ ...result }, `${result.key} is superseded by ${result.superseded_by} from ${result.valid_from}.`);
      }),
  );
}
