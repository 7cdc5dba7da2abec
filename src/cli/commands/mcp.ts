// `lore mcp`: the MCP server over stdio, for agents outside the editor (e.g. `claude mcp add lore
// -- lore mcp`). When another Lore process owns the store it relays to that owner; otherwise it
// becomes the owner (and serves loopback HTTP for the processes that come after it). It starts
// even with no usable store: tools then answer with what to do.

import type { Command } from '../command';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'run the MCP server on stdio (for Claude Code, Cursor and other MCP hosts)',
  usage: 'lore mcp [--workspace DIR]',
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const { runMcpStdio } = await import('../serveMcp');
    return runMcpStdio(ctx);
  },
};
