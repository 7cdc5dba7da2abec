// `lore mcp`: the MCP server over stdio, for agents outside the editor (e.g. `claude mcp add lore
// -- lore mcp`). When another Lore process owns the store it relays to that owner; otherwise it
// becomes the owner (and serves loopback HTTP for the processes that come after it). It starts
// even with no usable store: tools then answer with what to do.

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { storePaths } from '../../host/dataDir';
import { stderrLogger } from '../../host/logger';
import { findLiveOwner, type LiveOwner } from '../../host/owner';
import { ownerServer } from '../../host/ownerServer';
import { buildServer } from '../../mcp/server';
import type { Command } from '../command';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'run the MCP server on stdio (for Claude Code, Cursor and other MCP hosts)',
  usage: 'lore mcp [--workspace DIR]',
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const logger = stderrLogger(process.env.LORE_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
    let owner: LiveOwner | undefined;
    try {
      owner = await findLiveOwner(storePaths(ctx.workspace).owner);
    } catch (error) {
      // No usable workspace yet: still speak MCP; every tool says what to do, and each call
      // tries again, so a folder that appears later is used.
      logger.warn(`workspace not usable yet: ${(error as Error).message}`);
    }
    const stdio = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      stdio.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    if (owner) {
      await relay(stdio, owner);
      await closed;
      return 0;
    }
    const served = ownerServer({ workspace: ctx.workspace, door: 'lore mcp', logger });
    try {
      served.access.open();
    } catch (error) {
      logger.warn(`store not available yet: ${(error as Error).message}`);
    }
    const server = buildServer({ access: served.access, workspaceRoot: () => served.access.describe().workspace });
    await server.connect(stdio);
    await closed;
    await server.close();
    await served.close();
    return 0;
  },
};

/** Passes JSON-RPC messages between this process's stdio and the owner's HTTP endpoint, unchanged. */
async function relay(stdio: StdioServerTransport, owner: LiveOwner): Promise<void> {
  const http = new StreamableHTTPClientTransport(new URL(`${owner.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${owner.info.token}` } } });
  http.onmessage = (message) => void stdio.send(message);
  stdio.onmessage = (message: JSONRPCMessage) => {
    http.send(message).catch((error: Error) => {
      if ('id' in message && 'method' in message) {
        void stdio.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `the Lore process that owns this store stopped answering (${error.message}); restart the MCP server` } });
      }
    });
  };
  await http.start();
  await stdio.start();
}
