// `lore init` through the built CLI: it finds the hosts a repository uses (or is told), shows what
// it will change, writes only with consent, merges into existing files, never replaces a different
// `lore` entry without --force, and changes nothing on a second run.

import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeSpace, ok, runCliInTerminal, type CliSpace } from '../support/cli';

const LORE = { command: 'lore', args: ['mcp'] };

function put(space: CliSpace, path: string, text: string): void {
  mkdirSync(dirname(join(space.workspace, path)), { recursive: true });
  writeFileSync(join(space.workspace, path), text);
}
const read = (space: CliSpace, path: string) => readFileSync(join(space.workspace, path), 'utf8');
const json = (space: CliSpace, path: string) => JSON.parse(read(space, path));

describe('lore init', () => {
  let space: CliSpace;
  beforeEach(() => (space = makeSpace('lore-init-')));
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
    assert.equal(
      read(space, '.codex/config.toml'),
      'model = "o4"\n\n[mcp_servers.docs]\ncommand = ' +
        '"docs-mcp"\n\n[mcp_servers.lore]\ncommand = "lore"\nargs = ' +
        '["mcp"]\n',
    );

    ok(space.lore('init', '--agent', 'copilot', '--force', '--yes'));
    assert.deepEqual(json(space, '.vscode/mcp.json'), { servers: { lore: { type: 'stdio', ...LORE } }, inputs: [] });
  });

  it('refuses a file it cannot parse and then writes nothing at all', () => {
    put(space, '.vscode/mcp.json', '{ // my servers\n "servers": {} }');
    const r = space.lore('init', '--agent', 'claude', '--agent', 'copilot', '--yes');
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /\.vscode\/mcp\.json is not plain JSON .*lore init does not rewrite it \(add "lore": \{"type":"stdio"/,
    );
    assert.ok(!existsSync(join(space.workspace, '.mcp.json')), 'no other host was half set up');
  });

  it('asks in a terminal and writes only on yes', () => {
    put(space, 'AGENTS.md', 'Be brief.\n');
    const no = runCliInTerminal(['init'], { home: space.home, workspace: space.workspace, input: 'n\n' });
    assert.equal(no.code, 1);
    assert.match(no.stdout, /Write 2 file\(s\)/);
    assert.ok(!existsSync(join(space.workspace, '.codex')));
    const yes = runCliInTerminal(['init'], { home: space.home, workspace: space.workspace, input: 'y\n' });
    assert.equal(yes.code, 0, yes.stdout);
    assert.match(read(space, '.codex/config.toml'), /^\[mcp_servers\.lore\]$/m);
  });

  it('says which flag to give when it finds no host or is told an unknown one', () => {
    const none = space.lore('init');
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /found no agent host's files .* \(name the host: lore init --agent claude\|cursor\|copilot\|codex\)/,
    );
    const bad = space.lore('init', '--agent', 'emacs');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--agent emacs is not a host lore init knows/);
  });
});
