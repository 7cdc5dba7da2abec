// Starting the editor tier's tools, for its runners (run.ts, vsix.ts): the tool paths cached by
// scripts/editor/setup.sh, code-server on a random loopback port in its own process group (so its
// extension host goes with it), and headless Chromium with the flags ARCHITECTURE.md fixes.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, PlaywrightCore } from './tools';

/** A problem with the harness or its tools (not a failing test): printed as its message alone. */
export class HarnessError extends Error {}

export const CACHE =
  process.env.LORE_EDITOR_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? tmpdir(), '.cache'), 'lore-editor');

// No sandbox (root in CI), and nothing that reaches for the network on its own.
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ToolPaths {
  node: string;
  codeServer: string;
  playwrightCore: string;
  chromium: string;
}

export function readToolPaths(): ToolPaths {
  const file = join(CACHE, 'paths.json');
  if (!existsSync(file))
    throw new HarnessError(
      `the editor tools are not installed (${file} is missing): run scripts/editor/setup.sh first`,
    );
  const paths = JSON.parse(readFileSync(file, 'utf8')) as ToolPaths;
  for (const [name, path] of Object.entries(paths)) {
    if (!existsSync(path)) throw new HarnessError(`${name} is missing at ${path}: run scripts/editor/setup.sh again`);
  }
  return paths;
}

export interface CodeServerOptions {
  /** Holds its config, and its XDG state under xdg/. */
  scratch: string;
  userDataDir: string;
  extensionsDir: string;
  env: NodeJS.ProcessEnv;
  /** After the common flags (e.g. VS Code options). */
  extraArgs?: string[];
  /** Workspace trust on (a folder never trusted opens in Restricted Mode); off by default. */
  trust?: boolean;
}

export interface CodeServer {
  process: ChildProcess;
  /** Everything it printed so far. */
  log: string[];
  /** Its address once it listens (rejects if it exits first). */
  url: Promise<string>;
  /** Rejects when it exits. */
  exited: Promise<never>;
  stop(): void;
}

export function startCodeServer(tools: ToolPaths, options: CodeServerOptions): CodeServer {
  const { scratch } = options;
  writeFileSync(join(scratch, 'code-server.yaml'), 'auth: none\n');
  const server = spawn(
    tools.node,
    [
      tools.codeServer,
      '--config',
      join(scratch, 'code-server.yaml'),
      '--bind-addr',
      '127.0.0.1:0',
      '--auth',
      'none',
      '--user-data-dir',
      options.userDataDir,
      '--extensions-dir',
      options.extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      ...(options.trust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(options.extraArgs ?? []),
    ],
    {
      cwd: scratch,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...options.env,
        PATH: `${dirname(tools.node)}:${options.env.PATH ?? ''}`,
        // code-server keeps its own state under XDG folders: keep it in the scratch folder.
        XDG_CONFIG_HOME: join(scratch, 'xdg'),
        XDG_DATA_HOME: join(scratch, 'xdg'),
        // The built-in Copilot Chat extension signs in to GitHub on start and retries without end
        // offline, costing the extension host CPU every test waits behind; the server's scan of
        // built-ins leaves it out. Lore's MCP tools reach agents through VS Code's own MCP and
        // language-model tool services, which stay (suite/mcp.test.ts).
        VSCODE_SKIP_BUILTIN_EXTENSIONS: 'GitHub.copilot-chat',
      },
    },
  );
  const log: string[] = [];
  const url = new Promise<string>((resolveUrl, reject) => {
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(log.join(''));
      if (match) resolveUrl(match[1]);
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.once('exit', (code) =>
      reject(new HarnessError(`code-server exited (${code}) before listening:\n${log.join('')}`)),
    );
    server.once('error', (error) => reject(new HarnessError(`code-server did not start: ${error.message}`)));
  });
  const exited = new Promise<never>((_, reject) => {
    server.once('exit', (code) =>
      reject(new HarnessError(`code-server exited (${code}) during the run:\n${log.join('').slice(-4000)}`)),
    );
  });
  // Whoever awaits these handles them; unawaited, they must not end the run as unhandled.
  url.catch(() => undefined);
  exited.catch(() => undefined);
  return {
    process: server,
    log,
    url,
    exited,
    stop: () => {
      if (server.exitCode !== null || !server.pid) return;
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

/** Headless Chromium with a persistent profile in `profileDir`. */
export function launchChromium(tools: ToolPaths, profileDir: string, viewport: { width: number; height: number }) {
  const { chromium } = require(tools.playwrightCore) as PlaywrightCore;
  return chromium.launchPersistentContext(profileDir, {
    executablePath: tools.chromium,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
}

/**
 * One headless Chromium for a whole run: each window a person would open in a browser of its own is
 * a context of it (a fresh profile each), which costs a page, not another browser's start.
 */
export function launchBrowser(tools: ToolPaths): Promise<Browser> {
  const { chromium } = require(tools.playwrightCore) as PlaywrightCore;
  return chromium.launch({ executablePath: tools.chromium, headless: true, args: CHROMIUM_FLAGS });
}
