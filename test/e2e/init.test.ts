// `lore init` through the built CLI: it finds the hosts a repository uses (or is told), shows what
// it will change, writes only with consent, merges into existing files (JSON with comments too,
// editing only the lore entry), never replaces a different `lore` entry without --force, changes
// nothing on a second run, and writes a command that starts on this machine: `lore mcp` when
// `lore` on PATH is this CLI, else Node and the CLI's absolute path. `lore doctor` checks it.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, makeSpace, ok, runCli, runCliInTerminal, type CliSpace } from '../support/cli';

/** What init writes where `lore` is not a command (the test's PATH has none). */
const LORE = { command: process.execPath, args: [CLI, 'mcp'] };
/** A PATH without any `lore` on it, whatever the machine running the tests has installed. */
const NO_LORE_PATH = dirname(process.execPath) + ':/usr/bin:/bin';

function put(space: CliSpace, path: string, text: string): void {
  mkdirSync(dirname(join(space.workspace, path)), { recursive: true });
  writeFileSync(join(space.workspace, path), text);
}
const read = (space: CliSpace, path: string) => readFileSync(join(space.workspace, path), 'utf8');
const json = (space: CliSpace, path: string) => JSON.parse(read(space, path));

describe('lore init', () => {
  let space: CliSpace;
  beforeEach(() => {
    space = makeSpace('lore-init-');
    space.lore = (...args) =>
      runCli(args, { home: space.home, workspace: space.workspace, env: { PATH: NO_LORE_PATH } });
  });
  afterEach(() => space.cleanup());

  it('finds Claude Code from CLAUDE.md, writes nothing without consent, then merges with --yes', () => {
    put(space, 'CLAUDE.md', '# House rules\n\nUse tabs.\n');
    const refused = space.lore('init');
    assert.equal(refused.code, 2);
    assert.match(refused.stdout, /create\s+\.mcp\.json[\s\S]*merge\s+CLAUDE\.md/);
    assert.match(refused.stderr, /writes only with your consent \(run it in a terminal to be asked, or pass --yes/);
    assert.ok(!existsSync(join(space.workspace, '.mcp.json')));
    assert.equal(read(space, 'CLAUDE.md'), '# House rules\n\nUse tabs.\n');

    ok(space.lore('init', '--yes'));
    assert.deepEqual(json(space, '.mcp.json'), { mcpServers: { lore: LORE } });
    const claude = read(space, 'CLAUDE.md');
    assert.ok(claude.startsWith('# House rules\n\nUse tabs.\n'), 'what was there stays');
    assert.match(claude, /<!-- lore:begin -->[\s\S]*call `recall`[\s\S]*Never save secrets[\s\S]*<!-- lore:end -->\n$/);

    const again = ok(space.lore('--json', 'init', '--yes'));
    assert.deepEqual(
      again.json.changes.map((c: { action: string }) => c.action),
      ['unchanged', 'unchanged'],
    );
    assert.equal(read(space, 'CLAUDE.md'), claude);
  });

  it('merges into each host file, keeping other servers, and keeps a different lore entry unless --force', () => {
    put(space, '.cursor/mcp.json', JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
    put(
      space,
      '.vscode/mcp.json',
      JSON.stringify({ servers: { lore: { type: 'stdio', command: '/opt/lore', args: ['mcp'] } }, inputs: [] }),
    );
    put(space, '.codex/config.toml', 'model = "o4"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n');
    const r = ok(space.lore('--json', 'init', '--agent', 'cursor', '--agent', 'copilot,codex', '--yes'));
    const actions = Object.fromEntries(r.json.changes.map((c: { path: string; action: string }) => [c.path, c.action]));
    assert.deepEqual(actions, {
      '.cursor/mcp.json': 'merge',
      'AGENTS.md': 'create',
      '.vscode/mcp.json': 'conflict',
      '.github/copilot-instructions.md': 'create',
      '.codex/config.toml': 'merge',
    });
    assert.deepEqual(json(space, '.cursor/mcp.json'), { mcpServers: { github: { command: 'gh-mcp' }, lore: LORE } });
    assert.equal(json(space, '.vscode/mcp.json').servers.lore.command, '/opt/lore', 'a different lore entry is kept');
    const vscode = r.json.changes.find((c: { path: string }) => c.path === '.vscode/mcp.json');
    assert.equal(vscode.written, false);
    assert.match(vscode.what, /different lore server .* does not start here: \/opt\/lore does not exist/);
    assert.equal(
      read(space, '.codex/config.toml'),
      'model = "o4"\n\n[mcp_servers.docs]\ncommand = ' +
        `"docs-mcp"\n\n[mcp_servers.lore]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ` +
        `[${JSON.stringify(CLI)}, "mcp"]\nenv_vars = ["LORE_HOME", "XDG_DATA_HOME"]\n`,
    );

    const forced = ok(space.lore('init', '--agent', 'copilot', '--force', '--yes'));
    assert.match(forced.stdout, /wrote\s+\.vscode\/mcp\.json\s+replace the different lore server/);
    assert.doesNotMatch(forced.stdout, /kept/);
    assert.deepEqual(json(space, '.vscode/mcp.json'), { servers: { lore: { type: 'stdio', ...LORE } }, inputs: [] });
  });

  it("adds Codex's env_vars line to a lore server written without it, keeping the rest byte for byte", () => {
    const old =
      `# mine\n[mcp_servers.lore]\ncommand = ${JSON.stringify(process.execPath)}\n` +
      `args = [${JSON.stringify(CLI)}, "mcp"]  # lore\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n`;
    put(space, '.codex/config.toml', old);
    const r = ok(space.lore('--json', 'init', '--agent', 'codex', '--yes'));
    const codex = r.json.changes.find((c: { path: string }) => c.path === '.codex/config.toml');
    assert.equal(codex.action, 'merge');
    assert.match(codex.what, /forward LORE_HOME and XDG_DATA_HOME to the lore server \(env_vars\)/);
    assert.equal(
      read(space, '.codex/config.toml'),
      old.replace('# lore\n', '# lore\nenv_vars = ["LORE_HOME", "XDG_DATA_HOME"]\n'),
    );
    const again = ok(space.lore('--json', 'init', '--agent', 'codex', '--yes'));
    assert.equal(again.json.changes.find((c: { path: string }) => c.path === '.codex/config.toml').action, 'unchanged');
  });

  it('merges into JSON with comments, changing nothing but the lore entry, and sets up Gemini CLI', () => {
    const vscode =
      '{\n    // servers this team uses\n    "servers": {\n        "gh": { "command": "gh-mcp" }, // github\n' +
      '    },\n    "inputs": [],\n}\n';
    put(space, '.vscode/mcp.json', vscode);
    put(space, 'GEMINI.md', '# Notes\n');
    const r = ok(space.lore('--json', 'init', '--agent', 'copilot', '--yes'));
    assert.deepEqual(r.json.command, LORE);
    const after = read(space, '.vscode/mcp.json');
    const lore = JSON.stringify({ type: 'stdio', ...LORE }, null, 4).replace(/\n/g, '\n        ');
    assert.equal(
      after,
      '{\n    // servers this team uses\n    "servers": {\n        "gh": { "command": "gh-mcp" }, // github\n' +
        `        "lore": ${lore},\n    },\n    "inputs": [],\n}\n`,
      'only the lore entry was added, in the file own indentation and trailing-comma style',
    );

    // Gemini CLI: found from GEMINI.md, .gemini/settings.json written.
    const gemini = ok(space.lore('--json', 'init', '--yes'));
    assert.ok(gemini.json.hosts.includes('gemini'));
    assert.deepEqual(json(space, '.gemini/settings.json'), { mcpServers: { lore: LORE } });
    assert.match(read(space, 'GEMINI.md'), /^# Notes\n\n<!-- lore:begin -->/);
    assert.equal(read(space, '.vscode/mcp.json'), after, 'a file already set up is not rewritten');
  });

  it('leaves a file it cannot parse untouched, says why and on which line, and writes nothing at all', () => {
    const broken = '{\n  "mcpServers": {\n    "a": {}\n    "b": {}\n  }\n}\n';
    put(space, '.gemini/settings.json', broken);
    const r = space.lore('init', '--agent', 'claude', '--agent', 'gemini', '--yes');
    assert.equal(r.code, 2);
    assert.match(
      r.stdout,
      /invalid\s+\.gemini\/settings\.json\s+cannot be read \(CommaExpected at line 4\); left untouched/,
    );
    assert.match(
      r.stderr,
      /\.gemini\/settings\.json cannot be read \(CommaExpected at line 4\).*lore init wrote nothing/,
    );
    assert.equal(read(space, '.gemini/settings.json'), broken);
    assert.ok(!existsSync(join(space.workspace, '.mcp.json')), 'no other host was half set up');
  });

  it('writes `lore mcp` when lore on PATH is this CLI, and lore doctor says whether each config starts', () => {
    put(space, '.mcp.json', JSON.stringify({ mcpServers: { lore: { command: 'lore', args: ['mcp'] } } }));
    const broken = space.lore('--json', 'doctor');
    const check = broken.json.checks.find((c: { name: string }) => c.name === '.mcp.json');
    assert.equal(check.ok, false);
    assert.match(check.detail, /`lore` is not on PATH — run lore init --force .* or run `npm install -g \.` in /);
    assert.match(
      space.lore('init', '--agent', 'claude', '--dry-run').stdout,
      /kept\s+\.mcp\.json .*`lore` is not on PATH/,
    );

    // `npm install -g .` puts a link to dist/cli.js on PATH; a bin folder with that link stands in for it.
    const bin = join(space.root, 'bin');
    mkdirSync(bin);
    symlinkSync(CLI, join(bin, 'lore'));
    const onPath = { PATH: `${bin}:${NO_LORE_PATH}` };
    const fixed = runCli(['--json', 'doctor'], { home: space.home, workspace: space.workspace, env: onPath });
    const now = fixed.json.checks.find((c: { name: string }) => c.name === '.mcp.json');
    assert.deepEqual(now, { name: '.mcp.json', ok: true, detail: 'starts lore mcp' });
    const init = runCli(['--json', 'init', '--agent', 'gemini', '--yes'], {
      home: space.home,
      workspace: space.workspace,
      env: onPath,
    });
    assert.deepEqual(json(space, '.gemini/settings.json'), {
      mcpServers: { lore: { command: 'lore', args: ['mcp'] } },
    });
    assert.deepEqual(init.json.command, { command: 'lore', args: ['mcp'] });
    // What init wrote starts: a host would run exactly this.
    const started = spawnSync(LORE.command, [CLI, '--version'], { encoding: 'utf8' });
    assert.equal(started.status, 0, started.stderr);
  });

  it('asks in a terminal and writes only on yes', () => {
    put(space, 'AGENTS.md', 'Be brief.\n');
    const env = { PATH: NO_LORE_PATH };
    const no = runCliInTerminal(['init'], { home: space.home, workspace: space.workspace, input: 'n\n', env });
    assert.equal(no.code, 1);
    assert.match(no.stdout, /Write 2 file\(s\)/);
    assert.ok(!existsSync(join(space.workspace, '.codex')));
    const yes = runCliInTerminal(['init'], { home: space.home, workspace: space.workspace, input: 'y\n', env });
    assert.equal(yes.code, 0, yes.stdout);
    assert.match(read(space, '.codex/config.toml'), /^\[mcp_servers\.lore\]$/m);
  });

  it('says which flag to give when it finds no host or is told an unknown one', () => {
    const none = space.lore('init');
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /found no agent host's files .* \(name the host: lore init --agent claude\|cursor\|copilot\|codex\|gemini\)/,
    );
    const bad = space.lore('init', '--agent', 'emacs');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--agent emacs is not a host lore init knows/);
  });
});
