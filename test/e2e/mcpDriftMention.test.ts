// The drift tool through a strict client (the SDK client after listTools, so every result is checked
// against the listed output schema): a mention (a Secret's name nothing defines, watched on the
// Makefile lines that use it) turns `changed` when those lines change, and bad filters are refused
// naming the field. Real `lore mcp` over stdio, the CLI as the person's other door.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaChecker } from '../support/outputSchemas';
import { CLI, sandbox, stdioAgent, text } from '../support/processes';

const FIXTURE = join(__dirname, '..', 'fixtures', 'drift-mentions');
const README = 'tools/certs/README.md';
const MAKEFILE = 'tools/certs/Makefile.k8s.mk';

describe('the drift tool reports a mention to a strict MCP client', () => {
  it("a changed line using the doc's Secret name fits the schema; bad filters say which field", async () => {
    const box = sandbox();
    cpSync(FIXTURE, box.workspace, { recursive: true });
    const agent = await stdioAgent(box, 'strict-drift');
    try {
      const schemas = schemaChecker((await agent.client.listTools()).tools);
      const lore = (args: string[]) => {
        const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
          env: box.env,
          encoding: 'utf8',
        });
        assert.equal(r.status, 0, r.stderr);
        return JSON.parse(r.stdout);
      };
      lore(['drift', 'scan']);
      const findings = async () => {
        const result = schemas.check('drift', await agent.call('drift', { path: README }));
        return (result.structuredContent as { findings: Array<{ reference: { raw: string }; state: string }> })
          .findings;
      };
      assert.deepEqual(await findings(), [], 'nothing drifted on the tree as it is');

      const path = join(box.workspace, MAKEFILE);
      writeFileSync(path, readFileSync(path, 'utf8').replace('get secret istio-ca-secret -n', 'get secret ca-root -n'));
      lore(['drift', 'check', MAKEFILE]);
      const raws = (await findings()).filter((f) => f.state === 'changed').map((f) => f.reference.raw);
      assert.ok(raws.includes('istio-ca-secret'), `the Secret's mention changed: ${raws.join(', ')}`);

      const bogus = schemas.check('drift', await agent.call('drift', { states: ['bogus'] }), 'bad state');
      assert.equal(bogus.isError, true);
      assert.match(text(bogus), /states/);
      const empty = schemas.check('drift', await agent.call('drift', { path: '' }), 'empty path');
      assert.equal(empty.isError, true);
      assert.match(text(empty), /path/);
    } finally {
      await agent.close();
    }
  });
});
