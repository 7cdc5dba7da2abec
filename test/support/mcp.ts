// An in-process MCP client connected to buildServer over the SDK's in-memory transport, backed
// by a real store in a temp folder.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OwnedStoreAccess } from '../../src/host/storeAccess';
import { readWorkspaceFile } from '../../src/host/workspaceFiles';
import { buildServer } from '../../src/mcp/server';
import { tempDir } from './store';

export interface McpHarness {
  client: Client;
  access: OwnedStoreAccess;
  workspace: string;
  home: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectInProcess(
  options: { workspace?: string | null; clientName?: string } = {},
): Promise<McpHarness> {
  const root = tempDir('lore-mcp-');
  const home = join(root, 'home');
  const workspace = options.workspace === undefined ? join(root, 'repo') : options.workspace;
  if (workspace) mkdirSync(workspace, { recursive: true });
  const access = new OwnedStoreAccess({ workspace, home, door: 'test' });
  const server = buildServer({ access, workspaceRoot: () => access.describe().workspace, readFile: readWorkspaceFile });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: options.clientName ?? 'test-agent', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    access,
    workspace: workspace ?? '',
    home,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: async () => {
      await client.close();
      await server.close();
      access.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
