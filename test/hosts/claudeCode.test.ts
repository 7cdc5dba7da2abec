// Claude Code itself (the pinned npm release scripts/hosts/setup.sh installs), run headless
// (`claude -p`) against a stand-in Anthropic API on 127.0.0.1, in a repository set up by
// `lore init` the way a newcomer does it (no `lore` on PATH). It checks that Lore's server starts
// from the config init wrote, that the scripted recall arrives, and that what Claude Code hands
// the model is fenced as untrusted and bounded; also that the plugin passes `claude plugin validate`.
// The plugin's hooks in a real session: ./claudeHooks.test.ts.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI } from '../support/cli';
import {
  assertFencedAndBounded,
  CACHE,
  claudeEnv,
  hostBinary,
  hostRepo,
  reportTiming,
  runHost,
  seedHostileMemories,
  RESULTS,
  type HostRepo,
} from './hostFixture';
import { startAnthropicStandIn, toolResultsSent, type StandInModel } from './standInModel';

const ROOT = resolve(__dirname, '..', '..');
const CLAUDE = hostBinary('claude');

describe('Claude Code (real host, stand-in model)', function () {
  this.timeout(300_000);
  let model: StandInModel;
  let repo: HostRepo;

  before(async function () {
    if (!CLAUDE) {
      console.log(`  Claude Code is not installed in ${CACHE}: run bash scripts/hosts/setup.sh claude`);
      this.skip();
    }
    repo = hostRepo('claude');
    seedHostileMemories(repo);
    repo.lore('init', '--agent', 'claude', '--yes');
    model = await startAnthropicStandIn([
      { name: 'mcp__lore__recall', input: { query: 'background jobs queue', limit: RESULTS } },
    ]);
  });

  after(async () => {
    await model?.close();
  });

  const claude = (args: string[]) => runHost(CLAUDE!, args, repo.workspace, claudeEnv(repo, model.url));

  it('starts Lore from the .mcp.json init wrote, calls recall, hands the model a fenced, bounded result', async () => {
    const mcp = JSON.parse(readFileSync(join(repo.workspace, '.mcp.json'), 'utf8')).mcpServers.lore;
    assert.deepEqual(mcp, { command: process.execPath, args: [CLI, 'mcp'] });
    const r = await claude([
      '-p',
      'Where do background jobs run?',
      '--mcp-config',
      join(repo.workspace, '.mcp.json'),
      '--strict-mcp-config',
      '--allowedTools',
      'mcp__lore__recall',
      '--output-format',
      'json',
    ]);
    reportTiming('Claude Code', 'claude -p (Lore starts, recall, answer)', r.ms);
    const seen = model.requests.map((q) => `${q.path} tools=${(q.body.tools ?? []).length}`).join('; ');
    assert.equal(r.status, 0, `claude exited ${r.status}\n${r.stdout}\n${r.stderr}\nrequests: ${seen}`);
    const offered = model.requests.find((q) => (q.body.tools ?? []).some((t: any) => t.name === 'mcp__lore__recall'));
    const names = model.requests.map((q) => (q.body.tools ?? []).map((t: any) => t.name).join(','));
    assert.ok(
      offered,
      `Claude Code offered the model Lore recall tool (the server started); tools: ${names.join(' / ')}\n${r.stdout}`,
    );
    const system = JSON.stringify(model.requests.map((q) => q.body));
    assert.match(
      system,
      /## lore\\nSafety: everything Lore returns/,
      'the server instructions reached the model, safety first',
    );
    const results = toolResultsSent(model.requests, 'mcp__lore__recall');
    assert.equal(results.length, 1, 'the recall result went back to the model');
    const sent = results[0];
    console.log(`      Claude Code forwarded ${Buffer.byteLength(sent)} bytes of the recall result`);
    // Claude Code forwards the structured JSON as text, so the fence's quotes arrive escaped.
    assert.match(sent, /^\{"untrusted_data":"<lore-data nonce=\\"[0-9a-f]{16}\\">/);
    assert.match(sent, /"untrusted_data_end":"<\/lore-data nonce=\\"[0-9a-f]{16}\\">[^"]*"\}$/);
    assertFencedAndBounded(sent);
  });

  it('passes claude plugin validate on the marketplace and the plugin', async () => {
    for (const target of [ROOT, join(ROOT, 'plugins', 'lore')]) {
      const r = await claude(['plugin', 'validate', target]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Validation passed/);
    }
  });
});
