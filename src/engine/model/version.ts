// Lore's own version, read from package.json at build time (the bundler inlines only this field),
// so the CLI's `--version`, the MCP server's name card and a store's migration record say one thing.

import { version } from '../../../package.json';

export const LORE_VERSION: string = version;
