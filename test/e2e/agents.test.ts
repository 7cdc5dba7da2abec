// The Claude Code plugin in plugins/lore (found through .claude-plugin/marketplace.json) and its
// capture hooks, run through the built CLI with the JSON Claude Code sends on stdin: candidates go
// to the Inbox and never straight into memory; a missing or broken store stays silent with exit 0.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { storePaths } from '../../src/host/dataDir';
import { CLI, sandbox, stdioAgent, type Sandbox } from '../support/processes';
import { tempDir } from '../support/store';

const ROOT = resolve(__dirname, '..', '..');

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function frontMatter(path: string): Record<string, string> {
  const text = readFileSync(path, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(match, `${path} starts with YAML front matter`);
  return Object.fromEntries(
    match[1]
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

function cli(box: Sandbox, args: string[], input = '') {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: box.env, input, encoding: 'utf8', cwd: box.workspace });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** A transcript the way Claude Code writes it: one JSON event a line. */
function transcript(box: Sandbox, events: unknown[]): string {
  const path = join(box.workspace, '..', 'transcript.jsonl');
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return path;
}

const say = (text: string) => ({
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text }] },
});
const fenced = (candidate: unknown) => '```lore-candidate\n' + JSON.stringify(candidate) + '\n```';
const deadEnd = {
  type: 'dead_end',
  title: 'Redis lists as the job queue',
  description: 'Lost jobs on failover',
  body: 'Switched to Postgres.',
};
const decision = {
  type: 'decision',
  title: 'Use Postgres SKIP LOCKED for jobs',
  description: 'One system fewer to run',
};

function hookInput(box: Sandbox, event: 'PreCompact' | 'SessionEnd', path: string, session = 'sess-1') {
  const extra = event === 'PreCompact' ? { trigger: 'auto', custom_instructions: '' } : { reason: 'prompt_input_exit' };
  return JSON.stringify({
    session_id: session,
    transcript_path: path,
    cwd: box.workspace,
    hook_event_name: event,
    ...extra,
  });
}

