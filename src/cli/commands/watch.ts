// `lore watch`: own the store and serve it on loopback like `lore serve`, which keeps the workspace
// index and drift current as files change, and print what it does as it happens.

import type { Command } from '../command';

export const watchCommand: Command = {
  name: 'watch',
  summary: 'serve the store like lore serve and print what it does as files change (index runs, drift)',
  usage: 'lore watch',
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const { runWatch } = await import('../watchIndex');
    return runWatch(ctx);
  },
};
