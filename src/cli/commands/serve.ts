// `lore serve`: own the workspace's store and serve MCP over Streamable HTTP on loopback, with
// the bearer token kept in owner.json (mode 0600). Runs until interrupted.

import type { Command } from '../command';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'own the store and serve MCP over HTTP on 127.0.0.1 (token in owner.json)',
  usage: 'lore serve [--port N] [--host 127.0.0.1] [--allow-remote] [--exit-with-stdin]',
  // --exit-with-stdin: stop when stdin closes, so a parent (the editor) that dies takes it along.
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-remote': { type: 'boolean' },
    'exit-with-stdin': { type: 'boolean' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    const { runServe } = await import('../serveMcp');
    return runServe(ctx, v);
  },
};
