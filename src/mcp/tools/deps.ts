// What every tool module is handed: the store access, who is calling, and the host's file reader.

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
  /** Reads a workspace file for read_file and lore://doc/…; the host supplies it, so src/mcp never
   *  touches the file system. */
  readFile: WorkspaceFileReader;
}

/** A workspace file as handed to an agent: its relative path, redacted text and the lines read. */
export interface WorkspaceFileText {
  path: string;
  text: string;
  total_lines: number;
  start_line: number;
  end_line: number;
  redactions: number;
}

/** Refuses (LoreError) paths outside the workspace, secret files and binaries; redacts secrets. */
export type WorkspaceFileReader = (
  root: string,
  path: string,
  startLine?: number,
  endLine?: number,
) => WorkspaceFileText;
