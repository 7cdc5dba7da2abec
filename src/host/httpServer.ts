// Loopback HTTP for the store owner: MCP over Streamable HTTP at /mcp (one session per client)
// and the owner's RPC for Lore's own CLI and editor at /rpc, with what happens to the store streamed
// at /events. Every request must carry a bearer token; one without the right one gets 401 and
// touches nothing. The MCP token opens /mcp only, so an MCP client never reaches /rpc or /events,
// where Lore's own doors carry a person's confirmed acts and see every change.
// Before the token, a request's Host and Origin must be this server's own (httpOrigin.ts), and the
// address it binds must be one every other Lore process reaches. Idle sessions are freed
// (mcpSessions.ts).

import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_BUNDLE_CHARS, isLoreError, type Logger } from '../engine';
import type { StoreAccess } from '../mcp/access';
import { MAX_MCP_MESSAGE_BYTES } from '../mcp/jsonRpc';
import { buildServer } from '../mcp/server';
import { MAX_CHANGED_PATHS, changedPaths } from './changedHint';
import { checkRpc, dispatchRpc, type RpcCall, type RpcRun } from './engineApi';
import { OWNER_CONNECT_HOST, bindAddress, refusedOrigin } from './httpOrigin';
import { RefusedBody, closeAfterRefusal, readJsonBody } from './jsonBody';
import { McpSessions } from './mcpSessions';
import type { OwnerEventName, OwnerEvents } from './ownerEvents';
import { PersonConfirmations, isPersonAct } from './personConfirm';
import { readWorkspaceFile } from './workspaceFiles';

/**
 * A connection must show the token within this long, or it is closed: before, any local user could
 * hold idle loopback connections for 85 s each until the owner ran out of file descriptors.
 */
export const UNAUTHENTICATED_GRACE_MS = 1000;
/** At most this many connections wait for their token at once; more are closed on arrival. */
export const MAX_UNAUTHENTICATED = 64;

/** /rpc carries whole bundles to import (up to MAX_BUNDLE_CHARS, JSON-escaped once more). */
const MAX_RPC_BODY_BYTES = MAX_BUNDLE_CHARS * 2.5;
/** /changed carries paths only: MAX_CHANGED_PATHS long ones fit with room to spare. */
const MAX_CHANGED_BODY_BYTES = MAX_CHANGED_PATHS * 1024;

export interface HttpServeOptions {
  access: StoreAccess;
  workspaceRoot: () => string | null;
  /** Opens /rpc, /mcp and /health. */
  token: string;
  /** Opens /mcp and /health only. */
  mcpToken?: string;
  host?: string;
  port?: number;
  allowRemote?: boolean;
  logger: Logger;
  /** How many MCP sessions stay open at most, and how long an idle one is kept (defaults in mcpSessions.ts). */
  maxSessions?: number;
  sessionIdleMs?: number;
  /** The owner's watched listing for indexWorkspace (workspaceWatch.ts); without it each run walks. */
  files?: RpcRun['files'];
  /** What happens to the store, streamed at GET /events to holders of the owner's token. */
  events?: OwnerEvents;
  /** Where a person's act's code goes when the editor that started this owner asks (its stdout). */
  toParent?: (line: string) => void;
  /** A client's "check these paths now" (POST /changed: changedHint.ts); without it the endpoint is 404. */
  changed?: (paths: string[]) => void;
}

const EVENT_NAMES: readonly OwnerEventName[] = ['data', 'indexed', 'drift'];
/**
 * Endpoints only the owner's own token opens, never the MCP token: Lore's RPC (a person's confirmed
 * acts), a person's confirmation codes, the stream of every change to the store, and the hint that
 * files changed (it starts the owner's work).
 */
const OWNER_ONLY_PATHS: ReadonlySet<string> = new Set(['/rpc', '/confirm', '/events', '/changed']);

export interface RunningHttpServer {
  port: number;
  host: string;
  url: string;
  /** MCP sessions open now. */
  sessionCount(): number;
  /** Connections open now that have not yet shown the token. */
  unauthenticatedCount(): number;
  close(): Promise<void>;
}

