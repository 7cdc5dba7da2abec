// Every tool's results fit the outputSchema it lists, as a strict client checks them: the SDK
// client validates after listTools (and fails the call otherwise), and ajv checks every result
// shape again — successes, conflicts, refusals of tampered records, drift, errors. Before results
// were cut to their schema, `get` and a lost `remember` race carried memory.signature and failed.

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WorkspaceFileSource } from '../../../src/host/fileSource';
import { storePaths } from '../../../src/host/dataDir';
import { WasmSqlDatabase } from '../../../src/host/sqlite';
import { connectInProcess, textOf, type McpHarness } from '../../support/mcp';
import { schemaChecker, type SchemaChecker } from '../../support/outputSchemas';

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const decision = {
  type: 'decision',
  title: 'Use Postgres for the job queue',
  description: 'Jobs run on Postgres SKIP LOCKED',
  body: 'One system fewer.',
};
const KEY = 'decision/use-postgres-for-the-job-queue';

describe('MCP results fit their output schemas (strict client)', function () {
  let h: McpHarness;
  let schemas: SchemaChecker;
  const call = async (tool: string, args: Record<string, unknown>, shape?: string) =>
    schemas.check(tool, await h.call(tool, args), shape);
  beforeEach(async () => {
    h = await connectInProcess();
    // Listing first makes the SDK client enforce the schemas on every call, as the Inspector does.
    schemas = schemaChecker((await h.client.listTools()).tools);
  });
  afterEach(() => h.close());

  it('get and a lost remember race return no field the schema forbids', async () => {
    await call('remember', decision, 'created');
    const got = await call('get', { key: KEY });
    assert.equal((got.structuredContent as { memory: { key: string } }).memory.key, KEY);
    assert.ok(!('signature' in (got.structuredContent as { memory: object }).memory));
    const lost = await call('remember', { ...decision, key: KEY, body: 'B', expected_version: 0 }, 'conflict');
    const conflict = lost.structuredContent as { saved: boolean; conflict: { current: { body: string } } };
    assert.equal(conflict.saved, false);
    assert.equal(conflict.conflict.current.body, 'One system fewer.');
  });

  it('covers every tool and every result shape', async () => {
    write(h.workspace, 'scripts/rotate.sh', '#!/bin/sh\nvault write -f transit/keys/app/rotate\n');
    write(
      h.workspace,
      'docs/runbooks/rotate.md',
      '# Rotate the key\n\nRun `scripts/rotate.sh` and restart the API pods.\n',
    );
    write(h.workspace, 'docs/big.md', `# Big\n\n${'A line of a long guide about the queue.\n'.repeat(600)}`);
    const run = await h.access.use((engine) => engine.index(new WorkspaceFileSource(h.workspace)));
    for await (const _ of run);

    await call('remember', decision, 'created');
    await call('remember', decision, 'unchanged');
    await call('remember', { ...decision, key: KEY, body: 'Version two.' }, 'new version');
    await call('remember', { ...decision, key: KEY, body: 'C', expected_version: 1 }, 'conflict with current');
    await call(
      'remember',
      { type: 'fact', title: 'Never saved', description: 'x', key: 'fact/never-saved', expected_version: 3 },
      'conflict without current',
    );
    await call(
      'remember',
      { type: 'fact', title: 'Pin Node 18', description: 'a blog says so', source: 'webpage' },
      'quarantined',
    );
    await call(
      'remember',
      { type: 'dead_end', title: 'Redis lists as the job queue', description: 'lost jobs on failover' },
      'dead end',
    );
    await call(
      'remember',
      { type: 'decision', title: 'Try Redis lists for the job queue', description: 'Redis lists as the job queue' },
      'dead-end warning',
    );
    await call(
      'remember',
      { type: 'fact', title: 'Queue limit', description: 'at most 10 jobs', fact_key: 'queue.limit' },
      'fact',
    );
    await call(
      'remember',
      { type: 'fact', title: 'Queue limit raised', description: 'at most 20 jobs', fact_key: 'queue.limit' },
      'superseding fact',
    );
    await call(
      'remember',
      {
        type: 'runbook',
        title: 'Rotate the key',
        description: 'run the rotate script',
        anchors: ['scripts/rotate.sh'],
      },
      'anchored',
    );
    await call('remember', { type: 'decision', title: 'No description' }, 'invalid input');

    await call('get', { key: KEY }, 'current');
    await call('get', { key: KEY, version: 1 }, 'archived');
    await call('get', { key: 'decision/nope' }, 'not found');
    await call('recall', { query: 'job queue postgres' }, 'memories');
    await call('recall', { query: 'rotate the key restart pods' }, 'memories and documents');
    await call('recall', { query: 'redis lists queue' }, 'dead end first');
    await call('recall', { query: 'zzzz qqqq' }, 'nothing');
    await call('recall', { query: 'job queue', as_of: '2020-01-01' }, 'as of');
    await call('list', {}, 'page');
    await call('list', { limit: 1 }, 'first page');
    await call('history', { key: KEY });
    await call('read_file', { path: 'docs/runbooks/rotate.md' }, 'file');
    await call('read_file', { path: 'docs/big.md' }, 'cut');
    await call('read_file', { path: '../outside.md' }, 'refused path');
    await call('context', {}, 'open');
    await call(
      'session_close',
      { memories: [{ type: 'convention', title: 'Queue names are kebab-case', description: 'e.g. send-email' }] },
      'review',
    );
    await call(
      'session_close',
      {
        memories: [{ type: 'convention', title: 'Queue names are kebab-case', description: 'e.g. send-email' }],
        mode: 'accept',
      },
      'accept',
    );
    await call(
      'session_close',
      { kind: 'incident', summary: 'we tried Redis lists as the job queue again', mode: 'accept' },
      'incident',
    );

    // Drift: the anchor changes, and the findings, and the flags on recall and get, are listed.
    await h.access.use((engine) => engine.driftScan());
    await call('drift', {}, 'none');
    write(h.workspace, 'scripts/rotate.sh', '#!/bin/sh\nvault write -f transit/keys/app2/rotate\n');
    await h.access.use((engine) => engine.driftCheck(['scripts/rotate.sh']));
    const drift = await call('drift', {}, 'findings');
    assert.ok((drift.structuredContent as { total: number }).total >= 1, textOf(drift));
    await call('recall', { query: 'rotate the key' }, 'with drift');
    await call('get', { key: 'runbook/rotate-the-key' }, 'with drift');

    await call('set_status', {
      key: 'decision/try-redis-lists-for-the-job-queue',
      status: 'disputed',
      reason: 'see the dead end',
    });
    await call('set_status', { key: 'decision/nope', status: 'disputed', reason: 'x' }, 'not found');
    await call('supersede', { old_key: 'decision/try-redis-lists-for-the-job-queue', new_key: KEY });
    await call('forget', { key: 'fact/pin-node-18' });

    // A record changed behind Lore's back is refused by recall and list, listed under `refused`.
    h.access.close();
    const db = new WasmSqlDatabase(storePaths(h.workspace, h.home).database);
    db.run(`UPDATE memories SET description = 'Jobs run on a tampered queue' WHERE key = '${KEY}'`);
    db.close();
    const refusedRecall = await call('recall', { query: 'tampered queue postgres' }, 'refused');
    assert.ok((refusedRecall.structuredContent as { refused: unknown[] }).refused.length >= 1, textOf(refusedRecall));
    const refusedList = await call('list', {}, 'refused');
    assert.ok((refusedList.structuredContent as { refused: unknown[] }).refused.length >= 1);
    await call('get', { key: KEY }, 'tampered');

    const listed = (await h.client.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual([...schemas.covered().keys()].sort(), listed, 'every listed tool had a structured result checked');
  });

  it('fits without a store too', async () => {
    const bare = await connectInProcess({ workspace: null });
    try {
      const check = schemaChecker((await bare.client.listTools()).tools);
      check.check('context', await bare.call('context'), 'unavailable');
      check.check('recall', await bare.call('recall', { query: 'anything' }), 'store unavailable');
    } finally {
      await bare.close();
    }
  });
});
