// What `lore mcp` puts between its stdio client and the store: the workspace's live owner
// (relayed over loopback HTTP, messages unchanged) or, when there is none, an MCP server in this
// process that becomes the owner. When a relayed owner dies mid-session (the editor that owned the
// store was closed), the bridge elects again — relays to whoever owns the store now, or takes the
// store over itself — replays the client's initialize handshake to the new upstream, and resends
// the message that failed. The agent sees no error. Electing goes through connect() (host/
// connect.ts), which waits while another process holds the lock but serves nothing yet (several
// relays electing at once after their owner died), so a relay ends up relaying instead of
// answering STORE_BUSY. Where no store could be reached (no workspace yet, or busy past the wait),
// an in-process server answers with what to do, and every later call elects again first.

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../engine';
import { connect } from '../host/connect';
import { REQUEST_DEADLINE_MS, fetchWithDeadline } from '../host/ownerRequest';
import { ownerServer, type OwnerServer } from '../host/ownerServer';
import { readWorkspaceFile } from '../host/workspaceFiles';
import { buildServer } from '../mcp/server';

interface Upstream {
  kind: 'relay' | 'local';
  /** False for a local server without a store: the next call elects again before it is served. */
  settled(): boolean;
  transport: Transport;
  close(): Promise<void>;
}

