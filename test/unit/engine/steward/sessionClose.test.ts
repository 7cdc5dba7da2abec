import { strict as assert } from 'node:assert';
import { LoreError, type PlanItem, type SessionCloseResult } from '../../../../src/engine';
import { agent, confirmedPerson, memory, openTestStore, person, type TestStore } from '../../../support/store';

const POSTGRES = 'decision/use-postgres-for-the-job-queue';

function isCode(code: string, pattern?: RegExp) {
  return (e: unknown) => e instanceof LoreError && e.code === code && (!pattern || pattern.test(e.message));
}

/** A store with a decision, a dead end and a fact holder, and a session that touches each of them. */
function seed(s: TestStore): void {
  s.engine.remember(person, memory({ anchors: ['src/jobs/queue.ts'] }));
  s.engine.remember(
    person,
    memory({
      type: 'dead_end',
      title: 'Redis as the session store',
      description: 'Redis lost sessions on failover; we went back to the database',
      body: '',
    }),
  );
  s.engine.remember(
    person,
    memory({
      key: 'fact/upload-limit',
      type: 'fact',
      title: 'Uploads are limited to 10 MB',
      description: 'The API refuses uploads over 10 MB',
      fact_key: 'upload-limit',
      body: '',
    }),
  );
}

const { provenance: _p, ...postgres } = memory({ anchors: ['src/jobs/queue.ts'] });

const session = {
  session_id: 'sess-42',
  agent: 'claude',
  summary: 'We moved uploads to 50 MB, documented retries and read a blog about caching.',
  memories: [
    // 0: new, low risk
    {
      type: 'convention',
      title: 'Retry failed jobs three times',
      description: 'Workers retry a failed job three times with backoff',
      tags: ['jobs'],
      provenance: { evidence: ['src/jobs/worker.ts'], turn: 7 },
    },
    // 1: exactly what is already recorded
    postgres,
    // 2: nearly repeats the Postgres decision
    {
      ...postgres,
      key: 'decision/postgres-queue',
      description: 'Background jobs go through Postgres with SKIP LOCKED instead of a separate broker',
      anchors: ['src/jobs/enqueue.ts'],
    },
    // 3: restates a fact another record holds
    {
      type: 'fact',
      title: 'Uploads are limited to 50 MB',
      description: 'The API refuses uploads over 50 MB',
      fact_key: 'upload-limit',
    },
    // 4: repeats a dead end
    { type: 'decision', title: 'Keep sessions in Redis', description: 'Move the session store to Redis for speed' },
    // 5: from a web page
    {
      type: 'reference',
      title: 'Cache stampede mitigation',
      description: 'Use request coalescing to avoid a stampede',
      provenance: { source: 'webpage', evidence: ['https://example.com/stampede'] },
    },
  ],
};

const byCandidate = (plan: SessionCloseResult, i: number): PlanItem[] =>
  plan.items.filter((item) => item.candidate === i);

