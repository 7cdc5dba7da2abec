// Tool `read_file`: a workspace file (or a line range), fenced, with secrets redacted.

import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LoreError } from '../../engine';
import { fence } from '../fence';
import type { ToolDeps } from './deps';
import { guarded, ok } from './result';

export function registerReadFile(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'read_file',
    {
      title: 'Read a workspace file',
      description:
        'Read a document or infrastructure file that a memory or recall ' +
        'result points to (path relative to the workspace root; optional ' +
        'line range). Files outside the workspace, dependency folders and ' +
        'secret-bearing files are refused; secrets in the text are ' +
        'redacted.',
      inputSchema: {
        path: z.string().min(1).max(1024),
        start_line: z.number().int().min(1).optional(),
        end_line: z.number().int().min(1).optional(),
      },
      outputSchema: {
        path: z.string(),
        text: z.string(),
        total_lines: z.number(),
        start_line: z.number(),
        end_line: z.number(),
        redactions: z.number(),
        truncated: z.boolean(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ path, start_line, end_line }) =>
      guarded(async () => {
        const root = deps.workspaceRoot();
        if (!root)
          throw new LoreError(
            'STORE_UNAVAILABLE',
            'no workspace is open',
            'start Lore in your repository (`lore mcp` in the repo, or pass --workspace)',
          );
        const file = deps.readFile(root, path, start_line, end_line);
        const block = fence(`file ${file.path} lines ${file.start_line}-${file.end_line}`, [file.text], {
          more: 'ask for a smaller line range',
        });
        return ok({ ...file, text: block.truncated ? '' : file.text, truncated: block.truncated }, block.text);
      }),
  );
}
