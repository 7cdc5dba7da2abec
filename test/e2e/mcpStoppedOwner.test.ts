// A relayed call to an owner that is stopped (SIGSTOP: alive, holding the lock, answering nothing)
// times out and fails over instead of waiting forever: the agent gets an answer that says what is
// wrong, and once the owner runs again the next call is relayed to it as before.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, sandbox, startServe, stdioAgent, text, type Agent, type ServeProcess } from '../support/processes';

describe('lore mcp relaying to a stopped owner', function () {
  this.timeout(90_000);
  let serve: ServeProcess | undefined;
  let agent: Agent | undefined;
  afterEach(async () => {
    if (serve) serve.child.kill('SIGCONT');
    await agent?.close();
    await serve?.stop();
  });

  it('answers with a clear error within the deadline, then relays again once the owner resumes', async () => {
    const box = sandbox();
    serve = await startServe(box);
    const saved = spawnSync(
      process.execPath,
      [CLI, '--workspace', box.workspace, 'remember', '--type', 'decision', '--title', 'Jobs run on Postgres'].concat([
        '--description',
        'SKIP LOCKED queue',
      ]),
      { env: box.env, encoding: 'utf8' },
    );
    assert.equal(saved.status, 0, saved.stderr);
    agent = await stdioAgent({ ...box, env: { ...box.env, LORE_REQUEST_DEADLINE_MS: '2000' } }, 'stopped-owner');
    const first = await agent.call('recall', { query: 'postgres jobs' });
    assert.match(text(first), /Jobs run on Postgres/);

    serve.child.kill('SIGSTOP');
    // Before, this call never returned (the SDK client's own 60 s timeout would fail the test).
    const stopped = await agent.call('recall', { query: 'postgres jobs' });
    assert.equal(stopped.isError, true, text(stopped));
    assert.match(text(stopped), /did not answer|in use by another Lore process/);

    serve.child.kill('SIGCONT');
    const resumed = await agent.call('recall', { query: 'postgres jobs' });
    assert.notEqual(resumed.isError, true, text(resumed));
    assert.match(text(resumed), /Jobs run on Postgres/);
  });
});
