// An agent's `lore mcp` relays to the process that owns the store (the editor, `lore serve`).
// When that owner dies mid-session the relay elects again — to a new owner if one started, else
// it takes the store over itself — and the agent's next call simply works: same session, no error.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { runFailoverLoad } from '../support/failoverLoad';
import {
  CLI,
  readOwnerFile,
  sandbox,
  startServe,
  stdioAgent,
  text,
  type Agent,
  type Sandbox,
} from '../support/processes';

function cli(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
    env: box.env,
    encoding: 'utf8',
  });
  return { code: r.status, json: JSON.parse(r.stdout || 'null'), stderr: r.stderr };
}

type Results = { results: Array<{ key: string }> };

describe('lore mcp when the owner it relays to dies', function () {
  this.timeout(90_000);
  let box: Sandbox;
  let agent: Agent | undefined;

  beforeEach(() => {
    box = sandbox();
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  async function killServe(box: Sandbox): Promise<number> {
    const serve = await startServe(box);
    const saved = cli(box, [
      'remember',
      '--type',
      'decision',
      '--title',
      'Jobs run on Postgres',
      '--description',
      'SKIP LOCKED queue, no broker',
    ]);
    assert.equal(saved.code, 0, saved.stderr);
    agent = await stdioAgent(box, 'relayed-agent');
    const before = await agent.call('recall', { query: 'postgres jobs' });
    assert.equal((before.structuredContent as Results).results[0].key, 'decision/jobs-run-on-postgres');
    assert.equal(readOwnerFile(box).pid, serve.child.pid);
    const exited = once(serve.child, 'exit');
    serve.child.kill('SIGKILL');
    await exited;
    return serve.child.pid!;
  }

  it('takes the store over itself and answers the next call', async () => {
    const deadPid = await killServe(box);
    const after = await agent!.call('recall', { query: 'postgres jobs' });
    assert.equal(after.isError, undefined, JSON.stringify(after.content));
    assert.equal((after.structuredContent as Results).results[0].key, 'decision/jobs-run-on-postgres');
    const owner = readOwnerFile(box);
    assert.notEqual(owner.pid, deadPid);
    assert.equal(owner.door, 'lore mcp');

    // It is the owner now: writes land, and the CLI reaches the store through it.
    const wrote = await agent!.call('remember', {
      type: 'fact',
      title: 'Written after the failover',
      description: 'through the new owner',
    });
    assert.equal(wrote.isError, undefined, JSON.stringify(wrote.content));
    assert.equal(cli(box, ['list', '--type', 'fact']).json.total, 1);
    assert.equal(cli(box, ['audit', 'verify']).json.ok, true);
  });

  it('relays to a new owner when one started, replaying the session handshake', async () => {
    await killServe(box);
    const second = await startServe(box);
    try {
      const after = await agent!.call('recall', { query: 'postgres jobs' });
      assert.equal(after.isError, undefined, JSON.stringify(after.content));
      assert.equal((after.structuredContent as Results).results[0].key, 'decision/jobs-run-on-postgres');
      assert.equal(readOwnerFile(box).pid, second.child.pid, 'the new serve stays the owner');
      const tools = await agent!.client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'recall'));
    } finally {
      await agent!.close();
      agent = undefined;
      await second.stop();
    }
  });
});

describe('many agents on one store while its owner is killed', function () {
  this.timeout(180_000);

  it('agents that start together all relay to the one that won the election: no call fails', async () => {
    const box = sandbox();
    const agents = await Promise.all([0, 1, 2, 3].map((i) => stdioAgent(box, `starter-${i}`)));
    try {
      const results = await Promise.all(
        agents.flatMap((agent, a) =>
          Array.from({ length: 10 }, (_, i) =>
            agent.call('remember', { type: 'fact', title: `Start ${a} ${i}`, description: 'written at start' }),
          ),
        ),
      );
      const failed = results.filter((r) => r.isError).map(text);
      assert.deepEqual(failed, [], 'every write of agents that started together lands');
      assert.ok(
        agents.some((a) => a.pid === readOwnerFile(box).pid),
        'one of them owns the store',
      );
      assert.equal(cli(box, ['list', '--type', 'fact', '--limit', '100']).json.total, 40);
    } finally {
      await Promise.all(agents.map((a) => a.close()));
    }
  });

  it(
    '4 agents × 25 writes, the owner killed 3 times: no failed call ' + 'outside a kill, no acknowledged write lost',
    async () => {
      const result = await runFailoverLoad({ agents: 4, writesPerAgent: 25, kills: 3 });
      assert.deepEqual(result.failed, [], 'calls of agents whose own process was not killed never fail');
      assert.deepEqual(result.lost, [], 'every acknowledged write is in the store');
      assert.equal(result.kills.serve + result.kills.agents, 3);
      assert.equal(result.acknowledged + result.failedInKill, 100);
      assert.ok(result.failedInKill <= result.kills.agents, 'at most the one call in flight per killed agent fails');
      assert.equal(result.auditOk, true);
    },
  );
});
