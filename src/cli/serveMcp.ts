// Serving MCP from the command line: `lore mcp` (stdio; relays to a live owner or becomes one, and
// elects again when a relayed owner dies: mcpBridge.ts) and `lore serve` (HTTP owner). Loaded only
// by those commands, so the MCP SDK does not slow every other command's start.

import { LoreError } from '../engine';
import { bindAddress } from '../host/httpOrigin';
import { stderrLogger } from '../host/logger';
import { ownerServer } from '../host/ownerServer';
import type { CommandContext } from './command';
import { McpBridge } from './mcpBridge';
import { StdioJsonRpcTransport } from './stdioTransport';
import { integerOption, stringOption } from './parse';

export async function runMcpStdio(ctx: CommandContext): Promise<number> {
  const logger = stderrLogger(process.env.LORE_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const stdio = new StdioJsonRpcTransport();
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  stdio.onerror = (error) => logger.warn(error.message);
  const bridge = new McpBridge(ctx.workspace, (message) => stdio.send(message), logger);
  await bridge.connect();
  stdio.onmessage = (message) => void bridge.handle(message);
  await stdio.start();
  await closed;
  await bridge.close();
  return 0;
}

export async function runServe(ctx: CommandContext, v: Record<string, unknown>): Promise<number> {
  const port = integerOption('port', v.port);
  if (port !== undefined && (port < 0 || port > 65535))
    throw new LoreError('INVALID_INPUT', '--port must be from 0 to 65535');
  const allowRemote = v['allow-remote'] === true;
  // Checked before the store opens, so a refused --host takes no lock.
  const host = bindAddress(stringOption(v.host), allowRemote);
  const logger = stderrLogger('info');
  const owner = ownerServer({
    workspace: ctx.workspace,
    door: 'lore serve',
    logger,
    host,
    port,
    allowRemote,
    watchWorkspace: true,
    // Started by the editor (its stdin is the editor's pipe): a person's act's code goes back up the pipe.
    toParent: v['exit-with-stdin'] === true ? (line) => void process.stdout.write(`${line}\n`) : undefined,
  });
  const store = owner.access.open();
  let http;
  try {
    http = await owner.http();
  } catch (error) {
    await owner.close();
    throw error;
  }
  // Listen for the stop signal before saying we are ready, so a client that stops us at once is heard.
  const stopped = v['exit-with-stdin'] === true ? Promise.race([stopSignal(), stdinClosed()]) : stopSignal();
  ctx.print(
    { url: `${http.url}/mcp`, port: http.port, owner_file: store.paths.owner, workspace: store.paths.workspaceRoot },
    (r) =>
      `Lore serves ${r.workspace}\nMCP endpoint: ${r.url}\nbearer token ` +
      `for MCP clients: in ${r.owner_file} (field "mcp_token"; readable ` +
      `only by you)\nstop with Ctrl-C`,
  );
  await stopped;
  await owner.close();
  // A stdin still read would keep this process alive after a signal.
  if (v['exit-with-stdin'] === true) process.stdin.destroy();
  return 0;
}

/** Resolves when stdin ends: the parent that started this process with a pipe has gone. */
function stdinClosed(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.stdin
      .once('end', resolve)
      .once('close', resolve)
      .once('error', () => resolve());
    process.stdin.resume();
  });
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
