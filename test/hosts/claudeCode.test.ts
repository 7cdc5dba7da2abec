// Claude Code itself (the pinned npm release scripts/hosts/setup.sh installs), run headless
// (`claude -p`) against a stand-in Anthropic API on 127.0.0.1, in a repository set up by
// `lore init` the way a newcomer does it (no `lore` on PATH), through ./recallHarness.ts: Lore's
// server starts from the config init wrote, the scripted recall arrives, and what Claude Code hands
// the model is fenced as untrusted and bounded; also that the plugin passes `claude plugin validate`.
// The plugin's hooks in a real session: ./claudeHooks.test.ts.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions';
import { CLI } from '../support/cli';
import { claudeEnv, RESULTS, runHost } from './hostFixture';
import {
  assertReachedModel,
  driveRecall,
  requireHost,
  stringsIn,
  type RecallDrive,
  type RecallHost,
} from './recallHarness';
import { startAnthropicStandIn, toolResultsSent } from './standInModel';

const ROOT = resolve(__dirname, '..', '..');
const RECALL = 'mcp__lore__recall';

const CLAUDE_CODE: RecallHost = {
  label: 'Claude Code',
  bin: 'claude',
  agent: 'claude',
  tool: RECALL,
  startModel: () =>
    startAnthropicStandIn([{ name: RECALL, input: { query: 'background jobs queue', limit: RESULTS } }]),
  prepare: (repo, model) => claudeEnv(repo, model.url),
  args: (repo) => [
    '--mcp-config',
    join(repo.workspace, '.mcp.json'),
    '--strict-mcp-config',
    '--allowedTools',
    RECALL,
    '--output-format',
    'json',
    '-p',
  ],
  offered: (q) => (q.body.tools ?? []).map((t: { name: string }) => t.name),
  results: (requests) => toolResultsSent(requests, RECALL),
};

describe('Claude Code (real host, stand-in model)', function () {
  this.timeout(300_000);
  let bin: string;
  let drive: RecallDrive;

  before(async function () {
    bin = requireHost(this, CLAUDE_CODE);
    drive = await driveRecall(bin, CLAUDE_CODE, 'Where do background jobs run?');
  });

  after(async () => {
    await drive?.model.close();
  });

  it('starts Lore from the .mcp.json init wrote, calls recall, hands the model a fenced, bounded result', () => {
    const mcp = JSON.parse(readFileSync(join(drive.repo.workspace, '.mcp.json'), 'utf8')).mcpServers.lore;
    assert.deepEqual(mcp, { command: process.execPath, args: [CLI, 'mcp'] });
    // Claude Code hands each server's instructions over under "# MCP Server Instructions", "## <server>"
    // (in a system-role message when the server connected after the session began).
    const sent = drive.model.requests.flatMap((q) => stringsIn(q.body));
    assert.ok(
      sent.some((s) => s.includes('# MCP Server Instructions') && s.includes(`## lore\n${SERVER_INSTRUCTIONS}`)),
      'the server instructions reached the model whole, safety first',
    );
    // Claude Code forwards the structured JSON as text, so the fence's quotes arrive escaped.
    assert.match(drive.sent, /^\{"untrusted_data":"<lore-data nonce=\\"[0-9a-f]{16}\\">/);
    assert.match(drive.sent, /"untrusted_data_end":"<\/lore-data nonce=\\"[0-9a-f]{16}\\">[^"]*"\}$/);
    assertReachedModel(CLAUDE_CODE, drive);
  });

  it('passes claude plugin validate on the marketplace and the plugin', async () => {
    for (const target of [ROOT, join(ROOT, 'plugins', 'lore')]) {
      const r = await runHost(
        bin,
        ['plugin', 'validate', target],
        drive.repo.workspace,
        claudeEnv(drive.repo, drive.model.url),
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Validation passed/);
    }
  });
});
