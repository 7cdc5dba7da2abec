// The steward, the Inbox and session close through the built `lore` command, the way a person
// runs them: `lore steward run`, `lore inbox`, `lore inbox resolve`, `lore session close`.

import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  makeSpace,
  ok,
  rememberArgs,
  runCli,
  runCliAsPerson,
  storeDigest,
  storeView,
  type CliResult,
  type CliSpace,
} from '../support/cli';
import { sandbox, startServe, stdioAgent, type ServeProcess } from '../support/processes';

const QUEUE = rememberArgs(
  'Use Postgres for the job queue',
  'Background jobs go through Postgres with SKIP LOCKED',
  '--anchor',
  'src/jobs/queue.ts',
);

function failed(result: CliResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, `expected exit ${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  assert.match(result.stderr, pattern);
  assert.equal(result.stderr.trim().split('\n').length, 1, 'one line');
}

function sessionFile(space: CliSpace, name: string, body: unknown): string {
  const file = join(space.root, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

const SESSION = {
  kind: 'routine',
  session_id: 's-1',
  agent: 'claude',
  memories: [
    {
      type: 'convention',
      title: 'Retry failed jobs three times',
      description: 'Workers retry a failed job three times with backoff',
    },
    {
      type: 'reference',
      title: 'Cache stampede mitigation',
      description: 'Use request coalescing to avoid a stampede',
      provenance: { source: 'webpage', evidence: ['https://example.com/stampede'] },
    },
  ],
};

describe('lore steward, inbox and session close, end to end', function () {
  this.timeout(60_000);
  let space: CliSpace;
  beforeEach(() => (space = makeSpace('lore-steward-')));
  afterEach(() => space.cleanup());

  it(
    'steward run: a dry run writes nothing; a run merges exact ' +
      'duplicates and queues the rest; the Inbox resolves them',
    () => {
      // The anchor exists, so drift has nothing to say about it.
      mkdirSync(join(space.workspace, 'src', 'jobs'), { recursive: true });
      writeFileSync(join(space.workspace, 'src', 'jobs', 'queue.ts'), 'export function enqueue() {}\n');
      ok(space.lore(...QUEUE));
      ok(space.lore(...QUEUE, '--key', 'decision/postgres-job-queue'));
      ok(
        space.lore(
          ...rememberArgs(
            'Rotate the TLS certificates',
            'Renew and deploy them before they expire',
            '--type',
            'runbook',
            '--review-after',
            '2020-01-01',
          ),
        ),
      );
      const before = storeView(space);

      const dry = ok(space.lore('steward', 'run', '--dry-run', '--json'));
      assert.deepEqual(
        dry.json.findings.map((f: { kind: string; outcome: string }) => `${f.kind}:${f.outcome}`).sort(),
        ['duplicate:would_apply', 'stale:would_queue'],
      );
      assert.deepEqual(storeView(space), before, 'the dry run changed nothing');
      assert.match(
        ok(space.lore('steward', 'run', '--dry-run')).stdout,
        /^steward dry run: 3 records scanned; would merge 1, would queue 1 \(nothing was written\)/,
      );

      const run = ok(space.lore('steward', 'run', '--json'));
      assert.equal(run.json.applied, 1);
      assert.equal(run.json.queued, 1);
      const history = ok(space.lore('history', 'decision/postgres-job-queue', '--json')).json;
      assert.ok(
        history.events.some(
          (e: { event: string; actor: string }) => e.event === 'merged' && e.actor === 'steward:policy',
        ),
        JSON.stringify(history.events),
      );
      assert.equal(ok(space.lore('audit', 'verify', '--json')).json.ok, true);

      const inbox = ok(space.lore('inbox', '--json')).json;
      assert.equal(inbox.open, 1);
      const [item] = inbox.items;
      assert.equal(item.kind, 'stale');
      assert.deepEqual(item.actions, ['deprecate', 'dispute', 'dismiss']);
      assert.match(
        ok(space.lore('inbox')).stdout,
        new RegExp(
          `#${item.id} \\[medium\\] stale: ` +
            `runbook/rotate-the-tls-certificates may be out of ` +
            `date[\\s\\S]*actions: deprecate \\(suggested\\), dispute, ` +
            `dismiss`,
        ),
      );

      failed(
        space.lore('inbox', 'resolve', String(item.id), '--action', 'keep'),
        2,
        /--action must be one of merge, supersede, deprecate, dispute, add, promote, dismiss; got "keep"/,
      );
      failed(
        space.lore('inbox', 'resolve', String(item.id), '--action', 'merge'),
        1,
        /cannot be resolved with merge; valid actions: deprecate, dispute, dismiss/,
      );
      failed(space.lore('inbox', 'resolve', String(item.id)), 2, /needs --action/);
      const resolved = ok(
        space.lore(
          'inbox',
          'resolve',
          String(item.id),
          '--action',
          'deprecate',
          '--note',
          'certificates are managed by the platform now',
        ),
      );
      assert.match(
        resolved.stdout,
        new RegExp(`#${item.id} resolved \\(deprecate\\); changed runbook/rotate-the-tls-certificates`),
      );
      const runbook = ok(space.lore('get', 'runbook/rotate-the-tls-certificates', '--json')).json.memory;
      assert.equal(runbook.status, 'deprecated');
      assert.equal(runbook.status_reason, 'certificates are managed by the platform now');
      assert.match(ok(space.lore('inbox')).stdout, /the Inbox is empty/);
    },
  );

  it(
    'session close: review writes nothing (not even a store); accept ' +
      'applies the low-risk items; promote waits for a person at a ' +
      'terminal',
    async () => {
      const file = sessionFile(space, 'session.json', SESSION);
      const review = ok(space.lore('session', 'close', '--file', file, '--json'));
      assert.equal(review.json.mode, 'review');
      assert.deepEqual(
        review.json.items.map((i: { action: string; risk: string }) => `${i.action}:${i.risk}`),
        ['add:low', 'add:low', 'promote:high'],
      );
      assert.equal(storeDigest(space), undefined, 'reviewing created no store');
      assert.match(
        ok(space.lore('session', 'close', '--file', file)).stdout,
        /plan for a routine session \(review: nothing was written\)[\s\S]*promote\s+high/,
      );

      const accept = ok(space.lore('session', 'close', '--file', file, '--accept', '--json'));
      assert.equal(accept.json.applied, 2);
      assert.equal(accept.json.queued, 1);
      const convention = ok(space.lore('get', 'convention/retry-failed-jobs-three-times', '--json')).json.memory;
      assert.equal(convention.provenance.agent, 'claude');
      assert.equal(convention.provenance.session_id, 's-1');
      assert.equal(
        ok(space.lore('get', 'reference/cache-stampede-mitigation', '--json')).json.memory.status,
        'quarantined',
      );

      const [promote] = ok(space.lore('inbox', '--json')).json.items;
      assert.equal(promote.proposal.action, 'promote');
      failed(
        space.lore('inbox', 'resolve', String(promote.id), '--action', 'promote'),
        1,
        /asks a person to confirm, and this is not an interactive terminal/,
      );
      assert.equal(
        ok(space.lore('get', 'reference/cache-stampede-mitigation', '--json')).json.memory.status,
        'quarantined',
      );

      const confirmed = await runCliAsPerson(
        ['inbox', 'resolve', String(promote.id), '--action', 'promote', '--json'],
        { home: space.home, workspace: space.workspace },
      );
      assert.equal(confirmed.code, 0, confirmed.stdout + confirmed.stderr);
      assert.match(confirmed.stdout, /type this code: \d{3} \d{3}/);
      assert.equal(ok(space.lore('get', 'reference/cache-stampede-mitigation', '--json')).json.memory.status, 'active');
    },
  );

  it('session close: an incident session applies nothing on accept; bad input is a usage error', () => {
    ok(space.lore(...QUEUE));
    const before = storeView(space);
    const accept = ok(
      space.lore(
        'session',
        'close',
        '--file',
        sessionFile(space, 'incident.json', { ...SESSION, kind: 'incident' }),
        '--accept',
        '--json',
      ),
    );
    assert.equal(accept.json.applied, 0);
    assert.equal(accept.json.queued, 3);
    assert.deepEqual(storeView(space).items, before.items, 'no record added or changed');

    failed(
      space.lore('session', 'close', '--file', sessionFile(space, 'bad.json', { kind: 'hotfix', memories: [] })),
      1,
      /kind must be one of routine, incident, migration/,
    );
    const notJson = join(space.root, 'notjson.json');
    writeFileSync(notJson, '{ kind: routine');
    failed(space.lore('session', 'close', '--file', notJson), 2, /is not JSON/);
    failed(
      space.lore('session', 'close', '--file', notJson, '--review', '--accept'),
      2,
      /--review or --accept, not both/,
    );
    failed(space.lore('session', 'close'), 2, /needs --file/);
  });

  it(
    "works through the store's owner: an agent closes a session over " + 'MCP, a person reviews it from the CLI',
    async () => {
      const box = sandbox();
      const serve: ServeProcess = await startServe(box);
      const agent = await stdioAgent(box, 'claude-code');
      try {
        const closed = await agent.call('session_close', {
          memories: SESSION.memories.map(({ provenance, ...m }) => ({
            ...m,
            ...(provenance ? { source: provenance.source, evidence: provenance.evidence } : {}),
          })),
          mode: 'accept',
        });
        assert.ok(!closed.isError, JSON.stringify(closed.content));
        assert.deepEqual(
          [
            (closed.structuredContent as { applied: number }).applied,
            (closed.structuredContent as { queued: number }).queued,
          ],
          [2, 1],
        );
        const lore = (...args: string[]) => runCli(args, { home: box.home, workspace: box.workspace });
        const inbox = ok(lore('inbox', '--json')).json;
        assert.deepEqual(
          inbox.items.map((i: { proposal: { action: string } }) => i.proposal.action),
          ['promote'],
        );
        const run = ok(lore('steward', 'run', '--json')).json;
        assert.equal(run.scanned, 1, 'the quarantined record is not scanned');
        ok(lore('inbox', 'resolve', String(inbox.items[0].id), '--action', 'dismiss'));
        assert.equal(ok(lore('inbox', '--json')).json.open, 0);
        assert.equal(
          ok(lore('get', 'reference/cache-stampede-mitigation', '--json')).json.memory.status,
          'quarantined',
        );
      } finally {
        await agent.close();
        await serve.stop();
        rmSync(dirname(box.home), { recursive: true, force: true });
      }
    },
  );
});
