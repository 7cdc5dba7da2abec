// The memory features on both stores, with the same assertions: save (versions, lost races,
// archive), get, list, history, lifecycle (deprecate, dispute, retract, supersede, fact keys,
// promote), forget, and the audit chain verified against the rows — on SQLite and on PostgreSQL.

import { strict as assert } from 'node:assert';
import { LoreError, type SaveResult } from '../../../../src/engine';
import { describeBothStores } from '../../../support/bothStores';
import { agent, confirmedPerson, memory, person } from '../../../support/store';

function saved(result: SaveResult): Extract<SaveResult, { saved: true }> {
  assert.equal(result.saved, true, JSON.stringify(result));
  return result as Extract<SaveResult, { saved: true }>;
}

function refusedWith(work: () => unknown, code: string, pattern: RegExp): void {
  assert.throws(work, (error: unknown) => {
    assert.ok(error instanceof LoreError, `expected a LoreError, got ${error}`);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

describeBothStores('memories on either store', (open) => {
  it('saves a record and reads every field back', () => {
    const s = open();
    const r = saved(
      s.engine.remember(person, memory({ anchors: ['src/jobs/queue.ts#enqueue'], tags: ['Queue'], confidence: 0.8 })),
    );
    assert.equal(r.key, 'decision/use-postgres-for-the-job-queue');
    assert.deepEqual([r.version, r.status, r.created], [1, 'active', true]);
    const { memory: m, flags, archived } = s.engine.get(r.key);
    assert.equal(m.title, 'Use Postgres for the job queue');
    assert.deepEqual(m.anchors, ['src/jobs/queue.ts#enqueue']);
    assert.deepEqual(m.tags, ['queue']);
    assert.equal(m.confidence, 0.8);
    assert.equal(m.recorded_at, '2026-01-01T00:00:00.000Z');
    assert.match(m.signature ?? '', /.{40,}/);
    assert.deepEqual([flags, archived], [[], false]);
  });

  it('versions a save, keeps what an update leaves out, and reads an archived version', () => {
    const s = open();
    const { key } = saved(s.engine.remember(person, memory({ tags: ['queue'] })));
    s.clock.advanceDays(1);
    const second = saved(s.engine.remember(person, memory({ body: 'Second thoughts.', expected_version: 1 })));
    assert.deepEqual([second.version, second.created], [2, false]);
    const current = s.engine.get(key).memory;
    assert.deepEqual([current.body, current.tags], ['Second thoughts.', ['queue']]);
    const first = s.engine.get(key, 1);
    assert.deepEqual(
      [first.memory.body, first.archived],
      ['We already run Postgres; one fewer system to operate.', true],
    );
    assert.equal(first.memory.valid_until, current.valid_from);
  });

  it('refuses a lost race with the winner and writes nothing', () => {
    const s = open();
    const { key } = saved(s.engine.remember(person, memory()));
    saved(s.engine.remember(person, memory({ body: 'Winner.', expected_version: 1 })));
    const lost = s.engine.remember(person, memory({ body: 'Loser.', expected_version: 1 }));
    assert.equal(lost.saved, false);
    if (lost.saved) return;
    assert.equal(lost.conflict.current_version, 2);
    assert.equal(lost.conflict.current?.body, 'Winner.');
    assert.equal(s.engine.get(key).memory.body, 'Winner.');
    const fresh = s.engine.remember(person, memory({ title: 'Another one', expected_version: 0 }));
    assert.equal(fresh.saved, true);
    const none = s.engine.remember(person, memory({ title: 'Not there', expected_version: 3 }));
    assert.equal(none.saved, false);
  });

  it('an unchanged save writes no version', () => {
    const s = open();
    saved(s.engine.remember(person, memory()));
    const again = saved(s.engine.remember(person, memory()));
    assert.deepEqual([again.version, again.unchanged], [1, true]);
    assert.equal(s.engine.verifyAudit().events, 1);
  });

  it('keeps the newest five archived versions', () => {
    const s = open();
    for (let i = 1; i <= 8; i++) {
      s.clock.advanceDays(1);
      saved(s.engine.remember(person, memory({ body: `Revision ${i}.` })));
    }
    const versions = s.engine.history('decision/use-postgres-for-the-job-queue').versions;
    assert.deepEqual(
      versions.map((v) => [v.version, v.current]),
      [
        [3, false],
        [4, false],
        [5, false],
        [6, false],
        [7, false],
        [8, true],
      ],
    );
    refusedWith(() => s.engine.get('decision/use-postgres-for-the-job-queue', 2), 'NOT_FOUND', /no kept version 2/);
    assert.equal(s.engine.stats().archived_versions, 5);
  });

  it('lists by type and status, newest change first, in pages', () => {
    const s = open();
    for (const [type, title] of [
      ['decision', 'Alpha choice'],
      ['dead_end', 'Beta attempt'],
      ['decision', 'Gamma choice'],
    ] as const) {
      s.clock.advanceDays(1);
      saved(s.engine.remember(person, memory({ type, title })));
    }
    s.engine.setStatus(person, 'decision/alpha-choice', 'deprecated', 'replaced by gamma');
    const all = s.engine.list();
    assert.deepEqual(
      all.items.map((i) => i.key),
      ['decision/alpha-choice', 'decision/gamma-choice', 'dead_end/beta-attempt'],
    );
    assert.equal(all.total, 3);
    const decisions = s.engine.list({ types: ['decision'], limit: 1 });
    assert.deepEqual(
      [decisions.items.map((i) => i.key), decisions.total, decisions.next_offset],
      [['decision/alpha-choice'], 2, 1],
    );
    const page2 = s.engine.list({ types: ['decision'], limit: 1, offset: 1 });
    assert.deepEqual([page2.items.map((i) => i.key), page2.next_offset], [['decision/gamma-choice'], null]);
    const deprecated = s.engine.list({ statuses: ['deprecated'] });
    assert.deepEqual(
      deprecated.items.map((i) => [i.key, i.status, i.flags]),
      [['decision/alpha-choice', 'deprecated', ['deprecated']]],
    );
  });

  it('lifecycle: deprecate, dispute, retract, each with its reason in the history', () => {
    const s = open();
    const { key } = saved(s.engine.remember(person, memory()));
    assert.equal(s.engine.setStatus(person, key, 'deprecated', 'we moved to SQS').status, 'deprecated');
    assert.equal(s.engine.setStatus(person, key, 'disputed', 'SQS is not approved').previous_status, 'deprecated');
    s.engine.setStatus(person, key, 'retracted', 'it was never true');
    refusedWith(() => s.engine.setStatus(person, key, 'deprecated', 'again'), 'INVALID_STATE', /retracted/);
    const got = s.engine.get(key);
    assert.deepEqual([got.memory.status, got.memory.status_reason], ['retracted', 'it was never true']);
    assert.deepEqual(
      s.engine.history(key).events.map((e) => [e.event, e.reason]),
      [
        ['created', null],
        ['deprecated', 'we moved to SQS'],
        ['disputed', 'SQS is not approved'],
        ['retracted', 'it was never true'],
      ],
    );
    assert.equal(s.engine.list().total, 0, 'a retracted record is not listed');
    assert.equal(s.engine.verifyAudit().ok, true);
  });

  it('supersede and fact keys: the old record points at its successor, both histories say so', () => {
    const s = open();
    const old = saved(s.engine.remember(person, memory({ title: 'Redis for jobs', fact_key: 'jobs.backend' })));
    s.clock.advanceDays(1);
    const successor = saved(
      s.engine.remember(person, memory({ title: 'Postgres for jobs', fact_key: 'jobs.backend' })),
    );
    assert.deepEqual(successor.superseded, [old.key]);
    const was = s.engine.get(old.key).memory;
    assert.deepEqual([was.status, was.superseded_by], ['superseded', successor.key]);
    assert.equal(s.engine.get(successor.key).memory.supersedes, old.key);
    const third = saved(s.engine.remember(person, memory({ title: 'SQS for jobs' })));
    s.engine.supersede(person, successor.key, third.key);
    assert.equal(s.engine.get(third.key).memory.supersedes, successor.key);
    assert.deepEqual(
      s.engine.history(successor.key).events.map((e) => [e.event, e.related_key]),
      [
        ['created', null],
        ['supersedes', old.key],
        ['superseded', third.key],
      ],
    );
    assert.equal(s.engine.verifyAudit().ok, true);
  });

  it("an agent's record lands quarantined and only a confirmed person promotes it", () => {
    const s = open();
    const r = saved(s.engine.remember(agent, memory({ provenance: { source: 'webpage', client: 'test' } })));
    assert.equal(r.status, 'quarantined');
    refusedWith(() => s.engine.promote(agent, r.key), 'HUMAN_ONLY', /person/);
    assert.equal(s.engine.promote(confirmedPerson, r.key).status, 'active');
    assert.deepEqual(s.engine.get(r.key).flags, []);
  });

  it('forget removes every version and its history, and the chain keeps only digests', () => {
    const s = open();
    const { key } = saved(s.engine.remember(person, memory({ body: 'FORGET-ME marker.' })));
    saved(s.engine.remember(person, memory({ body: 'FORGET-ME marker, again.' })));
    const receipt = s.engine.forget(person, key);
    assert.equal(receipt.versions_removed, 2);
    assert.equal(receipt.digests.length, 2);
    refusedWith(() => s.engine.get(key), 'NOT_FOUND', /no memory with key/);
    refusedWith(() => s.engine.history(key), 'NOT_FOUND', /no memory with key/);
    const verdict = s.engine.verifyAudit();
    assert.deepEqual([verdict.ok, verdict.events], [true, 3]);
    assert.equal(receipt.audit_seq, 3);
    assert.equal(s.engine.list().total, 0);
  });

  it('the audit chain verifies, with a checkpoint, and stats count the store', () => {
    const s = open();
    const { key } = saved(s.engine.remember(person, memory()));
    s.engine.setStatus(person, key, 'deprecated', 'old');
    const checkpoint = s.engine.auditCheckpoint();
    assert.equal(checkpoint.seq, 2);
    assert.equal(checkpoint.store_id, s.engine.storeId);
    saved(s.engine.remember(person, memory({ title: 'Another' })));
    const verdict = s.engine.verifyAudit([checkpoint]);
    assert.deepEqual([verdict.ok, verdict.events, verdict.problems], [true, 3, []]);
    const stats = s.engine.stats();
    assert.deepEqual([stats.memories, stats.by_status, stats.audit_events], [2, { active: 1, deprecated: 1 }, 3]);
    const forged = s.engine.verifyAudit([{ seq: 2, hash: 'f'.repeat(64) }]);
    assert.equal(forged.ok, false);
    assert.match(forged.problems[0].problem, /differs from its checkpoint/);
  });

  it('a row edited behind Lore is refused on read and named by audit verify', async () => {
    const s = open();
    const { key } = saved(s.engine.remember(person, memory()));
    await s.editRow(key, 'body', 'Edited in the database.');
    refusedWith(() => s.engine.get(key), 'INTEGRITY', /changed after it was signed/);
    const { key: other } = saved(s.engine.remember(person, memory({ title: 'Second' })));
    await s.editRow(other, 'status', 'deprecated');
    refusedWith(() => s.engine.get(other), 'INTEGRITY', /refused/);
    const verdict = s.engine.verifyAudit();
    assert.equal(verdict.ok, false);
    assert.ok(
      verdict.problems.some((p) => p.key === other && /deprecated/.test(p.problem)),
      JSON.stringify(verdict),
    );
    assert.equal(s.engine.verifyRecords().refused.length, 2);
  });

  it('a failed write rolls back on both sides and the chain stays whole', () => {
    const s = open();
    saved(s.engine.remember(person, memory()));
    assert.throws(() =>
      s.engine.batch(() => {
        saved(s.engine.remember(person, memory({ title: 'Rolled back' })));
        throw new Error('changed my mind');
      }),
    );
    refusedWith(() => s.engine.get('decision/rolled-back'), 'NOT_FOUND', /no memory/);
    const verdict = s.engine.verifyAudit();
    assert.deepEqual([verdict.ok, verdict.events], [true, 1]);
  });
});
