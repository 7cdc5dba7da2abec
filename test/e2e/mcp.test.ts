// The built MCP server through a real MCP client: over stdio (`lore mcp`) and over HTTP
// (`lore serve`), one owner per store, two agents at once, and no store at all.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/host/openStore';
import { storePaths } from '../../src/host/dataDir';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { schemaChecker } from '../support/outputSchemas';
import {
  CLI,
  httpAgent,
  ownerFile,
  readOwnerFile,
  sandbox,
  startServe,
  stdioAgent,
  text,
  type Sandbox,
  type ServeProcess,
} from '../support/processes';

const decision = {
  type: 'decision',
  title: 'Use Postgres for the job queue',
  description: 'Background jobs run on Postgres SKIP LOCKED',
  body: 'Fewer systems to run.',
};

function cli(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, ...args], {
    env: box.env,
    encoding: 'utf8',
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    json: (() => {
      try {
        return JSON.parse(r.stdout);
      } catch {
        return undefined;
      }
    })(),
  };
}

describe('MCP over stdio (lore mcp)', () => {
  it('serves the tools to a real client and owns the store while it runs', async () => {
    const box = sandbox();
    const agent = await stdioAgent(box);
    try {
      const { tools } = await agent.client.listTools();
      assert.ok(tools.some((t) => t.name === 'recall'));
      const saved = await agent.call('remember', decision);
      assert.ok(!saved.isError, text(saved));
      const recalled = await agent.call('recall', { query: 'background jobs' });
      assert.equal(
        (recalled.structuredContent as { results: Array<{ key: string }> }).results[0].key,
        'decision/use-postgres-for-the-job-queue',
      );
      // The CLI, run meanwhile, becomes the owner's client instead of failing: it waits for the
      // owner's loopback HTTP, which starts once drift's symbol parser has loaded (after the first
      // stdio answers on a slow machine), so the owner file is read after it.
      const listed = cli(box, ['--json', 'list']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.json.total, 1);
      const owner = readOwnerFile(box);
      assert.ok(owner.port, 'the stdio owner also serves loopback HTTP for later processes');
      assert.equal(statSync(ownerFile(box)).mode & 0o777, 0o600);
    } finally {
      await agent.close();
    }
  });

  it('starts without a store, answers with what to do, and uses the store once it appears', async () => {
    const box = sandbox();
    const missing = join(box.workspace, 'not-yet');
    const agent = await stdioAgent(box, 'early-agent', missing);
    try {
      assert.ok((await agent.client.listTools()).tools.length >= 10);
      const early = await agent.call('recall', { query: 'anything' });
      assert.equal(early.isError, true);
      assert.match(text(early), /does not exist[\s\S]*What to do/);
      mkdirSync(missing);
      const later = await agent.call('remember', decision);
      assert.ok(!later.isError, text(later));
    } finally {
      await agent.close();
    }
  });
});

describe('MCP results through the built server fit the listed output schemas', () => {
  // The SDK client validates structuredContent once it has listed the tools, as strict clients do.
  it('over stdio and over HTTP: get, a lost race, an error', async () => {
    const box = sandbox();
    const serve = await startServe(box);
    const agents = [await stdioAgent(box, 'strict-stdio'), await httpAgent(serve.url, serve.mcpToken, 'strict-http')];
    try {
      for (const [i, agent] of agents.entries()) {
        const schemas = schemaChecker((await agent.client.listTools()).tools);
        const key = `decision/strict-${i}`;
        schemas.check('remember', await agent.call('remember', { ...decision, key }));
        const got = schemas.check('get', await agent.call('get', { key }));
        assert.equal((got.structuredContent as { memory: { key: string } }).memory.key, key);
        const lost = schemas.check(
          'remember',
          await agent.call('remember', { ...decision, key, body: 'late', expected_version: 0 }),
          'conflict',
        );
        assert.equal((lost.structuredContent as { saved: boolean }).saved, false);
        schemas.check('get', await agent.call('get', { key: 'decision/missing' }), 'not found');
        schemas.check('recall', await agent.call('recall', { query: 'postgres job queue' }));
        schemas.check('list', await agent.call('list', {}));
        schemas.check('context', await agent.call('context'));
      }
    } finally {
      await Promise.all(agents.map((a) => a.close()));
      await serve.stop();
    }
  });
});