function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startHttpServer(options: HttpServeOptions): Promise<RunningHttpServer> {
  const host = bindAddress(options.host, options.allowRemote);
  const sessions = new McpSessions(options.maxSessions, options.sessionIdleMs);
  let port = 0;

  const handleMcp = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readJsonBody(req, MAX_MCP_MESSAGE_BYTES, '/mcp') : undefined;
    const existing = typeof sessionId === 'string' ? sessions.use(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (sessionId)
      return sendJson(res, 404, {
        jsonrpc: '2.0',
        error: { code: -32001, message: 'unknown session; initialize again' },
        id: null,
      });
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJson(res, 400, {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'start with an initialize request' },
        id: null,
      });
    }
    await sessions.makeRoom();
    const server = buildServer({
      access: options.access,
      workspaceRoot: options.workspaceRoot,
      readFile: readWorkspaceFile,
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A whole JSON reply per POST, not an event stream: a client (lore mcp's relay) whose owner
      // dies mid-call sees the POST fail and can resend it elsewhere, instead of waiting forever.
      enableJsonResponse: true,
      onsessioninitialized: (id) => sessions.add(id, transport, server),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const confirmations = new PersonConfirmations(options.toParent);
  // POST /confirm { op, args, channel }: shows a person's act's one-time code on the channel and
  // answers with its id only; /rpc then runs the act when the code comes back with it.
  const handleConfirm = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return sendJson(res, 405, { error: { code: 'INVALID_INPUT', message: 'POST only' } });
    const body = (await readJsonBody(req, MAX_RPC_BODY_BYTES, '/confirm')) as { channel?: unknown };
    const call = checkRpc(body);
    sendJson(res, 200, { result: confirmations.begin(call.op, call.args, body?.channel), done: true });
  };

  const handleChanged = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return sendJson(res, 405, { error: { code: 'INVALID_INPUT', message: 'POST only' } });
    if (!options.changed)
      return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'this owner takes no change hints' } });
    const body = await readJsonBody(req, MAX_CHANGED_BODY_BYTES, '/changed');
    const paths = changedPaths(body, options.workspaceRoot() ?? '');
    options.changed(paths);
    // Accepted, not done: what the owner then finds arrives on /events.
    sendJson(res, 202, { result: { accepted: paths.length }, done: true });
  };

  const handleRpc = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return sendJson(res, 405, { error: { code: 'INVALID_INPUT', message: 'POST only' } });
    const body = (await readJsonBody(req, MAX_RPC_BODY_BYTES, '/rpc')) as { confirm?: unknown };
    const call = checkRpc(body);
    // The token lets a door say `human: true`; only the code shown to a person lets the act run.
    if (isPersonAct(call.op, call.args)) confirmations.check(call.op, call.args, body?.confirm);
    if (call.index) return indexRpc(res, call);
    // A .lore/kinds change lists the workspace as the index does: from the owner's watched listing.
    const run = { files: options.files };
    const result = await options.access.use((engine) => dispatchRpc(engine, options.workspaceRoot() ?? '', call, run));
    // `done` marks a whole answer, so a void result is told apart from an answer cut short.
    sendJson(res, 200, { result, done: true });
  };

  // Indexing runs for minutes: its answer is lines (progress as it goes, then the result or the
  // error), so a client shows progress and never waits on silence; a client that hangs up cancels it.
  const indexRpc = async (res: ServerResponse, call: RpcCall) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) controller.abort();
    });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (value: unknown) => JSON.stringify(value) + '\n';
    try {
      const run = {
        signal: controller.signal,
        onProgress: (progress: unknown) => res.write(line({ progress })),
        files: options.files,
      };
      const result = await options.access.use((engine) =>
        dispatchRpc(engine, options.workspaceRoot() ?? '', call, run),
      );
      res.end(line({ result }));
    } catch (error) {
      if (!isLoreError(error)) options.logger.error(`HTTP /rpc indexWorkspace: ${(error as Error)?.stack ?? error}`);
      res.end(
        line({
          error: isLoreError(error)
            ? error.toJSON()
            : { code: 'INTERNAL', message: String((error as Error)?.message ?? error) },
        }),
      );
    }
  };

  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const refused = refusedOrigin(req, { port, remote: host !== OWNER_CONNECT_HOST });
    if (refused) {
      // Another site (or a name rebound to this address) is answered without reading anything.
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'FORBIDDEN', message: `refused: ${refused}` } }));
      return;
    }
    const allowed =
      authorized(req, options.token) ||
      (!OWNER_ONLY_PATHS.has(path) && options.mcpToken !== undefined && authorized(req, options.mcpToken));
    if (!allowed) {
      // Nothing is read, parsed or opened for a request without the token, and its connection ends.
      res
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer', connection: 'close' })
        .end(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'missing or wrong bearer token' } }));
      return;
    }
    waiting.admit(req.socket);
    if (path === '/health') return sendJson(res, 200, { ok: true, pid: process.pid });
    if (path === '/events') return streamEvents(req, res, options.events);
    const work =
      path === '/mcp'
        ? handleMcp(req, res)
        : path === '/rpc'
          ? handleRpc(req, res)
          : path === '/confirm'
            ? handleConfirm(req, res)
            : path === '/changed'
              ? handleChanged(req, res)
              : Promise.resolve(sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `no endpoint ${path}` } }));
    work.catch((error) => {
      if (!isLoreError(error)) options.logger.error(`HTTP ${req.method} ${path}: ${(error as Error)?.stack ?? error}`);
      if (error instanceof RefusedBody) closeAfterRefusal(req, res);
      if (!res.headersSent)
        sendJson(res, error instanceof RefusedBody ? error.status : isLoreError(error) ? 400 : 500, {
          error: isLoreError(error)
            ? error.toJSON()
            : { code: 'INTERNAL', message: String((error as Error)?.message ?? error) },
        });
      else res.end();
    });
  });

  const waiting = new UnauthenticatedConnections(http);

  // A client that trickles its headers or body (slowloris) holds one connection, never the owner,
  // and not for long: a whole request, even the largest bundle, arrives on loopback in seconds.
  http.headersTimeout = 20_000;
  http.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  options.logger.info(`serving MCP on http://${urlHost}:${port}/mcp`);
  return {
    port,
    host,
    url: `http://${urlHost}:${port}`,
    sessionCount: () => sessions.size,
    unauthenticatedCount: () => waiting.size,
    close: async () => {
      waiting.closeAll();
      await sessions.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Connections that have not shown the token yet: each gets UNAUTHENTICATED_GRACE_MS, and only so many wait. */
class UnauthenticatedConnections {
  private readonly timers = new Map<Socket, NodeJS.Timeout>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      if (this.timers.size >= MAX_UNAUTHENTICATED) {
        socket.destroy();
        return;
      }
      // Checked after the event loop has read what arrived meanwhile (setImmediate runs after I/O):
      // an owner busy for over a second must not close clients whose request is already waiting.
      const timer = setTimeout(
        () => setImmediate(() => this.timers.has(socket) && socket.destroy()),
        UNAUTHENTICATED_GRACE_MS,
      );
      // The owner's life is its server's, not these timers'.
      timer.unref();
      this.timers.set(socket, timer);
      socket.once('close', () => this.forget(socket));
    });
  }

  get size(): number {
    return this.timers.size;
  }

  /** The socket carried a request with the token: it is a client's, kept like any other. */
  admit(socket: Socket): void {
    this.forget(socket);
  }

  closeAll(): void {
    for (const socket of [...this.timers.keys()]) socket.destroy();
  }

  private forget(socket: Socket): void {
    clearTimeout(this.timers.get(socket));
    this.timers.delete(socket);
  }
}

/**
 * GET /events[?events=data,indexed,drift]: Server-Sent Events, one `data:` line of JSON per event
 * (default: data and indexed; drift findings only when asked, since gathering them costs a check).
 */
function streamEvents(req: IncomingMessage, res: ServerResponse, events: OwnerEvents | undefined): void {
  if (req.method !== 'GET') return sendJson(res, 405, { error: { code: 'INVALID_INPUT', message: 'GET /events' } });
  if (!events) return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'this owner streams no events' } });
  const asked = new URL(req.url ?? '/', 'http://owner').searchParams.get('events');
  const names = (asked ?? 'data,indexed').split(',').filter(Boolean);
  const unknown = names.filter((n) => !EVENT_NAMES.includes(n as OwnerEventName));
  if (unknown.length || !names.length)
    return sendJson(res, 400, {
      error: {
        code: 'INVALID_INPUT',
        message: `events: unknown event ${unknown[0] ?? '(none named)'}`,
        hint: `name some of ${EVENT_NAMES.join(', ')}, comma-separated`,
      },
    });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  // A comment first, so the client knows it is subscribed before anything happens.
  res.write(': subscribed\n\n');
  const stop = events.subscribe(names as OwnerEventName[], (event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
  res.once('close', stop);
}
