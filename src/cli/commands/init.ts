// `lore init [--agent HOST]... [--dry-run | --yes] [--force]`: writes the MCP configuration and an
// instructions snippet for the agent hosts the repository uses (or those named). It shows the plan
// first and writes only with consent (the terminal's yes, or --yes); a second run changes nothing.
// The command written is one that starts on this machine (src/cli/loreLaunch.ts). All files are
// planned before any is written; a file Lore cannot read stops the run with nothing written.

import { chmodSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  AGENT_HOSTS,
  HOST_SIGNS,
  commandLine,
  detectHosts,
  hostLabel,
  planAgentSetup,
  type AgentHost,
  type PlannedChange,
} from '../agentSetup';
import type { Command } from '../command';
import { launchCommand, pathHint, type LaunchCommand } from '../loreLaunch';
import { UsageError } from '../parse';

function chosenHosts(values: unknown, workspace: string): AgentHost[] {
  const given = Array.isArray(values) ? values : values === undefined ? [] : [values];
  const named = given.flatMap((v) => String(v).split(','));
  for (const name of named) {
    if (!(AGENT_HOSTS as readonly string[]).includes(name)) {
      throw new UsageError(`--agent ${name} is not a host lore init knows`, `use --agent ${AGENT_HOSTS.join('|')}`);
    }
  }
  if (named.length) return [...new Set(named as AgentHost[])];
  const found = detectHosts(workspace);
  if (!found.length) {
    throw new UsageError(
      `found no agent host's files in ${workspace} (${HOST_SIGNS.join(', ')})`,
      `name the host: lore init --agent ${AGENT_HOSTS.join('|')}`,
    );
  }
  return found;
}

const launchNote = (launch: LaunchCommand) =>
  launch.command === 'lore'
    ? 'hosts will run `lore mcp` (lore is on PATH)'
    : `lore is not on PATH, so hosts will run ${commandLine(launch)}; to write \`lore mcp\` instead, ` +
      `${pathHint()} and run lore init --force`;

/** What became of each file: after writing, "wrote" for those written. */
const outcome = (c: PlannedChange, written: boolean) =>
  written && c.content !== undefined ? 'wrote' : c.action === 'conflict' ? 'kept' : c.action;

function render(
  hosts: AgentHost[],
  launch: LaunchCommand,
  plan: PlannedChange[],
  written: boolean | 'dry-run',
): string {
  const lines = [`lore init for ${hosts.map(hostLabel).join(', ')} (${launchNote(launch)}):`];
  for (const c of plan) lines.push(`  ${outcome(c, written === true).padEnd(9)} ${c.path.padEnd(32)} ${c.what}`);
  const pending = plan.filter((c) => c.content !== undefined).length;
  if (!pending) lines.push('nothing to change');
  else if (written === true) lines.push(`wrote ${pending} file(s)`);
  else lines.push(written === 'dry-run' ? `dry run: ${pending} file(s) would change` : 'nothing written');
  return lines.join('\n');
}

/** Replaces the file through a temp file and a rename, keeping its permissions. */
function writeWhole(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    mode = undefined;
  }
  const temp = `${path}.lore-init-${process.pid}`;
  writeFileSync(temp, content);
  if (mode !== undefined) chmodSync(temp, mode);
  renameSync(temp, path);
}

export const initCommand: Command = {
  name: 'init',
  summary:
    'set up agent hosts: MCP config (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, ' +
    '.gemini/settings.json), instructions',
  usage:
    `lore init [--agent ${AGENT_HOSTS.join('|')}]... [--dry-run | --yes] [--force]` +
    '   (without --agent: the hosts whose files are in the repository)',
  options: {
    agent: { type: 'string', multiple: true },
    yes: { type: 'boolean', short: 'y' },
    'dry-run': { type: 'boolean' },
    force: { type: 'boolean' },
  },
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx, v) {
    if (v.yes && v['dry-run']) throw new UsageError('give --dry-run or --yes, not both');
    const hosts = chosenHosts(v.agent, ctx.workspace);
    const launch = launchCommand(['mcp']);
    const plan = planAgentSetup(ctx.workspace, hosts, launch, { replace: v.force === true });
    const changes = plan.filter((c) => c.content !== undefined);
    const report = (written: boolean | 'dry-run') =>
      ctx.print(
        {
          hosts,
          command: launch,
          changes: plan.map(({ content: _c, ...rest }) => ({ ...rest, written: written === true && !!_c })),
          written: written === true,
        },
        () => render(hosts, launch, plan, written),
      );
    const invalid = plan.filter((c) => c.action === 'invalid');
    if (invalid.length) {
      report(false);
      throw new UsageError(
        `${invalid.map((c) => `${c.path} ${c.what}`).join('; ')}; lore init wrote nothing`,
        `fix the file, or add the lore server to it yourself (${commandLine(launch)})`,
      );
    }
    if (!changes.length || v['dry-run']) {
      report('dry-run');
      return 0;
    }
    if (!v.yes) {
      if (!ctx.interactive) {
        report(false);
        throw new UsageError(
          'lore init writes only with your consent',
          'run it in a terminal to be asked, or pass --yes; --dry-run only shows the plan',
        );
      }
      process.stdout.write(render(hosts, launch, plan, 'dry-run') + '\n');
      const answer = await ctx.ask(`Write ${changes.length} file(s) in ${ctx.workspace}? [y/N] `);
      if (!/^y(es)?$/i.test(answer.trim())) {
        ctx.print({ hosts, written: false }, () => 'nothing written');
        return 1;
      }
    }
    for (const c of changes) writeWhole(join(ctx.workspace, c.path), c.content!);
    report(true);
    return 0;
  },
};
