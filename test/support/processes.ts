// Long-running Lore processes for end-to-end tests: `lore serve` started and awaited on its own
// output (never on a timer), MCP clients over stdio and HTTP, and the owner file they publish.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { storePaths } from '../../src/host/dataDir';
import type { OwnerInfo } from '../../src/host/ownerLock';
import { tempDir } from './store';

export const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');

export interface Sandbox {
  home: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
}

export function sandbox(): Sandbox {
  const root = tempDir('lore-e2e-');
  const home = join(root, 'home');
  const workspace = join(root, 'repo');
  mkdirSync(workspace, { recursive: true });
  return { home, workspace, env: { ...process.env, LORE_HOME: home } };
}

export function ownerFile(box: Sandbox): string {
  return storePaths(box.workspace, box.home).owner;
}

export function readOwnerFile(box: Sandbox): OwnerInfo {
  return JSON.parse(readFileSync(ownerFile(box), 'utf8')) as OwnerInfo;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The owner's full token (/rpc and /mcp). */
  token: string;
  /** The token MCP clients are given (/mcp only). */
  mcpToken: string;
  /** What the owner wrote on stderr so far (its log). */
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `lore serve --json` and resolves once it prints where it listens. */
export async function startServe(box: Sandbox, extraArgs: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, '--workspace', box.workspace, '--json', 'serve', ...extraArgs], {
    env: box.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const started = await new Promise<{ url: string }>((resolveStart, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      try {
        resolveStart(JSON.parse(out));
      } catch {
        // not a whole JSON document yet
      }
    });
    child.once('exit', (code) => reject(new Error(`lore serve exited ${code}: ${err}`)));
  });
  return {
    child,
    url: started.url,
    token: readOwnerFile(box).token,
    mcpToken: readOwnerFile(box).mcp_token!,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code, signal] = await exited;
      if (code === null) throw new Error(`lore serve ended by ${signal} instead of exiting; stderr: ${err}`);
      return code as number;
    },
  };
}

export interface Agent {
  client: Client;
  /** The pid of the agent's `lore mcp` (stdio agents only). */
  pid?: number;
  /** What the agent's `lore mcp` wrote on stderr so far (stdio agents only). */
  stderr?(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

function agentOf(client: Client): Agent {
  return {
    client,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: () => client.close(),
  };
}

/** An MCP client that starts `lore mcp` over stdio, the way Claude Code does. */
export async function stdioAgent(box: Sandbox, name = 'stdio-agent', workspace = box.workspace): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--workspace', workspace, 'mcp'],
    env: box.env as Record<string, string>,
    stderr: 'pipe',
  });
  // Read, so a chatty lore mcp never blocks on a full pipe; kept for the test to show on failure.
  let log = '';
  transport.stderr?.on('data', (d) => (log = (log + d).slice(-20_000)));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { ...agentOf(client), pid: transport.pid ?? undefined, stderr: () => log };
}

/** An MCP client over Streamable HTTP with the owner's bearer token. */
export async function httpAgent(url: string, token: string, name = 'http-agent'): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return agentOf(client);
}

export function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export interface WatchProcess {
  child: ChildProcess;
  /** The next JSON event of this kind that `lore watch --json` prints (earlier ones are skipped); no timers. */
  next(event: string): Promise<any>;
  stop(): Promise<void>;
}

/** Starts `lore watch --json` on the sandbox's workspace. */
export function startWatch(box: Sandbox): WatchProcess {
  const child = spawn(process.execPath, [CLI, '--workspace', box.workspace, '--json', 'watch'], {
    env: box.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen: Array<{ event: string }> = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  createInterface({ input: child.stdout! }).on('line', (line) => {
    buffer += line;
    try {
      seen.push(JSON.parse(buffer));
      buffer = '';
      waiters.splice(0).forEach((wake) => wake());
    } catch {
      // a JSON document spans several lines
    }
  });
  child.once('exit', () => waiters.splice(0).forEach((wake) => wake()));
  return {
    child,
    next: async (event) => {
      for (;;) {
        const index = seen.findIndex((e) => e.event === event);
        if (index >= 0) return seen.splice(0, index + 1)[index];
        if (child.exitCode !== null) throw new Error(`lore watch ended before "${event}"`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
