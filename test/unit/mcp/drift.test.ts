// Drift through MCP: the `drift` tool (read-only, fenced, with structured findings) and drift
// flags inside the results of `recall` and `get` for a record whose anchor changed.

import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connectInProcess, textOf, type McpHarness } from '../../support/mcp';

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('MCP drift', function () {
  let h: McpHarness;
  let key: string;
  beforeEach(async () => {
    h = await connectInProcess();
    write(h.workspace, 'scripts/rotate-keys.sh', '#!/bin/sh\nvault write -f transit/keys/app/rotate\n');
    write(h.workspace, 'docs/keys.md', '# Keys\nRotate with `scripts/rotate-keys.sh`.\n');
    const saved = await h.call('remember', {
      type: 'runbook',
      title: 'Rotate the application key',
      description: 'Run the rotate script, then restart the API pods',
      anchors: ['scripts/rotate-keys.sh'],
    });
    key = (saved.structuredContent as { key: string }).key;
    await h.access.use((engine) => engine.driftScan());
  });
  afterEach(() => h.close());

  it('is a read-only tool with input and output schemas', async () => {
    const tool = (await h.client.listTools()).tools.find((t) => t.name === 'drift');
    assert.ok(tool);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.destructiveHint, false);
    assert.ok(tool.outputSchema);
  });

  it('lists what drifted, fenced, with evidence', async () => {
    write(h.workspace, 'scripts/rotate-keys.sh', '#!/bin/sh\nvault write -f transit/keys/app2/rotate\n');
    await h.access.use((engine) => engine.driftCheck(['scripts/rotate-keys.sh']));
    const result = await h.call('drift', {});
    assert.equal(result.isError, undefined, textOf(result));
    const out = result.structuredContent as {
      findings: Array<{ state: string; source: { kind: string; key?: string; path?: string } }>;
      total: number;
    };
    assert.equal(out.total, 2);
    assert.deepEqual(out.findings.map((f) => `${f.source.kind}:${f.source.key ?? f.source.path}:${f.state}`).sort(), [
      `doc:docs/keys.md:changed`,
      `memory:${key}:changed`,
    ]);
    assert.match(textOf(result), /<lore-data nonce="[0-9a-f]+">/);
    assert.match(textOf(result), /changed: memory runbook\/rotate-the-application-key → scripts\/rotate-keys\.sh/);
    const byKey = await h.call('drift', { key });
    assert.equal((byKey.structuredContent as { total: number }).total, 1);
    const states = ['current', 'relocated', 'changed', 'gone', 'broken', 'ambiguous'];
    const every = await h.call('drift', { key, states });
    assert.equal(every.isError, undefined, textOf(every));
    assert.equal((every.structuredContent as { total: number }).total, 1, 'all six states are one request');
    const none = await h.call('drift', { path: 'nowhere.md' });
    assert.equal((none.structuredContent as { total: number }).total, 0);
  });

  it('recall and get show the drift of a record whose anchor was deleted', async () => {
    rmSync(join(h.workspace, 'scripts/rotate-keys.sh'));
    const recalled = await h.call('recall', { query: 'rotate the application key' });
    assert.equal(recalled.isError, undefined, textOf(recalled));
    const hit = (
      recalled.structuredContent as {
        results: Array<{ key: string; flags: string[]; drift?: Array<{ state: string }> }>;
      }
    ).results.find((r) => r.key === key);
    assert.ok(hit?.flags.includes('drift:gone'), JSON.stringify(hit));
    assert.equal(hit?.drift?.[0].state, 'gone');
    assert.match(textOf(recalled), /drift: scripts\/rotate-keys\.sh is gone/);
    const got = await h.call('get', { key });
    assert.match(textOf(got), /drift: scripts\/rotate-keys\.sh is gone/);
  });
});
