import { strict as assert } from 'node:assert';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

describe('recall as_of (valid time)', () => {
  let s: TestStore;
  beforeEach(() => (s = openTestStore()));
  afterEach(() => s.cleanup());

  it('returns what was valid at an instant, including records superseded later', async () => {
    s.clock.set('2026-01-01T00:00:00Z');
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'Deploys run on Jenkins',
        description: 'The CI system that deploys is Jenkins',
        fact_key: 'ci.system',
      }),
    );
    s.clock.set('2026-06-01T00:00:00Z');
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'Deploys run on GitHub Actions',
        description: 'The CI system that deploys is GitHub Actions',
        fact_key: 'ci.system',
      }),
    );

    const before = await s.engine.recall({ query: 'which CI system deploys', as_of: '2026-03-01' });
    assert.deepEqual(
      before.results.map((h) => h.key),
      ['fact/deploys-run-on-jenkins'],
    );
    const after = await s.engine.recall({ query: 'which CI system deploys', as_of: '2026-07-01' });
    assert.deepEqual(
      after.results.map((h) => h.key),
      ['fact/deploys-run-on-github-actions'],
    );
    const now = await s.engine.recall({ query: 'which CI system deploys' });
    assert.deepEqual(
      now.results.map((h) => h.key),
      ['fact/deploys-run-on-github-actions'],
    );
    const beforeAnything = await s.engine.recall({ query: 'which CI system deploys', as_of: '2025-01-01' });
    assert.deepEqual(beforeAnything.results, []);
  });

  it('returns the archived version that was current at that instant', async () => {
    s.clock.set('2026-01-01T00:00:00Z');
    s.engine.remember(
      person,
      memory({ title: 'Release train', description: 'Releases ship every Tuesday', type: 'convention' }),
    );
    s.clock.set('2026-04-01T00:00:00Z');
    s.engine.remember(
      person,
      memory({ title: 'Release train', description: 'Releases ship every Thursday', type: 'convention' }),
    );
    const [then] = (await s.engine.recall({ query: 'when do releases ship', as_of: '2026-02-01' })).results;
    assert.equal(then.description, 'Releases ship every Tuesday');
    assert.equal(then.record === 'memory' && then.version, 1);
    assert.ok(then.flags.includes('archived_version'));
    const [now] = (await s.engine.recall({ query: 'when do releases ship' })).results;
    assert.equal(now.description, 'Releases ship every Thursday');
  });

  it('never returns retracted or quarantined records, whenever they were valid', async () => {
    s.clock.set('2026-01-01T00:00:00Z');
    s.engine.remember(person, memory());
    s.clock.set('2026-02-01T00:00:00Z');
    s.engine.setStatus(person, 'decision/use-postgres-for-the-job-queue', 'retracted', 'wrong');
    assert.deepEqual((await s.engine.recall({ query: 'postgres job queue', as_of: '2026-01-15' })).results, []);
  });

  it('drops expired records from recall now but not from as_of before they expired', async () => {
    s.clock.set('2026-01-01T00:00:00Z');
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'Freeze on deploys',
        description: 'No deploys during the holiday freeze',
        valid_until: '2026-01-10',
      }),
    );
    s.clock.set('2026-02-01T00:00:00Z');
    assert.deepEqual((await s.engine.recall({ query: 'deploys freeze' })).results, []);
    assert.equal((await s.engine.recall({ query: 'deploys freeze', as_of: '2026-01-05' })).results.length, 1);
  });
});
