// `lore`: the command-line door. Parses global options (--workspace, --json) and the command's
// own, runs it, and turns every error into one clear line on stderr and a non-zero exit.

import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { isLoreError, LORE_VERSION } from '../engine';
import { findWorkspaceRoot } from '../host/dataDir';
import { cliActor, withStore, type Command, type CommandContext } from './command';
import { COMMANDS } from './commands';
import { UsageError } from './parse';
import { terminalSafe, terminalSafeJson } from './terminalText';

const GLOBAL_OPTIONS = {
  workspace: { type: 'string' as const, short: 'w' },
  json: { type: 'boolean' as const },
  help: { type: 'boolean' as const, short: 'h' },
  // A shared PostgreSQL store (else LORE_STORE, else the SQLite file): host/store/storeSetting.ts.
  store: { type: 'string' as const },
};

/** Where commands look when --workspace is not given (the README says the same). */
const WORKSPACE_DEFAULT =
  'the repository around the current folder — the nearest folder with .git — or the current folder';

function helpText(command?: Command): string {
  if (command)
    return (
      `${command.summary}\n\nusage: ${command.usage}\n\nglobal options: ` +
      `--workspace DIR (default: ${WORKSPACE_DEFAULT}), --store postgresql://… (default: LORE_STORE, ` +
      'else the SQLite store in the data directory), --json'
    );
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `lore ${LORE_VERSION} — a durable engineering memory for your repository`,
    '',
    `usage: lore [--workspace DIR] [--json] COMMAND [options]   (the workspace defaults to ${WORKSPACE_DEFAULT})`,
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "lore help COMMAND shows a command's options.",
  ].join('\n');
}

function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"`, 'run `lore help` for the list of commands');
  return command;
}

export async function main(argv: string[]): Promise<number> {
  const commandIndex = argv.findIndex(
    (arg, i) => !arg.startsWith('-') && !(i > 0 && ['--workspace', '-w', '--store'].includes(argv[i - 1])),
  );
  const name = commandIndex >= 0 ? argv[commandIndex] : undefined;
  let json = argv.includes('--json');
  try {
    if (!name && argv.includes('--version')) {
      process.stdout.write(`${LORE_VERSION}\n`);
      return 0;
    }
    if (!name || name === 'help') {
      const topic = name === 'help' ? argv[commandIndex + 1] : undefined;
      process.stdout.write(helpText(topic ? findCommand(topic) : undefined) + '\n');
      return 0;
    }
    if (name === 'version') {
      process.stdout.write(`${LORE_VERSION}\n`);
      return 0;
    }
    const command = findCommand(name);
    const args = [...argv.slice(0, commandIndex), ...argv.slice(commandIndex + 1)];
    let parsed;
    try {
      parsed = parseArgs({
        args,
        options: { ...GLOBAL_OPTIONS, ...command.options },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      // parseArgs explains over several lines; the first says what was wrong.
      const [first] = (error as Error).message.split('\n');
      throw new UsageError(
        `${first.replace(/^Unknown option/, 'unknown option')} (lore ${command.name})`,
        `usage: ${command.usage}`,
      );
    }
    const { values, positionals } = parsed;
    json = values.json === true;
    if (values.help) {
      process.stdout.write(helpText(command) + '\n');
      return 0;
    }
    const { min, max, names } = command.positionals;
    if (positionals.length < min)
      throw new UsageError(`lore ${command.name} needs ${names}`, `usage: ${command.usage}`);
    if (positionals.length > max)
      throw new UsageError(
        `lore ${command.name} got unexpected argument(s): ${positionals.slice(max).join(' ')}`,
        `usage: ${command.usage}`,
      );

    const workspace = typeof values.workspace === 'string' ? values.workspace : findWorkspaceRoot(process.cwd());
    const ctx: CommandContext = {
      workspace,
      workspaceGiven: typeof values.workspace === 'string',
      json,
      interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
      print: (result, human) =>
        process.stdout.write(
          (json ? terminalSafeJson(JSON.stringify(result, null, 2)) : terminalSafe(human(result))) + '\n',
        ),
      withEngine: (work, use) =>
        withStore(workspace, work, use, typeof values.store === 'string' ? values.store : undefined),
      actor: () => cliActor(false),
      ask: async (question) => {
        const rl = createInterface({ input: process.stdin, output: process.stdout });
        try {
          return await rl.question(terminalSafe(question));
        } finally {
          rl.close();
        }
      },
    };
    return await command.run(ctx, values as Record<string, string | boolean | string[] | undefined>, positionals);
  } catch (error) {
    return reportError(error, json);
  }
}

function reportError(error: unknown, json: boolean): number {
  if (isLoreError(error)) {
    if (json) process.stdout.write(terminalSafeJson(JSON.stringify({ error: error.toJSON() }, null, 2)) + '\n');
    process.stderr.write(terminalSafe(`lore: ${error.message}${error.hint ? ` (${error.hint})` : ''}`) + '\n');
    return error instanceof UsageError ? 2 : 1;
  }
  // An unexpected failure: still one line, plus where to look.
  process.stderr.write(
    terminalSafe(`lore: unexpected error: ${(error as Error)?.message ?? String(error)}`) +
      ' (run with LORE_DEBUG=1 for the stack)\n',
  );
  if (process.env.LORE_DEBUG) process.stderr.write(`${(error as Error)?.stack}\n`);
  return 1;
}

/** Runs the command line this process was started with (dist/cli.js calls it; see start.ts). */
export function start(): void {
  let settled = false;
  // The last guard against a silent success: should the event loop ever empty while the command
  // still waits (a request with nothing keeping the process alive), that is a failure, said so.
  const unfinished = () => {
    if (settled) return;
    settled = true;
    process.stderr.write('lore: the command ended without an answer from the store (this is a bug in Lore)\n');
    process.exitCode = 1;
  };
  process.once('beforeExit', unfinished);
  main(process.argv.slice(2)).then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (error) => {
      settled = true;
      process.stderr.write(terminalSafe(`lore: ${(error as Error).message}`) + '\n');
      process.exitCode = 1;
    },
  );
}

if (require.main === module) start();