describe('MCP remember on an existing key', () => {
  it('keeps the fields the call left out and clears only those sent empty (strict client)', async () => {
    const box = sandbox();
    const agent = await stdioAgent(box, 'editor-agent');
    try {
      const schemas = schemaChecker((await agent.client.listTools()).tools);
      const key = 'decision/keep-fields';
      const full = { ...decision, key, anchors: ['src/jobs/queue.ts'], tags: ['queue'], fact_key: 'jobs.backend' };
      schemas.check('remember', await agent.call('remember', full));
      const { body: _body, ...withoutBody } = decision;
      schemas.check('remember', await agent.call('remember', { ...withoutBody, key, description: 'Now SKIP LOCKED' }));
      const got = schemas.check('get', await agent.call('get', { key }));
      const kept = (got.structuredContent as { memory: Record<string, unknown> }).memory;
      assert.equal(kept.version, 2);
      assert.equal(kept.description, 'Now SKIP LOCKED');
      assert.equal(kept.body, decision.body, 'the body the agent did not send is kept');
      assert.deepEqual(kept.anchors, ['src/jobs/queue.ts']);
      assert.deepEqual(kept.tags, ['queue']);
      assert.equal(kept.fact_key, 'jobs.backend');

      schemas.check('remember', await agent.call('remember', { ...withoutBody, key, anchors: [], fact_key: null }));
      const cleared = (
        schemas.check('get', await agent.call('get', { key })).structuredContent as {
          memory: Record<string, unknown>;
        }
      ).memory;
      assert.deepEqual(cleared.anchors, []);
      assert.equal(cleared.fact_key, null);
      assert.equal(cleared.body, decision.body);
    } finally {
      await agent.close();
    }
  });
});

