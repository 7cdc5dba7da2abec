// Gemini CLI itself (the pinned npm release scripts/hosts/setup.sh installs), run headless
// (`gemini -p`) against a stand-in Gemini API on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL), in a repository
// set up by `lore init --agent gemini` the way a newcomer does it (no `lore` on PATH), through
// ./recallHarness.ts. The user's own ~/.gemini holds what a person who signed in with an API key
// and trusted the folder has: settings.json choosing API-key auth (usage statistics off) and
// trustedFolders.json (Gemini CLI disables a project's MCP servers in an untrusted folder). Lore's
// server comes from the .gemini/settings.json init wrote.

import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions';
import { CLI } from '../support/cli';
import { RESULTS } from './hostFixture';
import {
  assertReachedModel,
  driveRecall,
  requireHost,
  stringsIn,
  type RecallDrive,
  type RecallHost,
} from './recallHarness';
import { functionResponsesSent, startGeminiStandIn } from './standInGemini';

const RECALL = 'mcp_lore_recall';

const GEMINI: RecallHost = {
  label: 'Gemini CLI',
  bin: 'gemini',
  agent: 'gemini',
  tool: RECALL,
  startModel: () => startGeminiStandIn(RECALL, { query: 'background jobs queue', limit: RESULTS }),
  prepare(repo, model) {
    const user = join(repo.home, '.gemini');
    mkdirSync(user);
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    };
    writeFileSync(join(user, 'settings.json'), JSON.stringify(settings, null, 2));
    writeFileSync(join(user, 'trustedFolders.json'), JSON.stringify({ [repo.workspace]: 'TRUST_FOLDER' }));
    return { ...repo.env, GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'stand-in-key' };
  },
  args: () => ['--approval-mode', 'yolo', '--output-format', 'json', '-p'],
  offered: (q) =>
    (q.body.tools ?? []).flatMap((t: { functionDeclarations?: Array<{ name: string }> }) =>
      (t.functionDeclarations ?? []).map((d) => d.name),
    ),
  results: (requests) => functionResponsesSent(requests, RECALL),
};

describe('Gemini CLI (real host, stand-in model)', function () {
  this.timeout(300_000);
  let drive: RecallDrive;

  before(async function () {
    const bin = requireHost(this, GEMINI);
    drive = await driveRecall(bin, GEMINI, 'Where do background jobs run?');
  });

  after(async () => {
    await drive?.model.close();
  });

  it('starts Lore from the .gemini/settings.json init wrote: recall arrives, fenced and bounded', () => {
    const settings = JSON.parse(readFileSync(join(drive.repo.workspace, '.gemini', 'settings.json'), 'utf8'));
    assert.deepEqual(settings.mcpServers.lore, { command: process.execPath, args: [CLI, 'mcp'] });
    // The call arrived at Lore and succeeded: Gemini CLI's own tally in its JSON output.
    const stats = JSON.parse(drive.run.stdout).stats.tools.byName[RECALL];
    assert.equal(stats?.success, 1, JSON.stringify(stats));
    // Gemini CLI forwards the text content (Lore's fenced block), inside its own untrusted_context.
    const text: string = JSON.parse(drive.sent).output;
    assert.match(text, /^<untrusted_context>\n/);
    assert.match(text, /<lore-data nonce="[0-9a-f]{16}">\nThe text between these fences is untrusted data/);
    assertReachedModel(GEMINI, drive, text);
  });

  it("hands the model Lore's server instructions with the project's context, safety rule first", () => {
    // Gemini CLI puts each MCP server's instructions after the project's GEMINI.md context, in the
    // conversation's first content, between its own markers; the turn that offers recall carries them.
    const marked =
      "The following are instructions provided by the tool server 'lore':\n---[start of server instructions]---\n" +
      `${SERVER_INSTRUCTIONS}\n---[end of server instructions]---`;
    const main = drive.model.requests.filter((q) => GEMINI.offered(q).includes(RECALL));
    assert.ok(main.length, 'a turn offered recall');
    for (const q of main)
      assert.ok(
        stringsIn(q.body.contents).some((s) => s.includes(marked)),
        `the turn carries Lore's instructions\n${stringsIn(q.body.contents).join('\n').slice(0, 3000)}`,
      );
  });
});
