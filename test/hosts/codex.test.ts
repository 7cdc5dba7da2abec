// Codex CLI itself (the pinned npm release scripts/hosts/setup.sh installs), run as `codex exec`
// against a stand-in OpenAI Responses API on 127.0.0.1, in a repository set up by `lore init
// --agent codex` the way a newcomer does it (no `lore` on PATH). The user's own Codex config only
// names the stand-in as the model provider and trusts the repository (Codex reads a project's
// .codex/config.toml only in a trusted project); Lore's server comes from the file init wrote.
// Checks that the server starts from it, the scripted recall arrives at Lore, and what Codex hands
// the model is fenced as untrusted and bounded. Nothing leaves loopback: Codex's analytics and
// update check are off, and its only model provider is the stand-in.

import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../support/cli';
import {
  assertFencedAndBounded,
  CACHE,
  hostBinary,
  hostRepo,
  reportTiming,
  runHost,
  seedHostileMemories,
  RESULTS,
  type HostRepo,
} from './hostFixture';
import { functionOutputsSent, startResponsesStandIn } from './standInOpenAI';
import type { StandInModel } from './standInModel';

const CODEX = hostBinary('codex');

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

describe('Codex CLI (real host, stand-in model)', function () {
  this.timeout(300_000);
  let model: StandInModel;
  let repo: HostRepo;
  let codexHome: string;

  before(async function () {
    if (!CODEX) {
      console.log(`  Codex CLI is not installed in ${CACHE}: run bash scripts/hosts/setup.sh codex`);
      this.skip();
    }
    repo = hostRepo('codex');
    seedHostileMemories(repo);
    repo.lore('init', '--agent', 'codex', '--yes');
    model = await startResponsesStandIn('mcp__lore', 'recall', { query: 'background jobs queue', limit: RESULTS });
    // Not under /tmp: Codex refuses to put its helper binaries in a temporary folder (it warns).
    codexHome = join(repo.home, '.codex');
    mkdirSync(codexHome);
    writeFileSync(join(codexHome, 'config.toml'), userConfig(model.url, repo.workspace));
  });

  after(async () => {
    await model?.close();
  });

  it('starts Lore from the .codex/config.toml init wrote: recall arrives, fenced and bounded', async () => {
    const toml = readFileSync(join(repo.workspace, '.codex', 'config.toml'), 'utf8');
    assert.match(toml, /^\[mcp_servers\.lore\]$/m);
    assert.ok(toml.includes(`command = ${JSON.stringify(process.execPath)}`), toml);
    assert.ok(toml.includes(`args = [${JSON.stringify(CLI)}, "mcp"]`), toml);
    const r = await runHost(
      CODEX!,
      ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', '--json', 'Where do background jobs run?'],
      repo.workspace,
      { ...repo.env, CODEX_HOME: codexHome, STAND_IN_API_KEY: 'sk-stand-in' },
    );
    reportTiming('Codex', 'codex exec (Lore starts, recall, answer)', r.ms);
    const seen = model.requests
      .map((q) => `${q.path} tools=${(q.body.tools ?? []).map((t: { name?: string }) => t.name).join(',')}`)
      .join('\n');
    assert.equal(r.status, 0, `codex exited ${r.status}\n${r.stdout}\n${r.stderr}\nrequests:\n${seen}`);
    const offered = model.requests.find((q) => (q.body.tools ?? []).some((t: any) => t.name === 'mcp__lore'));
    assert.ok(
      offered,
      `Codex offered the model Lore's tools (the server started from the config)\n${seen}\n${r.stderr}`,
    );
    const lore = offered.body.tools.find((t: any) => t.name === 'mcp__lore');
    assert.ok(
      lore.tools.some((t: { name: string }) => t.name === 'recall'),
      'recall is among the namespace functions',
    );
    assert.match(
      lore.description,
      /^Safety: everything Lore returns/,
      "Lore's instructions reach the model, safety first",
    );
    // The call arrived at Lore: Codex reports it completed in its JSON event stream.
    assert.match(
      r.stdout,
      /"type":"mcp_tool_call"[^\n]*"server":"lore"[^\n]*"tool":"recall"[^\n]*"status":"completed"/,
    );
    const results = functionOutputsSent(model.requests, 'mcp__lore', 'recall');
    assert.equal(results.length, 1, 'the recall result went back to the model');
    const sent = results[0];
    console.log(
      `      Codex forwarded ${Buffer.byteLength(sent)} bytes of the recall result ` +
        `(${model.requests.length} model requests)`,
    );
    // Codex forwards the structured JSON as text (after a wall-time line), so the fence's quotes arrive escaped.
    assert.match(sent, /\{"untrusted_data":"<lore-data nonce=\\"[0-9a-f]{16}\\">/);
    assert.match(sent, /"untrusted_data_end":"<\/lore-data nonce=\\"[0-9a-f]{16}\\">[^"]*"\}\s*$/);
    assertFencedAndBounded(sent);
  });
});
