// Serving MCP from the command line: `lore mcp` (stdio; relays to a live owner or becomes one)
// and `lore serve` (HTTP owner). Loaded only by those commands, so the MCP SDK does not slow
// every other command's start.

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LoreError } from '../engine';
import { storePaths } from '../host/dataDir';
import { stderrLogger } from '../host/logger';
import { findLiveOwner, type LiveOwner } from '../host/owner';
import { ownerServer } from '../host/ownerServer';
import { buildServer } from '../mcp/server';
import type { CommandContext } from './command';
import { integerOption, stringOption } from './parse';

export async function runMcpStdio(ctx: CommandContext): Promise<number> {
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
}

export async function runServe(ctx: CommandContext, v: Record<string, unknown>): Promise<number> {
    const port = integerOption('port', v.port);
    if (port !== undefined && (port < 0 || port > 65535)) throw new LoreError('INVALID_INPUT', '--port must be from 0 to 65535');
    const logger = stderrLogger('info');
    const owner = ownerServer({ workspace: ctx.workspace, door: 'lore serve', logger, host: stringOption(v.host), port, allowRemote: v['allow-remote'] === true });
    const store = owner.access.open();
    let http;
    try {
      http = await owner.http();
    } catch (error) {
      await owner.close();
      throw error;
    }
    // Listen for the stop signal before saying we are ready, so a client that stops us at once is heard.
    const stopped = stopSignal();
    ctx.print({ url: `${http.url}/mcp`, port: http.port, owner_file: store.paths.owner, workspace: store.paths.workspaceRoot }, (r) =>
      `Lore serves ${r.workspace}\nMCP endpoint: ${r.url}\nbearer token: in ${r.owner_file} (field "token"; readable only by you)\nstop with Ctrl-C`,
    );
    await stopped;
    await owner.close();
    return 0;
}

/** Resolves on the first SIGINT or SIGTERM; later ones are ignored while shutting down. */
export function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.on('SIGINT', () => {});
      process.on('SIGTERM', () => {});
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

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