/** One relayed request, its answer read whole (enableJsonResponse), within the request deadline. */
const relayFetch = (url: string | URL, init?: RequestInit): Promise<Response> =>
  fetchWithDeadline(url, init ?? {}, REQUEST_DEADLINE_MS, 'a relayed MCP request', async (response) => {
    // A GET opens the server's event stream, which stays open by design: only POSTs are read whole.
    if ((init?.method ?? 'GET') !== 'POST' || !response.body) return response;
    const body = await response.arrayBuffer();
    return new Response(response.status === 204 || response.status === 202 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  });

type Message = JSONRPCMessage & { id?: string | number; method?: string };

/** Ids of the handshake the bridge replays itself; their answers are not the client's. */
const REPLAY_ID_PREFIX = 'lore-bridge-replay-';
/** Elections one message may go through before its client is told it failed. */
const ELECTION_ROUNDS = 4;

export class McpBridge {
  private upstream: Upstream | undefined;
  private switching: Promise<void> | undefined;
  private initialize: Message | undefined;
  private initialized: Message | undefined;
  private replays = 0;
  private closed = false;

  constructor(
    private readonly workspace: string,
    private readonly toClient: (message: JSONRPCMessage) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /** Which upstream serves now: for status and tests. */
  get mode(): 'relay' | 'local' | 'none' {
    return this.upstream?.kind ?? 'none';
  }

  async connect(): Promise<void> {
    this.upstream = await this.elect();
  }

  /** A message from the client: remembered if it is the handshake, then passed on. */
  async handle(message: Message): Promise<void> {
    if (message.method === 'initialize' && message.id !== undefined) this.initialize = message;
    else if (message.method === 'notifications/initialized') this.initialized = message;
    const handshake = message.method === 'initialize' || message.method === 'notifications/initialized';
    let lastError: Error | undefined;
    /** The upstream this message last failed on: elect again only if nobody replaced it meanwhile. */
    let failedOn: Upstream | undefined;
    // A failed relay elects again and resends; a new owner can die too, so a few rounds.
    for (let round = 0; round < ELECTION_ROUNDS; round++) {
      await this.switching?.catch(() => undefined);
      const current = this.upstream;
      if (!current) return;
      // Messages in flight together all fail when their owner dies; the first to notice elects,
      // the others use what it elected (electing again would close it under them).
      const stale = failedOn ? current === failedOn : !(current.settled() || handshake || this.closed);
      const upstream = stale ? await this.elected(current) : current;
      if (!upstream) {
        // The election failed too (the owner it found died as well): the next round elects again.
        failedOn = this.upstream;
        continue;
      }
      try {
        await upstream.transport.send(message);
        return;
      } catch (error) {
        lastError = error as Error;
        if (upstream.kind !== 'relay' || this.closed) break;
        failedOn = upstream;
        this.logger.warn(
          `the Lore process that owned the store stopped answering (${lastError.message}); electing again`,
        );
      }
    }
    await this.fail(message, lastError ?? new Error('no Lore process could serve the store'));
  }

  /** The upstream after electing again in place of `stale`, or undefined when the election failed. */
  private async elected(stale: Upstream): Promise<Upstream | undefined> {
    try {
      await this.failover(stale);
      return this.upstream;
    } catch (error) {
      this.logger.warn(`election failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.switching?.catch(() => undefined);
    await this.upstream?.close();
    this.upstream = undefined;
  }

  private async fail(message: Message, error: Error): Promise<void> {
    if (message.id === undefined || message.method === undefined) return;
    await this.toClient({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: -32603,
        message: `Lore could not pass this request on (${error.message}); restart the MCP server`,
      },
    });
  }

  /** One election per dead upstream, however many messages notice it. */
  private failover(dead: Upstream): Promise<void> {
    if (this.upstream !== dead) return this.switching ?? Promise.resolve();
    this.switching = (async () => {
      await dead.close().catch(() => undefined);
      this.upstream = await this.elect();
      await this.replayHandshake(this.upstream);
    })();
    return this.switching;
  }

  private async elect(): Promise<Upstream> {
    const become = () => {
      const served = ownerServer({ workspace: this.workspace, door: 'lore mcp', logger: this.logger });
      served.access.open();
      return served;
    };
    try {
      const found = await connect(this.workspace, { become });
      // The MCP token is enough to relay; an owner from before it existed has only the full one.
      if (found.kind === 'client')
        return await this.relayTo(found.owner.url, found.owner.info.mcp_token ?? found.owner.info.token);
      return await this.serveHere(found.store);
    } catch (error) {
      // No usable workspace or store yet: still speak MCP; every tool says what to do, and each
      // call elects again, so a folder that appears later, or an owner that starts, is used.
      this.logger.warn(`store not available yet: ${(error as Error).message}`);
      return this.serveHere(ownerServer({ workspace: this.workspace, door: 'lore mcp', logger: this.logger }));
    }
  }

  private async relayTo(url: string, token: string): Promise<Upstream> {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      // A stopped or stuck owner must not hold the agent's call forever: past the deadline the
      // send fails, and handle() elects again like for an owner that died.
      fetch: relayFetch,
    });
    transport.onmessage = (message) => this.fromUpstream(message);
    await transport.start();
    return { kind: 'relay', settled: () => true, transport, close: () => transport.close() };
  }

  private async serveHere(served: OwnerServer): Promise<Upstream> {
    const server = buildServer({
      access: served.access,
      workspaceRoot: () => served.access.describe().workspace,
      readFile: readWorkspaceFile,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    clientSide.onmessage = (message) => this.fromUpstream(message);
    await clientSide.start();
    return {
      kind: 'local',
      // Settled once its store is open (here, or by a later call that found the folder).
      settled: () => served.access.describe().state === 'open',
      transport: clientSide,
      close: async () => {
        await server.close();
        await served.close();
      },
    };
  }

  private fromUpstream(message: JSONRPCMessage): void {
    const id = (message as Message).id;
    if (typeof id === 'string' && id.startsWith(REPLAY_ID_PREFIX)) return;
    void this.toClient(message);
  }

  /** The new upstream has not met this client: it gets the client's own handshake again. */
  private async replayHandshake(upstream: Upstream): Promise<void> {
    if (!this.initialize) return;
    const id = `${REPLAY_ID_PREFIX}${++this.replays}`;
    const answered = new Promise<void>((resolve) => {
      const forward = upstream.transport.onmessage!;
      upstream.transport.onmessage = (message, extra) => {
        if ((message as Message).id === id) {
          upstream.transport.onmessage = forward;
          resolve();
          return;
        }
        forward(message, extra);
      };
    });
    await upstream.transport.send({ ...this.initialize, id } as JSONRPCMessage);
    await answered;
    if (this.initialized) await upstream.transport.send(this.initialized);
  }
}
