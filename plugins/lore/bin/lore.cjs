#!/usr/bin/env node
// Starts Lore's CLI for the Claude Code plugin (its MCP server and hooks run `node lore.cjs ARGS`).
// Claude Code copies a plugin into its own cache, so the plugin cannot reach the clone by a
// relative path: `npm run build` writes the absolute path of the CLI it built into cli-path.txt
// beside this file. Without it (or when that CLI is gone), `lore` on PATH; without that, it says
// how to fix it and exits 1 (a hook's failure never blocks a session).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { delimiter, join } = require('node:path');

function builtCli() {
  try {
    const cli = readFileSync(join(__dirname, 'cli-path.txt'), 'utf8').trim();
    return cli && existsSync(cli) ? cli : undefined;
  } catch {
    return undefined;
  }
}

function loreOnPath() {
  const dirs = (process.env.PATH || '').split(delimiter).filter(Boolean);
  return dirs.map((dir) => join(dir, 'lore')).find((file) => existsSync(file));
}

const cli = process.env.LORE_CLI || builtCli();
if (cli) {
  // The CLI reads its arguments from process.argv.slice(2), which are this script's own.
  process.argv[1] = cli;
  require(cli);
} else {
  const lore = loreOnPath();
  if (!lore) {
    process.stderr.write(
      "Lore's CLI was not found: the plugin was installed before `npm run build`, and `lore` is not on PATH.\n" +
        'In your Lore clone run `npm ci && npm run build`, then reinstall the plugin ' +
        '(claude plugin marketplace update lore-local && claude plugin install lore@lore-local), ' +
        'or put lore on PATH there with `npm install -g .`.\n',
    );
    process.exit(1);
  }
  const run = spawnSync(lore, process.argv.slice(2), { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
