// `lore watch`: own the store, serve it on loopback like `lore serve`, and keep the workspace
// index fresh as files change (chokidar; changes are gathered for a moment, then the changed
// files are indexed incrementally).

import type { Command } from '../command';

export const watchCommand: Command = {
  name: 'watch',
  summary: 'keep the workspace index fresh as files change (and serve the store like lore serve)',
  usage: 'lore watch',
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const { runWatch } = await import('../watchIndex');
    return runWatch(ctx);
  },
};