describe('the Claude Code plugin layout', () => {
  const market = readJson(join(ROOT, '.claude-plugin', 'marketplace.json'));
  const entry = market.plugins.find((p: { name: string }) => p.name === 'lore');
  const dir = join(ROOT, entry.source);

  it('is listed in the marketplace and its manifest agrees', () => {
    assert.ok(market.name && market.owner?.name, 'a marketplace needs name and owner.name');
    assert.match(entry.source, /^\.\//, 'a relative source starts with ./');
    const manifest = readJson(join(dir, '.claude-plugin', 'plugin.json'));
    assert.equal(manifest.name, 'lore');
    assert.equal(manifest.version, readJson(join(ROOT, 'package.json')).version);
  });

  it('hooks SessionStart, PreToolUse, PreCompact and SessionEnd to lore hook events, via the plugin launcher', () => {
    const { hooks } = readJson(join(dir, 'hooks', 'hooks.json'));
    const commands = Object.fromEntries(
      Object.entries(hooks).map(([event, groups]) => [
        event,
        (groups as any[]).flatMap((g) => g.hooks.map((h: any) => `${h.type}:${h.command}`)),
      ]),
    );
    const launcher = 'node "${CLAUDE_PLUGIN_ROOT}/bin/lore.cjs"';
    assert.deepEqual(commands, {
      SessionStart: [`command:${launcher} hook session-start`],
      PreToolUse: [`command:${launcher} hook pre-tool-use`],
      PreCompact: [`command:${launcher} hook pre-compact`],
      SessionEnd: [`command:${launcher} hook session-end --background`],
    });
    const box = sandbox();
    for (const event of ['session-start', 'pre-tool-use', 'pre-compact', 'session-end']) {
      const r = cli(box, ['hook', event], '{}');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
    }
  });

  // Claude Code copies an installed plugin into its own cache and runs it from there, with
  // CLAUDE_PLUGIN_ROOT set to the copy and whatever PATH the person has (here: none with lore).
  const NO_LORE_PATH = dirname(process.execPath) + ':/usr/bin:/bin';
  function installedCopy(): string {
    const copy = join(tempDir('lore-plugin-cache-'), 'lore');
    cpSync(dir, copy, { recursive: true });
    return copy;
  }
  const expand = (text: string, root: string) => text.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);

  it('starts the MCP server and the hooks from a copy of the plugin without lore on PATH', async () => {
    const copy = installedCopy();
    const box = sandbox();
    const env = { ...box.env, PATH: NO_LORE_PATH, CLAUDE_PLUGIN_ROOT: copy } as Record<string, string>;
    const server = readJson(join(copy, '.mcp.json')).mcpServers.lore;
    const transport = new StdioClientTransport({
      command: server.command,
      args: [...server.args.map((a: string) => expand(a, copy)), '--workspace', box.workspace],
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'plugin-copy', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'recall'));
    } finally {
      await client.close();
    }
    const { hooks } = readJson(join(copy, 'hooks', 'hooks.json'));
    const start = expand(hooks.SessionStart[0].hooks[0].command, copy);
    const r = spawnSync('/bin/sh', ['-c', start], { env, input: '{}', encoding: 'utf8', cwd: box.workspace });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });

  it('says how to fix it when the plugin was installed before the build and lore is not on PATH', () => {
    const copy = installedCopy();
    rmSync(join(copy, 'bin', 'cli-path.txt'), { force: true });
    const box = sandbox();
    const env = { ...box.env, PATH: NO_LORE_PATH };
    const r = spawnSync(process.execPath, [join(copy, 'bin', 'lore.cjs'), 'hook', 'session-start'], {
      env,
      input: '{}',
      encoding: 'utf8',
    });
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /Lore's CLI was not found.*npm ci && npm run build.*reinstall the plugin.*npm install -g \./s,
    );
  });

  it('has the four slash commands, and /memories runs a command the CLI accepts', () => {
    for (const name of ['remember', 'recall', 'forget', 'memories']) {
      assert.ok(frontMatter(join(dir, 'commands', `${name}.md`)).description, `/${name} has a description`);
    }
    const memories = readFileSync(join(dir, 'commands', 'memories.md'), 'utf8');
    const shell = /!`node "\$\{CLAUDE_PLUGIN_ROOT\}\/bin\/lore\.cjs" ([^`]+)`/.exec(memories);
    assert.ok(shell, '/memories runs lore through the plugin launcher');
    const box = sandbox();
    cli(box, ['remember', '--type', 'decision', '--title', 'Use Postgres', '--description', 'for the queue']);
    const r = cli(box, shell[1].split(' '));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /decision\/use-postgres/);
  });

  it('has a skill that names every tool the server offers and what never to save', async () => {
    const skill = join(dir, 'skills', 'memory', 'SKILL.md');
    const meta = frontMatter(skill);
    assert.equal(meta.name, 'memory');
    assert.ok(meta.description.length > 40);
    const text = readFileSync(skill, 'utf8');
    const agent = await stdioAgent(sandbox());
    try {
      const { tools } = await agent.client.listTools();
      for (const tool of tools) assert.ok(text.includes(`\`${tool.name}\``), `the skill names ${tool.name}`);
    } finally {
      await agent.close();
    }
    assert.match(text, /## Never save[\s\S]*Secrets[\s\S]*Personal data/);
    assert.match(text, /```lore-candidate/);
  });

  it('passes claude plugin validate (when LORE_CLAUDE_BIN points at Claude Code)', function () {
    const bin = process.env.LORE_CLAUDE_BIN;
    if (!bin) this.skip();
    for (const target of [ROOT, dir]) {
      const r: { status: number | null; stdout: string; stderr: string } = spawnSync(
        bin!,
        ['plugin', 'validate', target],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Validation passed/);
    }
  });
});

describe('lore hook pre-compact / session-end', function () {
  // Each test runs several whole captures (about 1 s of CPU each); on a shared 2-core machine at
  // load 30-46 that outran the default minute.
  this.timeout(180_000);
  function seeded(): Sandbox {
    const box = sandbox();
    cli(box, [
      '--workspace',
      box.workspace,
      'remember',
      '--type',
      'fact',
      '--title',
      'CI runs on two cores',
      '--description',
      'so keep tests lean',
    ]);
    return box;
  }
  const memories = (box: Sandbox) => cli(box, ['--workspace', box.workspace, '--json', 'list']).json.total;
  const inbox = (box: Sandbox) =>
    cli(box, ['--workspace', box.workspace, '--json', 'inbox']).json.items as Array<{
      keys: string[];
      kind: string;
      state: string;
    }>;

  it('queues the fenced candidates in the Inbox and writes no memory', () => {
    const box = seeded();
    const path = transcript(box, [
      { type: 'summary', summary: 'Moved the job queue off Redis', leafUuid: 'x' },
      { type: 'user', message: { role: 'user', content: 'why did jobs vanish?' } },
      say(`It failed before.\n${fenced(deadEnd)}\nAnd the choice:\n${fenced([decision])}`),
      // Tool output is never a candidate, even when it carries the fence.
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't',
              content: fenced({ type: 'fact', title: 'From a tool', description: 'x' }),
            },
          ],
        },
      },
      say('not json:\n```lore-candidate\n{oops\n```'),
    ]);
    const r = cli(box, ['hook', 'pre-compact'], hookInput(box, 'PreCompact', path));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.json.systemMessage, /2 candidate memories from this session wait in the Inbox/);
    const items = inbox(box);
    assert.deepEqual(items.map((i) => i.keys[0]).sort(), [
      'dead_end/redis-lists-as-the-job-queue',
      'decision/use-postgres-skip-locked-for-jobs',
    ]);
    assert.ok(items.every((i) => i.kind === 'session' && i.state === 'open'));
    assert.equal(memories(box), 1, 'nothing became memory without a person');

    // SessionEnd after a compaction hands in the same candidates: nothing is queued twice.
    const end = cli(box, ['hook', 'session-end'], hookInput(box, 'SessionEnd', path));
    assert.equal(end.code, 0, end.stderr);
    assert.equal(end.stdout, '');
    assert.equal(inbox(box).length, 2);
  });

  it("session-end --background (the plugin's SessionEnd) returns at once; a detached capture queues", async () => {
    const box = seeded();
    const path = transcript(box, [say(fenced(deadEnd))]);
    const r = cli(box, ['hook', 'session-end', '--background'], hookInput(box, 'SessionEnd', path));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    // The capture outlives the hook (Claude Code cancels a plugin's SessionEnd hooks after 1.5 s):
    // wait, bounded, for its item to reach the Inbox.
    const deadline = Date.now() + 60_000;
    while (!inbox(box).length && Date.now() < deadline) await new Promise((done) => setTimeout(done, 250));
    assert.deepEqual(
      inbox(box).map((i) => i.keys[0]),
      ['dead_end/redis-lists-as-the-job-queue'],
    );
    assert.equal(memories(box), 1, 'nothing became memory without a person');
  });

  it('session-end --background hands off before reading the command bundle (its foreground needs only cli.js)', () => {
    // dist/cli.js alone, without the 2 MB dist/cliMain.js beside it: a foreground that read the
    // bundle would fail here. The detached child then fails too, silently, as a hook must.
    const alone = tempDir('lore-cli-alone-');
    cpSync(CLI, join(alone, 'cli.js'));
    const box = seeded();
    const r = spawnSync(process.execPath, [join(alone, 'cli.js'), 'hook', 'session-end', '--background'], {
      env: box.env,
      input: hookInput(box, 'SessionEnd', transcript(box, [say(fenced(deadEnd))])),
      encoding: 'utf8',
      cwd: box.workspace,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout + r.stderr, '');
    const foreground = spawnSync(process.execPath, [join(alone, 'cli.js'), 'hook', 'session-end'], {
      env: box.env,
      input: '{}',
      encoding: 'utf8',
    });
    assert.notEqual(foreground.status, 0, 'without --background the same cli.js needs the bundle');
  });

  it('the same candidate from three sessions is one Inbox item that lists the three sessions', () => {
    const box = seeded();
    const retold = [
      deadEnd,
      { ...deadEnd, title: '  redis lists as the JOB queue ', description: 'Lost jobs on failover.' },
      { ...deadEnd, description: 'lost  jobs on   failover', body: 'Told again in another session.' },
    ];
    retold.forEach((candidate, i) => {
      const path = transcript(box, [say(fenced(candidate))]);
      const r = cli(box, ['hook', 'session-end'], hookInput(box, 'SessionEnd', path, `sess-${i + 1}`));
      assert.equal(r.code, 0, r.stderr);
    });
    const items = cli(box, ['--workspace', box.workspace, '--json', 'inbox']).json.items;
    assert.equal(items.length, 1, JSON.stringify(items.map((i: { summary: string }) => i.summary)));
    assert.deepEqual(
      items[0].evidence.sessions.map((s: { id: string }) => s.id),
      ['sess-1', 'sess-2', 'sess-3'],
    );
    const shown = cli(box, ['--workspace', box.workspace, 'inbox']).stdout;
    assert.match(shown, /from 3 sessions: sess-1 \(routine\), sess-2 \(routine\), sess-3 \(routine\)/);
    // Another candidate is still its own item.
    const other = transcript(box, [say(fenced({ ...deadEnd, title: 'Redis streams as the job queue' }))]);
    cli(box, ['hook', 'session-end'], hookInput(box, 'SessionEnd', other, 'sess-4'));
    assert.equal(inbox(box).length, 2);
  });

  it('leaves out a candidate Lore refuses and queues the rest', () => {
    const box = seeded();
    const leaky = {
      type: 'fact',
      title: 'Deploy key',
      description: 'the key',
      body: 'AKIAIOSFODNN7EXAMPLE is the deploy key',
    };
    const path = transcript(box, [say(fenced(leaky)), say(fenced(deadEnd)), say(fenced({ type: 'decision' }))]);
    const r = cli(box, ['hook', 'session-end'], hookInput(box, 'SessionEnd', path));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      inbox(box).map((i) => i.keys[0]),
      ['dead_end/redis-lists-as-the-job-queue'],
    );
    assert.ok(
      !readFileSync(storePaths(box.workspace, box.home).database).includes('AKIAIOSFODNN7EXAMPLE'),
      'the secret was not stored',
    );
  });

  it('creates no store for a repository Lore has not seen when there is only a summary', () => {
    const box = sandbox();
    const path = transcript(box, [{ type: 'summary', summary: 'a chat' }, say('no candidates here')]);
    const r = cli(box, ['hook', 'pre-compact'], hookInput(box, 'PreCompact', path));
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.ok(!existsSync(join(box.home, 'workspaces')));
  });

  it('is silent with exit 0 on a broken store, a missing transcript or broken JSON', () => {
    const box = sandbox();
    const path = transcript(box, [say(fenced(deadEnd))]);
    const paths = storePaths(box.workspace, box.home);
    mkdirSync(join(paths.database, '..'), { recursive: true });
    writeFileSync(paths.database, 'this is not a SQLite database at all, just text'.repeat(100));
    for (const input of [
      hookInput(box, 'PreCompact', path),
      hookInput(box, 'SessionEnd', join(box.workspace, 'gone.jsonl')),
      '{"transcript_path": ',
      'null',
    ]) {
      for (const event of ['pre-compact', 'session-end']) {
        const r = cli(box, ['hook', event], input);
        assert.equal(r.code, 0, `${event} ${input}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr, '');
      }
    }
  });
});
