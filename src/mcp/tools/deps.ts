// What every tool module is handed: the store access and who is calling.

import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../../engine';
import type { StoreAccess } from '../access';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolDeps {
  access: StoreAccess;
  /** The calling agent, named by the client it connected with. Never human. */
  actor(extra: Extra): Actor;
  /** The connected client's name, for provenance. */
  clientName(): string;
  workspaceRoot(): string | null;
}
