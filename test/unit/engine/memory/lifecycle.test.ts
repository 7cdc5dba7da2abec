import { strict as assert } from 'node:assert';
import { LoreError } from '../../../../src/engine';
import { agent, confirmedPerson, memory, openTestStore, person, type TestStore } from '../../../support/store';

const KEY = 'decision/use-postgres-for-the-job-queue';

describe('lifecycle', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory());
  });
  afterEach(() => s.cleanup());

  for (const [status, rank] of [
    ['deprecated', 0.7],
    ['disputed', 0.6],
  ] as const) {
    it(`${status} records are still recalled, ranked lower, with the reason`, async () => {
      s.engine.setStatus(person, KEY, status, 'we are moving to a managed queue');
      const [hit] = (await s.engine.recall({ query: 'postgres job queue' })).results;
      assert.ok(hit.record === 'memory');
      assert.equal(hit.key, KEY);
      assert.equal(hit.status, status);
      assert.equal(hit.status_reason, 'we are moving to a managed queue');
      assert.equal(hit.score.status, rank);
      assert.ok(hit.flags.includes(status));
    });
  }

  it('retract leaves a tombstone that is never recalled', async () => {
    const r = s.engine.setStatus(person, KEY, 'retracted', 'recorded by mistake');
    assert.equal(r.previous_status, 'active');
    assert.deepEqual((await s.engine.recall({ query: 'postgres job queue' })).results, []);
    assert.equal(s.engine.get(KEY).memory.status, 'retracted');
    assert.throws(
      () => s.engine.setStatus(person, KEY, 'deprecated', 'x'),
      (e: unknown) => e instanceof LoreError && e.code === 'INVALID_STATE',
    );
  });

  it('requires a reason for every status change', async () => {
    assert.throws(() => s.engine.setStatus(person, KEY, 'deprecated', ''), /reason is required/);
    assert.throws(() => s.engine.setStatus(person, KEY, 'deprecated', undefined), /reason must be text/);
    assert.equal(s.engine.get(KEY).memory.status, 'active');
  });

  it('supersede marks the old record with its successor and the valid time of the change', async () => {
    s.clock.advanceDays(30);
    s.engine.remember(person, memory({ title: 'Use SQS for the job queue', description: 'Jobs move to SQS' }));
    const r = s.engine.supersede(person, KEY, 'decision/use-sqs-for-the-job-queue', '2026-01-20');
    assert.equal(r.valid_from, '2026-01-20T00:00:00.000Z');
    const old = s.engine.get(KEY).memory;
    assert.equal(old.status, 'superseded');
    assert.equal(old.superseded_by, 'decision/use-sqs-for-the-job-queue');
    assert.equal(old.valid_until, '2026-01-20T00:00:00.000Z');
    assert.equal(s.engine.get('decision/use-sqs-for-the-job-queue').memory.supersedes, KEY);
    assert.deepEqual(
      (await s.engine.recall({ query: 'job queue' })).results.map((h) => h.key),
      ['decision/use-sqs-for-the-job-queue'],
    );
  });

  it('refuses to supersede with an unknown, quarantined or identical record', async () => {
    assert.throws(() => s.engine.supersede(person, KEY, 'decision/nope'), /no memory with key decision\/nope/);
    assert.throws(() => s.engine.supersede(person, KEY, KEY), /cannot supersede itself/);
    s.engine.remember(agent, memory({ title: 'From a blog', description: 'x', provenance: { source: 'webpage' } }));
    assert.throws(
      () => s.engine.supersede(person, KEY, 'decision/from-a-blog'),
      (e: unknown) => e instanceof LoreError && e.code === 'INVALID_STATE' && /promote it first/.test(e.hint ?? ''),
    );
    assert.equal(s.engine.get(KEY).memory.status, 'active');
  });

  it('promote is refused unless a person confirmed it, and then lets the record into recall', async () => {
    s.engine.remember(
      agent,
      memory({
        title: 'Pin Node to 20',
        description: 'Read on a blog: pin Node 20 for the job workers',
        provenance: { source: 'tool' },
      }),
    );
    const key = 'decision/pin-node-to-20';
    assert.throws(
      () => s.engine.promote(agent, key),
      (e: unknown) => e instanceof LoreError && e.code === 'HUMAN_ONLY',
    );
    assert.throws(
      () => s.engine.promote(person, key),
      (e: unknown) => e instanceof LoreError && e.code === 'HUMAN_ONLY',
    );
    assert.equal(s.engine.get(key).memory.status, 'quarantined');
    assert.deepEqual((await s.engine.recall({ query: 'pin node workers' })).results, []);
    s.engine.promote(confirmedPerson, key);
    assert.deepEqual(
      (await s.engine.recall({ query: 'pin node workers' })).results.map((h) => h.key),
      [key],
    );
    assert.throws(() => s.engine.promote(confirmedPerson, key), /not quarantined/);
  });

  it('history lists versions, status changes, supersessions and tombstones in order', async () => {
    s.clock.advanceDays(1);
    s.engine.remember(person, memory({ body: 'second version' }));
    s.engine.setStatus(person, KEY, 'disputed', 'load tests disagree');
    s.engine.remember(person, memory({ title: 'Use SQS for the job queue', description: 'Jobs move to SQS' }));
    s.engine.supersede(person, KEY, 'decision/use-sqs-for-the-job-queue');
    const h = s.engine.history(KEY);
    assert.deepEqual(
      h.versions.map((v) => [v.version, v.current]),
      [
        [1, false],
        [2, true],
      ],
    );
    assert.deepEqual(
      h.events.map((e) => e.event),
      ['created', 'updated', 'disputed', 'superseded'],
    );
    assert.equal(h.events[2].reason, 'load tests disagree');
    assert.equal(h.events[3].related_key, 'decision/use-sqs-for-the-job-queue');
    assert.equal(h.events[0].actor, 'test:alice');
  });
});
