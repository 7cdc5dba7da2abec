// What `lore mcp` puts between its stdio client and the store: the workspace's live owner
// (relayed over loopback HTTP, messages unchanged) or, when there is none, an MCP server in this
// process that becomes the owner. When a relayed owner dies mid-session (the editor that owned the
// store was closed), the bridge elects again — relays to whoever owns the store now, or takes the
// store over itself — replays the client's initialize handshake to the new upstream, and resends
// the message that failed. The agent sees no error.

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../engine';
import { storePaths } from '../host/dataDir';
import { findLiveOwner } from '../host/owner';
import { ownerServer } from '../host/ownerServer';
import { buildServer } from '../mcp/server';

interface Upstream {
  kind: 'relay' | 'local';
  transport: Transport;
  close(): Promise<void>;
}

type Message = JSONRPCMessage & { id?: string | number; method?: string };

/** Ids of the handshake the bridge replays itself; their answers are not the client's. */
const REPLAY_ID_PREFIX = 'lore-bridge-replay-';

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
    await this.switching;
    const upstream = this.upstream;
    if (!upstream) return;
    try {
      await upstream.transport.send(message);
      return;
    } catch (error) {
      if (upstream.kind !== 'relay' || this.closed) return this.fail(message, error as Error);
      this.logger.warn(`the Lore process that owned the store stopped answering (${(error as Error).message}); electing again`);
    }
    try {
      await this.failover(upstream);
      await this.upstream!.transport.send(message);
    } catch (error) {
      await this.fail(message, error as Error);
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
    await this.toClient({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `Lore could not pass this request on (${error.message}); restart the MCP server` } });
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
    let owner;
    try {
      owner = await findLiveOwner(storePaths(this.workspace).owner);
    } catch (error) {
      // No usable workspace yet: still speak MCP; every tool says what to do, and each call
      // tries again, so a folder that appears later is used.
      this.logger.warn(`workspace not usable yet: ${(error as Error).message}`);
    }
    // The MCP token is enough to relay; an owner from before it existed has only the full one.
    return owner ? this.relayTo(owner.url, owner.info.mcp_token ?? owner.info.token) : this.serveHere();
  }

  private async relayTo(url: string, token: string): Promise<Upstream> {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    transport.onmessage = (message) => this.fromUpstream(message);
    await transport.start();
    return { kind: 'relay', transport, close: () => transport.close() };
  }

  private async serveHere(): Promise<Upstream> {
    const served = ownerServer({ workspace: this.workspace, door: 'lore mcp', logger: this.logger });
    try {
      served.access.open();
    } catch (error) {
      this.logger.warn(`store not available yet: ${(error as Error).message}`);
    }
    const server = buildServer({ access: served.access, workspaceRoot: () => served.access.describe().workspace });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    clientSide.onmessage = (message) => this.fromUpstream(message);
    await clientSide.start();
    return {
      kind: 'local',
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
