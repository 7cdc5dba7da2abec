// Resources: lore://memory/{key} for records and lore://doc/{path} for workspace documents.

import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LoreError } from '../engine';
import type { ToolDeps } from './tools/deps';
import { renderRecord } from './tools/get';
import { fence } from './fence';

export function registerResources(server: McpServer, deps: ToolDeps): void {
  server.registerResource(
    'memory',
    new ResourceTemplate('lore://memory/{+key}', {
      list: async () => {
        const page = await deps.access.use((engine) => engine.list({ limit: 200 }));
        return {
          resources: page.items.map((m) => ({
            uri: `lore://memory/${m.key}`,
            name: m.key,
            title: m.title,
            description: m.description,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    { title: 'Lore memory', description: 'One memory record, body included', mimeType: 'text/markdown' },
    async (uri, { key }) => {
      const result = await deps.access.use((engine) => engine.get(String(key)));
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: fence(`memory ${result.memory.key}`, [renderRecord(result)]).text,
          },
        ],
      };
    },
  );
  server.registerResource(
    'doc',
    new ResourceTemplate('lore://doc/{+path}', { list: undefined }),
    {
      title: 'Workspace document',
      description: 'A document or infrastructure file of the workspace, secrets redacted',
      mimeType: 'text/plain',
    },
    async (uri, { path }) => {
      const root = deps.workspaceRoot();
      if (!root) throw new LoreError('STORE_UNAVAILABLE', 'no workspace is open');
      const file = deps.readFile(root, decodeURIComponent(String(path)));
      return {
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: fence(`file ${file.path}`, [file.text]).text }],
      };
    },
  );
}
