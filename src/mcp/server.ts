// buildServer: the MCP application — tools, resources, prompts and instructions over a
// StoreAccess. Transports (stdio, HTTP) are chosen elsewhere; this knows nothing about them.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LORE_VERSION, type Actor } from '../engine';
import type { StoreAccess } from './access';
import { SERVER_INSTRUCTIONS } from './instructions';
import { shapeToolResults } from './outputShape';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { registerContext } from './tools/context';
import { registerDrift } from './tools/drift';
import type { Extra, ToolDeps, WorkspaceFileReader } from './tools/deps';
import { registerForget } from './tools/forget';
import { registerGet } from './tools/get';
import { registerHistory } from './tools/history';
import { registerList } from './tools/list';
import { registerReadFile } from './tools/readFile';
import { registerRecall } from './tools/recall';
import { registerRemember } from './tools/remember';
import { registerSessionClose } from './tools/sessionClose';
import { registerSetStatus } from './tools/setStatus';
import { registerSupersede } from './tools/supersede';

export const SERVER_NAME = 'lore';
export const SERVER_VERSION = LORE_VERSION;

export interface BuildServerOptions {
  access: StoreAccess;
  workspaceRoot: () => string | null;
  /** The host's workspace file reader (host/workspaceFiles' readWorkspaceFile). */
  readFile: WorkspaceFileReader;
}

export function buildServer(options: BuildServerOptions): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Lore — engineering memory', version: SERVER_VERSION },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } },
  );
  shapeToolResults(server);
  const clientName = () => server.server.getClientVersion()?.name ?? 'unknown-client';
  const deps: ToolDeps = {
    access: options.access,
    clientName,
    // Agents are never human: nothing reached through MCP can perform a person's act.
    actor: (_extra: Extra): Actor => ({ door: 'mcp', name: clientName(), human: false }),
    workspaceRoot: options.workspaceRoot,
    readFile: options.readFile,
  };
  for (const register of [
    registerRecall,
    registerGet,
    registerRemember,
    registerSetStatus,
    registerSupersede,
    registerForget,
    registerHistory,
    registerList,
    registerReadFile,
    registerContext,
    registerSessionClose,
    registerDrift,
  ]) {
    register(server, deps);
  }
  registerResources(server, deps);
  registerPrompts(server);
  return server;
}
