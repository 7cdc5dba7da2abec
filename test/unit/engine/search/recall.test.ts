import { strict as assert } from 'node:assert';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

describe('recall over memories', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(
      person,
      memory({ title: 'Use Postgres for the job queue', description: 'Background jobs run on Postgres SKIP LOCKED' }),
    );
    s.engine.remember(
      person,
      memory({
        title: 'Terraform state lives in S3',
        description: 'Remote state in an S3 bucket with DynamoDB locking',
        body: 'Mentions the job queue once.',
      }),
    );
    s.engine.remember(
      person,
      memory({
        type: 'runbook',
        title: 'Restart stuck workers',
        description: 'How to drain and restart job workers',
        body: 'kubectl rollout restart deploy/workers',
      }),
    );
  });
  afterEach(() => s.cleanup());

  it('ranks by field weight: a title match beats a body mention', async () => {
    const keys = (await s.engine.recall({ query: 'job queue' })).results.map((h) => h.key);
    assert.equal(keys[0], 'decision/use-postgres-for-the-job-queue');
    assert.ok(keys.indexOf('decision/terraform-state-lives-in-s3') > 0);
  });

  it('stems: "migrations" finds "migrating", "restarting" finds "restart"', async () => {
    s.engine.remember(
      person,
      memory({ title: 'Migrating the schema online', description: 'Expand and contract with gh-ost' }),
    );
    assert.equal(
      (await s.engine.recall({ query: 'schema migrations' })).results[0].key,
      'decision/migrating-the-schema-online',
    );
    assert.equal(
      (await s.engine.recall({ query: 'restarting workers' })).results[0].key,
      'runbook/restart-stuck-workers',
    );
  });

  it('returns summaries and score parts, never bodies', async () => {
    const result = await s.engine.recall({ query: 'restart workers' });
    const [hit] = result.results;
    assert.equal((hit as unknown as Record<string, unknown>).body, undefined);
    assert.ok(!JSON.stringify(result).includes('kubectl rollout'));
    assert.deepEqual(Object.keys(hit.score).sort(), ['basis', 'freshness', 'lexical', 'status', 'total', 'type']);
    assert.equal(
      hit.score.total,
      Math.round(
        hit.score.lexical * hit.score.basis * hit.score.status * hit.score.freshness * hit.score.type! * 10000,
      ) / 10000,
    );
  });

  it('keeps unrelated memories out', async () => {
    assert.deepEqual((await s.engine.recall({ query: 'kafka consumer lag' })).results, []);
  });

  it('filters by type and honours the limit', async () => {
    assert.deepEqual(
      (await s.engine.recall({ query: 'job workers queue', types: ['runbook'] })).results.map(
        (h) => h.record === 'memory' && h.type,
      ),
      ['runbook'],
    );
    assert.equal((await s.engine.recall({ query: 'job workers queue', limit: 1 })).results.length, 1);
    await assert.rejects(s.engine.recall({ query: 'x y', limit: 51 }), /limit must be a whole number from 1 to 50/);
    await assert.rejects(s.engine.recall({ query: 'the of and' }), /no searchable words/);
    await assert.rejects(s.engine.recall({ query: 'jobs', types: ['blog'] }), /type must be one of/);
  });

  it('treats query text as words, never as FTS syntax', async () => {
    for (const query of [
      '"unbalanced',
      'title:postgres',
      'job* OR NOT queue',
      'NEAR(job queue)',
      "queue'); DROP TABLE memories; --",
    ]) {
      await assert.doesNotReject(s.engine.recall({ query }), query);
    }
    assert.equal(s.engine.stats().memories, 3);
  });

  it('weights basis as a nudge: an inferred record ranks below an equally matching declared one', async () => {
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'Cache TTL is five minutes',
        description: 'Cache entries expire after five minutes',
        basis: 'inferred',
      }),
    );
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        key: 'fact/cache-ttl-declared',
        title: 'Cache TTL is five minutes',
        description: 'Cache entries expire after five minutes',
        basis: 'declared',
      }),
    );
    const hits = (await s.engine.recall({ query: 'cache ttl' })).results;
    assert.deepEqual(
      hits.map((h) => h.record === 'memory' && h.basis),
      ['declared', 'inferred'],
    );
    assert.equal(hits[1].score.basis, 0.6);
  });

  it('flags records past review_after as stale', async () => {
    s.engine.remember(
      person,
      memory({
        type: 'runbook',
        title: 'Rotate TLS certificates',
        description: 'Steps to rotate the ingress certificates',
        review_after: '2026-02-01',
      }),
    );
    assert.ok(!(await s.engine.recall({ query: 'rotate certificates' })).results[0].flags.includes('stale'));
    s.clock.set('2026-03-01T00:00:00Z');
    assert.ok((await s.engine.recall({ query: 'rotate certificates' })).results[0].flags.includes('stale'));
  });

  it('puts a dead end that the query resembles first, marked', async () => {
    s.engine.remember(
      person,
      memory({
        type: 'dead_end',
        title: 'Redis lists as the job queue',
        description: 'Tried it; jobs were lost on failover',
      }),
    );
    const hits = (await s.engine.recall({ query: 'job queue in redis' })).results;
    assert.equal(hits[0].key, 'dead_end/redis-lists-as-the-job-queue');
    assert.ok(hits[0].flags.includes('dead_end'));
    assert.ok(hits[0].score.dead_end_match! >= 0.5);
    // A dead end that only shares one word with a longer query is not pinned.
    const other = (await s.engine.recall({ query: 'postgres skip locked background jobs' })).results;
    assert.equal(other[0].key, 'decision/use-postgres-for-the-job-queue');
  });

  it('keeps freshness a nudge: an old record loses at most 15%', async () => {
    s.clock.advanceDays(3650);
    const [hit] = (await s.engine.recall({ query: 'restart workers' })).results;
    assert.ok(hit.score.freshness >= 0.85 && hit.score.freshness < 0.86, String(hit.score.freshness));
  });
});