describe('MCP over HTTP (lore serve)', () => {
  let box: Sandbox;
  let serve: ServeProcess;
  beforeEach(async () => {
    box = sandbox();
    serve = await startServe(box);
  });
  afterEach(async () => {
    await serve.stop();
  });

  it('listens on loopback only, with a token from the 0600 owner file', async () => {
    assert.match(serve.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(statSync(ownerFile(box)).mode & 0o777, 0o600);
    assert.match(serve.token, /^[0-9a-f]{64}$/);
    assert.match(serve.mcpToken, /^[0-9a-f]{64}$/);
    const agent = await httpAgent(serve.url, serve.mcpToken);
    try {
      assert.ok(!(await agent.call('remember', decision)).isError);
      assert.equal(
        ((await agent.call('context')).structuredContent as { stats: { memories: number } }).stats.memories,
        1,
      );
    } finally {
      await agent.close();
    }
  });

  it('answers 401 to requests without the right token and touches nothing', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const rpc = {
      op: 'remember',
      args: [
        { door: 'cli', name: 'mallory' },
        { ...decision, provenance: { source: 'user' } },
      ],
    };
    const base = serve.url.replace(/\/mcp$/, '');
    for (const [path, body] of [
      ['/mcp', init],
      ['/rpc', rpc],
    ] as const) {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Bearer wrong' },
        { authorization: `Bearer ${serve.token}x` },
        { authorization: serve.token },
      ]) {
        const response = await fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
        assert.equal(response.status, 401, `${path} with ${JSON.stringify(headers)}`);
      }
    }
    // The token MCP clients get opens /mcp only: Lore's own RPC (where a person's confirmed acts
    // travel) stays shut to it, whatever actor it claims.
    const promote = { op: 'promote', args: [{ door: 'cli', name: 'agent', human: true }, 'decision/x'] };
    const withMcpToken = await fetch(`${base}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${serve.mcpToken}` },
      body: JSON.stringify(promote),
    });
    assert.equal(withMcpToken.status, 401);
    const listed = cli(box, ['--json', 'list']);
    assert.equal(listed.json.total, 0);
    assert.equal(cli(box, ['--json', 'audit', 'verify']).json.events, 0);
  });

  it('lets the CLI and a stdio agent work through the owner, and a second serve is refused', async () => {
    const saved = cli(box, [
      '--json',
      'remember',
      '--type',
      'fact',
      '--title',
      'Saved by the CLI',
      '--description',
      'through the owner',
    ]);
    assert.equal(saved.code, 0, saved.stderr);
    const agent = await stdioAgent(box, 'relayed-agent');
    try {
      const recalled = await agent.call('recall', { query: 'saved by the CLI' });
      assert.equal(
        (recalled.structuredContent as { results: Array<{ key: string }> }).results[0].key,
        'fact/saved-by-the-cli',
      );
      assert.equal(readOwnerFile(box).pid, serve.child.pid, 'the relay did not take ownership');
    } finally {
      await agent.close();
    }
    const second = cli(box, ['serve']);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /in use by another Lore process \(pid \d+, lore serve/);
  });

  it('loses nothing when two agents write at once', async () => {
    const [a, b] = await Promise.all([httpAgent(serve.url, serve.mcpToken, 'agent-a'), stdioAgent(box, 'agent-b')]);
    try {
      await a.call('remember', { ...decision, key: 'decision/shared', title: 'Shared' });
      const writes = [];
      for (let i = 0; i < 15; i++) {
        writes.push(a.call('remember', { type: 'fact', title: `Fact from A ${i}`, description: `a ${i}` }));
        writes.push(b.call('remember', { type: 'fact', title: `Fact from B ${i}`, description: `b ${i}` }));
      }
      const racers = [a, b].map((agent, i) =>
        agent.call('remember', {
          ...decision,
          key: 'decision/shared',
          title: 'Shared',
          body: `written by ${i}`,
          expected_version: 1,
        }),
      );
      const results = await Promise.all([...writes, ...racers]);
      assert.ok(
        results.every((r) => !r.isError),
        results.map(text).join('\n'),
      );
      const outcomes = (await Promise.all(racers)).map((r) => (r.structuredContent as { saved: boolean }).saved);
      assert.deepEqual(outcomes.sort(), [false, true], 'exactly one of the racing saves wins');
      const listed = cli(box, ['--json', 'list', '--type', 'fact', '--limit', '200']);
      assert.equal(listed.json.total, 30);
      assert.equal(cli(box, ['--json', 'get', 'decision/shared']).json.memory.version, 2);
      assert.equal(cli(box, ['--json', 'audit', 'verify']).json.ok, true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('releases the owner file when stopped', async () => {
    assert.ok(existsSync(ownerFile(box)));
    assert.equal(await serve.stop(), 0);
    assert.ok(!existsSync(ownerFile(box)));
  });
});

describe('lore serve refuses a non-loopback bind unless asked', () => {
  it('refuses 0.0.0.0 without --allow-remote', () => {
    const box = sandbox();
    const r = cli(box, ['serve', '--host', '0.0.0.0']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /refusing to listen on 0\.0\.0\.0: Lore serves loopback only \(to expose it anyway pass --allow-remote/,
    );
    assert.ok(!existsSync(ownerFile(box)), 'the lock is released after the refusal');
  });
});

describe('lore hook session-start', () => {
  function hook(box: Sandbox, input: string, args: string[] = []) {
    return spawnSync(process.execPath, [CLI, ...args, 'hook', 'session-start'], {
      env: box.env,
      input,
      encoding: 'utf8',
      cwd: box.workspace,
    });
  }

  it('prints the SessionStart JSON with a fenced block, dead ends first', () => {
    const box = sandbox();
    cli(box, ['remember', '--type', 'decision', '--title', 'Use Postgres', '--description', 'for the queue']);
    cli(box, [
      'remember',
      '--type',
      'dead_end',
      '--title',
      'Redis lists queue',
      '--description',
      'lost jobs on failover',
    ]);
    const r = hook(
      box,
      JSON.stringify({ session_id: 's1', cwd: box.workspace, hook_event_name: 'SessionStart', source: 'startup' }),
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    const context: string = out.hookSpecificOutput.additionalContext;
    assert.match(context, /<lore-data nonce="[0-9a-f]+">/);
    assert.ok(context.indexOf('dead_end/redis-lists-queue') < context.indexOf('decision/use-postgres'));
  });

  it('names a record that failed verification instead of handing it over', () => {
    const box = sandbox();
    cli(box, ['remember', '--type', 'decision', '--title', 'Use Postgres', '--description', 'for the queue']);
    const db = new WasmSqlDatabase(storePaths(box.workspace, box.home).database);
    db.run("UPDATE memories SET description = 'for nothing at all' WHERE key = 'decision/use-postgres'");
    db.close();
    const context: string = JSON.parse(hook(box, '{}').stdout).hookSpecificOutput.additionalContext;
    assert.match(
      context,
      /Refused \(failed verification; not memory\):\n- decision\/use-postgres v1: its content was changed after it was signed/,
    );
    assert.ok(!context.includes('for nothing at all'));
  });

  it('stays within 9,500 characters (Claude Code inlines up to about 10,000) and says when it cut', () => {
    const box = sandbox();
    // Filled in-process (one store open), then read by the built CLI like any other store.
    const store = openStore({ workspace: box.workspace, home: box.home, door: 'test' });
    try {
      store.engine.batch(() => {
        for (let i = 0; i < 250; i++) {
          store.engine.remember(
            { door: 'test', name: 'filler' },
            {
              type: 'decision',
              title: `Decision number ${i} about service ${i}`,
              description: `Service ${i} uses pattern ${i} `.padEnd(250, 'x'),
              provenance: { source: 'user' },
            },
          );
        }
      });
    } finally {
      store.close();
    }
    const r = hook(box, '{}');
    const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
    assert.ok(context.length <= 9500, `${context.length} characters`);
    assert.ok(context.length > 8000, 'the room is used');
    assert.match(
      context,
      /\[cut at 9500 characters: \d+ of \d+ item\(s\) not shown; use the recall tool for the rest\]\n<\/lore-data nonce="[0-9a-f]{16}">$/,
    );
  });

  it('prints nothing and exits 0 when there is no store or no workspace', () => {
    const box = sandbox();
    for (const args of [[], ['--workspace', join(box.workspace, 'missing')]]) {
      const r = hook(box, '{}', args);
      assert.equal(r.status, 0);
      assert.equal(r.stdout, '');
    }
    assert.ok(!existsSync(join(box.home, 'workspaces')), 'no store was created for an unknown repository');
  });
});
