// How an agent host starts this Lore: the command `lore init` writes into a host's configuration
// and `lore doctor` checks. A bare `lore` is written only when `lore` on PATH is this very CLI (after
// `npm install -g .` or `npm link`); otherwise the host gets Node and the absolute path of the CLI,
// which works without any PATH set-up. Also: whether a configured command resolves on this machine.

import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

export interface LaunchCommand {
  command: string;
  args: string[];
}

/** The CLI this process runs from: dist/cli.js beside the bundle. */
export function installedCli(): string {
  return join(__dirname, 'cli.js');
}

/** The folder `npm install -g` would take to put this CLI on PATH (the package root). */
export function packageRoot(cli = installedCli()): string {
  return dirname(dirname(cli));
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file a bare command name runs from PATH, or undefined. */
export function resolveOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Whether `lore` on PATH is the CLI at `cli`. */
export function loreOnPathIs(cli: string, path = process.env.PATH): boolean {
  const found = resolveOnPath('lore', path);
  return found !== undefined && sameFile(found, cli);
}

/** The command that runs `lore ARGS...` with this CLI, for a host's configuration. */
export function launchCommand(
  args: string[],
  options: { cli?: string; path?: string; node?: string } = {},
): LaunchCommand {
  const cli = options.cli ?? installedCli();
  if (loreOnPathIs(cli, options.path)) return { command: 'lore', args };
  return { command: options.node ?? process.execPath, args: [cli, ...args] };
}

/** How to make `lore` a command on PATH for this CLI. */
export function pathHint(cli = installedCli()): string {
  return `run \`npm install -g .\` in ${packageRoot(cli)} (or \`npm link\` there) to put lore on PATH`;
}

/**
 * Why a configured command would not start on this machine, or undefined when it would: the
 * command must resolve (an absolute executable, or a name on PATH), and a script it is given as
 * its first argument (node's /path/to/cli.js) must exist.
 */
export function launchProblem(
  launch: LaunchCommand,
  options: { path?: string; cwd?: string } = {},
): string | undefined {
  const { command, args } = launch;
  if (!command) return 'the command is empty';
  if (isAbsolute(command) || command.includes('/')) {
    const full = resolve(options.cwd ?? process.cwd(), command);
    if (!isExecutableFile(full)) return `${command} does not exist or is not executable`;
  } else if (!resolveOnPath(command, options.path)) {
    return `\`${command}\` is not on PATH`;
  }
  const script = args[0];
  if (script && /\.[cm]?js$/.test(script) && !existsSync(resolve(options.cwd ?? process.cwd(), script))) {
    return `${script} does not exist`;
  }
  return undefined;
}
