// `lore serve`: own the workspace's store and serve MCP over Streamable HTTP on loopback, with
// the bearer token kept in owner.json (mode 0600). Runs until interrupted.

import { LoreError } from '../../engine';
import { stderrLogger } from '../../host/logger';
import { ownerServer } from '../../host/ownerServer';
import type { Command } from '../command';
import { integerOption, stringOption } from '../parse';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'own the store and serve MCP over HTTP on 127.0.0.1 (token in owner.json)',
  usage: 'lore serve [--port N] [--host 127.0.0.1] [--allow-remote]',
  options: { port: { type: 'string' }, host: { type: 'string' }, 'allow-remote': { type: 'boolean' } },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    const port = integerOption('port', v.port);
    if (port !== undefined && (port < 0 || port > 65535)) throw new LoreError('INVALID_INPUT', '--port must be from 0 to 65535');
    const logger = stderrLogger('info');
    const owner = ownerServer({ workspace: ctx.workspace, door: 'lore serve', logger, host: stringOption(v.host), port, allowRemote: v['allow-remote'] === true });
    const store = owner.access.open();
    let http;
    try {
      http = await owner.http();
    } catch (error) {
      await owner.close();
      throw error;
    }
    ctx.print({ url: `${http.url}/mcp`, port: http.port, owner_file: store.paths.owner, workspace: store.paths.workspaceRoot }, (r) =>
      `Lore serves ${r.workspace}\nMCP endpoint: ${r.url}\nbearer token: in ${r.owner_file} (field "token"; readable only by you)\nstop with Ctrl-C`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await owner.close();
    return 0;
  },
};
