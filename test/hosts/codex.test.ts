// Codex CLI itself (the pinned npm release scripts/hosts/setup.sh installs), run as `codex exec`
// against a stand-in OpenAI Responses API on 127.0.0.1, in a repository set up by `lore init
// --agent codex` the way a newcomer does it (no `lore` on PATH), through ./recallHarness.ts. The
// user's own Codex config only names the stand-in as the model provider and trusts the repository
// (Codex reads a project's .codex/config.toml only in a trusted project); Lore's server comes from
// the file init wrote. Lore's data is under a LORE_HOME set in the user's shell, which Codex passes
// to an MCP server only through the env_vars line init writes. Nothing leaves loopback: Codex's
// analytics and update check are off, and its only model provider is the stand-in.

import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../support/cli';
import { RESULTS } from './hostFixture';
import { assertReachedModel, driveRecall, requireHost, type RecallDrive, type RecallHost } from './recallHarness';
import { functionOutputsSent, startResponsesStandIn } from './standInOpenAI';

/** The user's ~/.codex/config.toml: the stand-in as the only model provider, the repository trusted. */
function userConfig(modelUrl: string, workspace: string): string {
  return [
    'model = "stand-in"',
    'model_provider = "stand-in"',
    'check_for_update_on_startup = false',
    '[analytics]',
    'enabled = false',
    '[model_providers.stand-in]',
    'name = "Stand-in"',
    `base_url = "${modelUrl}/v1"`,
    'env_key = "STAND_IN_API_KEY"',
    'wire_api = "responses"',
    `[projects.${JSON.stringify(workspace)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n');
}

const CODEX: RecallHost = {
  label: 'Codex',
  bin: 'codex',
  agent: 'codex',
  tool: 'mcp__lore',
  // Not the default place: only the env_vars line init writes gets LORE_HOME to Lore's server.
  loreHome: (home) => join(home, 'lore-data'),
  startModel: () => startResponsesStandIn('mcp__lore', 'recall', { query: 'background jobs queue', limit: RESULTS }),
  prepare(repo, model) {
    // Not under /tmp: Codex refuses to put its helper binaries in a temporary folder (it warns).
    const codexHome = join(repo.home, '.codex');
    mkdirSync(codexHome);
    writeFileSync(join(codexHome, 'config.toml'), userConfig(model.url, repo.workspace));
    return { ...repo.env, CODEX_HOME: codexHome, STAND_IN_API_KEY: 'sk-stand-in' };
  },
  args: () => ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', '--json'],
  offered: (q) => (q.body.tools ?? []).map((t: { name?: string }) => t.name),
  results: (requests) => functionOutputsSent(requests, 'mcp__lore', 'recall'),
};

describe('Codex CLI (real host, stand-in model)', function () {
  this.timeout(300_000);
  let bin: string;
  let drive: RecallDrive;

  before(async function () {
    bin = requireHost(this, CODEX);
    drive = await driveRecall(bin, CODEX, 'Where do background jobs run?');
  });

  after(async () => {
    await drive?.model.close();
  });

  it('starts Lore from the .codex/config.toml init wrote, LORE_HOME forwarded: recall arrives, fenced, bounded', () => {
    const toml = readFileSync(join(drive.repo.workspace, '.codex', 'config.toml'), 'utf8');
    assert.match(toml, /^\[mcp_servers\.lore\]$/m);
    assert.ok(toml.includes(`command = ${JSON.stringify(process.execPath)}`), toml);
    assert.ok(toml.includes(`args = [${JSON.stringify(CLI)}, "mcp"]`), toml);
    assert.ok(toml.includes('env_vars = ["LORE_HOME", "XDG_DATA_HOME"]'), toml);
    const offered = drive.model.requests.find((q) => CODEX.offered(q).includes('mcp__lore'))!;
    const lore = offered.body.tools.find((t: any) => t.name === 'mcp__lore');
    assert.ok(
      lore.tools.some((t: { name: string }) => t.name === 'recall'),
      'recall is among the namespace functions',
    );
    // Codex offers Lore's instructions as the namespace's description.
    assert.match(lore.description, /^Safety: everything Lore returns/);
    // The call arrived at Lore: Codex reports it completed in its JSON event stream.
    assert.match(
      drive.run.stdout,
      /"type":"mcp_tool_call"[^\n]*"server":"lore"[^\n]*"tool":"recall"[^\n]*"status":"completed"/,
    );
    // Codex forwards the structured JSON as text (after a wall-time line), so the fence's quotes arrive escaped.
    assert.match(drive.sent, /\{"untrusted_data":"<lore-data nonce=\\"[0-9a-f]{16}\\">/);
    assert.match(drive.sent, /"untrusted_data_end":"<\/lore-data nonce=\\"[0-9a-f]{16}\\">[^"]*"\}\s*$/);
    // The seeded memories were found: Lore opened the store under the forwarded LORE_HOME.
    assertReachedModel(CODEX, drive);
  });
});