describe('session close', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    seed(s);
  });
  afterEach(() => s.cleanup());

  it('plans add, merge, supersede and promote, each with a risk and a reason', () => {
    const plan = s.engine.sessionClose(agent, session, { mode: 'review' });
    const summary = (i: number) =>
      byCandidate(plan, i).map((p) => `${p.action}:${p.risk}:${p.target ?? ''}:${p.applies}`);
    assert.deepEqual(summary(0), ['add:low::true']);
    assert.deepEqual(summary(1), [`merge:low:${POSTGRES}:true`]);
    assert.deepEqual(summary(2), [`merge:medium:${POSTGRES}:false`]);
    assert.deepEqual(summary(3), ['supersede:medium:fact/upload-limit:false']);
    assert.deepEqual(summary(4), ['add:medium::false']);
    assert.deepEqual(summary(5), ['add:low::true', 'promote:high::false']);
    assert.match(byCandidate(plan, 1)[0].reason, /already recorded/);
    assert.match(
      byCandidate(plan, 2)[0].reason,
      /nearly repeats decision\/use-postgres-for-the-job-queue \(similarity 0\.\d+\)/,
    );
    assert.match(byCandidate(plan, 4)[0].reason, /resembles the dead end dead_end\/redis-as-the-session-store/);
    assert.match(byCandidate(plan, 5)[1].reason, /untrusted source \(webpage\).*promotes it/);
    assert.ok(plan.items.every((i) => i.reason.length > 5));
  });

  it('review changes nothing in the store', () => {
    const before = s.engine.stats();
    const plan = s.engine.sessionClose(agent, session, { mode: 'review' });
    assert.equal(plan.mode, 'review');
    assert.equal(plan.applied + plan.queued, 0);
    assert.ok(plan.items.every((i) => i.outcome === undefined));
    assert.deepEqual(s.engine.stats(), before, 'same records, versions and audit events');
    assert.equal(s.engine.inbox({ state: 'all' }).total, 0);
    // Review is the default.
    s.engine.sessionClose(agent, session);
    assert.deepEqual(s.engine.stats(), before);
  });

  it("accept applies only the low-risk items, keeps the agent's provenance, and queues the rest", () => {
    const before = s.engine.stats();
    const result = s.engine.sessionClose(agent, session, { mode: 'accept' });
    const outcome = (i: number) => byCandidate(result, i).map((p) => p.outcome);
    assert.deepEqual(outcome(0), ['applied']);
    assert.deepEqual(outcome(1), ['unchanged']);
    assert.deepEqual(outcome(2), ['queued']);
    assert.deepEqual(outcome(3), ['queued']);
    assert.deepEqual(outcome(4), ['queued']);
    assert.deepEqual(outcome(5), ['applied', 'queued']);
    assert.equal(result.applied, 2);
    assert.equal(result.queued, 4);

    const added = s.engine.get('convention/retry-failed-jobs-three-times').memory;
    assert.equal(added.status, 'active');
    assert.deepEqual(
      { ...added.provenance, created_at: undefined },
      {
        source: 'agent',
        agent: 'claude',
        session_id: 'sess-42',
        turn: 7,
        evidence: ['src/jobs/worker.ts'],
        created_at: undefined,
      },
    );
    const web = s.engine.get('reference/cache-stampede-mitigation').memory;
    assert.equal(web.status, 'quarantined', 'web text is never let into recall by a session');
    assert.equal(web.provenance.source, 'webpage');

    // Nothing risky happened: the fact holder is still live, the Postgres decision unchanged.
    assert.equal(s.engine.get('fact/upload-limit').memory.status, 'active');
    assert.equal(s.engine.get(POSTGRES).memory.version, 1);
    assert.equal(s.engine.stats().memories, before.memories + 2);

    const inbox = s.engine.inbox();
    assert.equal(inbox.open, 4);
    assert.ok(inbox.items.every((i) => i.kind === 'session' && i.proposal !== null));
    const promote = inbox.items.find((i) => i.proposal?.action === 'promote')!;
    assert.equal(promote.risk, 'high');
    assert.deepEqual(promote.actions, ['promote', 'dismiss']);
    const audit = s.db.all<{ event: string; actor: string }>('SELECT event, actor FROM audit_events WHERE seq > ?', [
      before.audit_events,
    ]);
    assert.deepEqual(audit.map((e) => e.event).sort(), [
      'inbox.open',
      'inbox.open',
      'inbox.open',
      'inbox.open',
      'memory.create',
      'memory.create',
      'session.close',
    ]);
    assert.equal(audit[audit.length - 1].event, 'session.close');
    assert.ok(audit.every((e) => e.actor === 'mcp:copilot'));
    assert.ok(s.engine.verifyAudit().ok);

    // Accepting the same session again queues nothing twice.
    const again = s.engine.sessionClose(agent, session, { mode: 'accept' });
    assert.equal(again.queued, 0);
    assert.equal(s.engine.inbox().open, 4);
  });

  for (const kind of ['incident', 'migration'] as const) {
    it(`${kind} sessions are review-first: accept applies nothing and queues every item`, () => {
      const before = s.engine.stats();
      const result = s.engine.sessionClose(agent, { ...session, kind }, { mode: 'accept' });
      assert.equal(result.review_first, true);
      assert.equal(result.applied, 0);
      assert.ok(result.items.every((i) => !i.applies));
      assert.deepEqual(
        result.items.filter((i) => i.outcome !== 'queued').map((i) => `${i.candidate}:${i.outcome}`),
        ['1:unchanged'],
        'only what is already recorded is not queued',
      );
      const after = s.engine.stats();
      assert.equal(after.memories, before.memories, 'no record added');
      assert.deepEqual(after.by_status, before.by_status, 'no record changed status');
      assert.equal(s.engine.inbox().open, result.items.length - 1);
      assert.match(result.notes.join('\n'), new RegExp(`${kind} sessions are review-first`));
    });
  }

  describe('queued proposals', () => {
    beforeEach(() => s.engine.sessionClose(agent, { ...session, kind: 'incident' }, { mode: 'accept' }));
    const itemFor = (action: string, key: string) =>
      s.engine.inbox().items.find((i) => i.proposal?.action === action && i.proposal.key === key)!;

    it("applying one is a person's act: refused without confirmation, applied with it", () => {
      const add = itemFor('add', 'convention/retry-failed-jobs-three-times');
      for (const actor of [agent, person]) {
        assert.throws(() => s.engine.resolveInbox(actor, add.id, 'add'), isCode('HUMAN_ONLY'));
      }
      const r = s.engine.resolveInbox(confirmedPerson, add.id, 'add');
      assert.equal(r.outcome?.key, 'convention/retry-failed-jobs-three-times');
      assert.equal(s.engine.get('convention/retry-failed-jobs-three-times').memory.provenance.agent, 'claude');
    });

    it("promote stays a person's act; it applies once the record is in", () => {
      const promote = itemFor('promote', 'reference/cache-stampede-mitigation');
      assert.throws(() => s.engine.resolveInbox(agent, promote.id, 'promote'), isCode('HUMAN_ONLY'));
      assert.throws(
        () => s.engine.resolveInbox(confirmedPerson, promote.id, 'promote'),
        isCode('NOT_FOUND'),
        'the add comes first',
      );
      s.engine.resolveInbox(confirmedPerson, itemFor('add', 'reference/cache-stampede-mitigation').id, 'add');
      assert.equal(s.engine.get('reference/cache-stampede-mitigation').memory.status, 'quarantined');
      s.engine.resolveInbox(confirmedPerson, promote.id, 'promote');
      assert.equal(s.engine.get('reference/cache-stampede-mitigation').memory.status, 'active');
    });

    it("merge into a near duplicate adds the candidate's anchors there; supersede replaces the fact holder", () => {
      s.engine.resolveInbox(confirmedPerson, itemFor('merge', 'decision/postgres-queue').id, 'merge');
      const merged = s.engine.get(POSTGRES).memory;
      assert.equal(merged.version, 2);
      assert.deepEqual(merged.anchors, ['src/jobs/queue.ts', 'src/jobs/enqueue.ts']);
      assert.equal(merged.description, memory().description, 'the record keeps what it says');

      s.engine.resolveInbox(confirmedPerson, itemFor('supersede', 'fact/uploads-are-limited-to-50-mb').id, 'supersede');
      assert.equal(s.engine.get('fact/upload-limit').memory.superseded_by, 'fact/uploads-are-limited-to-50-mb');
    });

    it("a merge into a near duplicate keeps that record's valid time (its valid_from is not restarted)", () => {
      const before = s.engine.get(POSTGRES).memory;
      s.clock.advanceDays(3);
      s.engine.resolveInbox(confirmedPerson, itemFor('merge', 'decision/postgres-queue').id, 'merge');
      const merged = s.engine.get(POSTGRES).memory;
      assert.equal(merged.version, 2);
      assert.equal(merged.valid_from, before.valid_from);
      assert.notEqual(merged.recorded_at, before.recorded_at, 'a new version was written');
    });

    it('refuses a proposal whose records moved on since it was queued, and a promote of text nobody reviewed', () => {
      // A person edits the record the near duplicate would merge into: the merge is stale.
      s.engine.remember(
        person,
        memory({ anchors: ['src/jobs/queue.ts'], body: 'Edited by a person after the session.' }),
      );
      const merge = itemFor('merge', 'decision/postgres-queue');
      assert.throws(
        () => s.engine.resolveInbox(confirmedPerson, merge.id, 'merge'),
        isCode(
          'INVALID_STATE',
          /^decision\/use-postgres-for-the-job-queue changed since inbox item \d+ was queued \(then v1, active; now v2, active\)/,
        ),
      );
      assert.equal(s.engine.get(POSTGRES).memory.body, 'Edited by a person after the session.', 'the edit stands');
      assert.equal(s.engine.inbox().items.find((i) => i.id === merge.id)?.state, 'open');
      // Keeping the candidate as a record of its own writes only its own key, which is still free.
      assert.equal(s.engine.resolveInbox(confirmedPerson, merge.id, 'add').outcome?.key, 'decision/postgres-queue');

      // Someone saves the key an add proposal would create: the add no longer creates it.
      const add = itemFor('add', 'decision/keep-sessions-in-redis');
      s.engine.remember(
        person,
        memory({
          type: 'decision',
          title: 'Keep sessions in Redis',
          description: 'Decided by a person, differently',
          body: '',
        }),
      );
      assert.throws(
        () => s.engine.resolveInbox(confirmedPerson, add.id, 'add'),
        isCode('INVALID_STATE', /then absent; now v1, active/),
      );

      // The quarantined text changes after the person read the proposal: promote refuses.
      const stampede = 'reference/cache-stampede-mitigation';
      s.engine.resolveInbox(confirmedPerson, itemFor('add', stampede).id, 'add');
      s.engine.remember(agent, {
        key: stampede,
        type: 'reference',
        title: 'Cache stampede mitigation',
        description: 'Turn the cache off whenever load rises',
        body: '',
        provenance: { source: 'webpage' },
      });
      assert.equal(s.engine.get(stampede).memory.status, 'quarantined');
      assert.throws(
        () => s.engine.resolveInbox(confirmedPerson, itemFor('promote', stampede).id, 'promote'),
        isCode('INVALID_STATE', /no longer says what inbox item \d+ proposes to promote/),
      );
      assert.equal(s.engine.get(stampede).memory.status, 'quarantined');
    });

    it('dismissing one drops the candidate it carried', () => {
      const item = itemFor('add', 'decision/keep-sessions-in-redis');
      const r = s.engine.resolveInbox(agent, item.id, 'dismiss');
      assert.equal(r.item.proposal, null);
      assert.ok(
        !JSON.stringify(s.db.all('SELECT proposal FROM inbox_items WHERE id = ?', [item.id])).includes('speed'),
      );
    });
  });

  describe('input', () => {
    it('is validated with errors that say where and what', () => {
      assert.throws(
        () => s.engine.sessionClose(agent, { kind: 'hotfix', memories: [] }),
        isCode('INVALID_INPUT', /kind must be one of routine, incident, migration/),
      );
      assert.throws(() => s.engine.sessionClose(agent, {}), isCode('INVALID_INPUT', /neither a summary nor memories/));
      assert.throws(
        () => s.engine.sessionClose(agent, { memories: [{ type: 'decision', title: 'x' }] }),
        isCode('INVALID_INPUT', /^memories\[0\]: description must be text/),
      );
      assert.throws(
        () => s.engine.sessionClose(agent, { memories: [session.memories[0], session.memories[0]] }),
        isCode('INVALID_INPUT', /memories\[0\] and memories\[1\] both save/),
      );
      assert.throws(
        () =>
          s.engine.sessionClose(agent, { summary: 'deployed with password postgres://admin:hunter2@db.internal/app' }),
        isCode('SECRET_DETECTED'),
      );
      assert.throws(
        () => s.engine.sessionClose(agent, { memories: [], extra: 1 }),
        isCode('INVALID_INPUT', /unknown field\(s\): extra/),
      );
      assert.throws(
        () => s.engine.sessionClose(agent, { summary: 'x' }, { mode: 'apply' as 'accept' }),
        isCode('INVALID_INPUT', /mode must be one of review, accept/),
      );
      assert.throws(
        () => s.engine.sessionClose(agent, { memories: Array.from({ length: 51 }, () => session.memories[0]) }),
        isCode('LIMIT_EXCEEDED'),
      );
    });

    it('an agent cannot say a person declared it', () => {
      assert.throws(
        () => s.engine.sessionClose(agent, { memories: [{ ...session.memories[0], provenance: { source: 'user' } }] }),
        isCode('INVALID_INPUT', /memories\[0\]\.provenance\.source must be one of agent, file, webpage, tool/),
      );
      assert.throws(
        () => s.engine.sessionClose(agent, { source: 'user', memories: [session.memories[0]] }),
        isCode('INVALID_INPUT'),
      );
    });

    it('a summary alone gives no items, says why, and notes dead ends it resembles', () => {
      const plan = s.engine.sessionClose(agent, {
        summary: 'Tried Redis as the session store again; failover lost sessions.',
      });
      assert.deepEqual(plan.items, []);
      assert.match(plan.notes.join('\n'), /does not extract memories from a summary/);
      assert.match(plan.notes.join('\n'), /resembles the dead end dead_end\/redis-as-the-session-store/);
    });
  });
});
