// The Streamable-HTTP sessions an owner keeps open: one MCP server per client session. Each holds
// memory for as long as it lives, and clients often never end theirs (1,000 initialize calls once
// grew an owner by 370 MB for good), so a session is freed when its client ends it (DELETE), when
// it has been idle for `idleMs`, or, least recently used first, when `max` are open and another
// client initializes. A client whose session was freed gets 404 and, as the MCP spec asks of it,
// initializes again (lore mcp's relay does so by itself).

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export const MAX_MCP_SESSIONS = 64;
export const MCP_SESSION_IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
}

export class McpSessions {
  /** In order of last use, oldest first (a Map keeps insertion order; use re-inserts). */
  private readonly open = new Map<string, Session>();

  constructor(
    private readonly max = MAX_MCP_SESSIONS,
    private readonly idleMs = MCP_SESSION_IDLE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** The session's transport, marked as used now; undefined when it was never opened or was freed. */
  use(id: string): StreamableHTTPServerTransport | undefined {
    const session = this.open.get(id);
    if (!session) return undefined;
    session.lastUsed = this.now();
    this.open.delete(id);
    this.open.set(id, session);
    return session.transport;
  }

  add(id: string, transport: StreamableHTTPServerTransport, server: McpServer): void {
    this.open.set(id, { transport, server, lastUsed: this.now() });
  }

  forget(id: string): void {
    this.open.delete(id);
  }

  /** Before a new session: frees the idle ones, then the least recently used until one more fits. */
  async makeRoom(): Promise<void> {
    const idleSince = this.now() - this.idleMs;
    for (const [id, session] of [...this.open]) {
      if (session.lastUsed > idleSince && this.open.size < this.max) break;
      await this.free(id, session);
    }
  }

  async closeAll(): Promise<void> {
    for (const [id, session] of [...this.open]) await this.free(id, session);
  }

  private async free(id: string, session: Session): Promise<void> {
    this.open.delete(id);
    // Closing the server closes its transport: its streams end and its handlers are released.
    await session.server.close().catch(() => undefined);
  }
}
