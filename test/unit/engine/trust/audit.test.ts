import { strict as assert } from 'node:assert';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

describe('audit chain', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory());
    s.engine.remember(person, memory({ title: 'Use SQS', description: 'Jobs move to SQS' }));
    s.engine.setStatus(person, 'decision/use-sqs', 'disputed', 'costs unclear');
    s.engine.supersede(person, 'decision/use-postgres-for-the-job-queue', 'decision/use-sqs');
    s.engine.remember(person, memory({ type: 'fact', title: 'Temp', description: 'to be forgotten' }));
    s.engine.forget(person, 'fact/temp');
  });
  afterEach(() => s.cleanup());

  it('records every write with digests, actor and time, never content', () => {
    const events = s.db.all<{ event: string; actor: string; digests: string; key: string }>(
      'SELECT * FROM audit_events ORDER BY seq',
    );
    assert.deepEqual(
      events.map((e) => e.event),
      ['memory.create', 'memory.create', 'memory.dispute', 'memory.supersede', 'memory.create', 'memory.forget'],
    );
    assert.ok(events.every((e) => e.actor === 'test:alice'));
    for (const e of events) {
      for (const value of Object.values(JSON.parse(e.digests)).flat()) {
        assert.ok(typeof value === 'number' || /^[0-9a-f]{64}$/.test(String(value)), `${e.event} holds ${value}`);
      }
    }
    assert.ok(!JSON.stringify(events).includes('costs unclear'));
    const verdict = s.engine.verifyAudit();
    assert.equal(verdict.ok, true);
    assert.equal(verdict.events, 6);
  });

  it('detects an edited event', () => {
    s.db.run("UPDATE audit_events SET actor = 'cli:mallory' WHERE seq = 3");
    const verdict = s.engine.verifyAudit();
    assert.equal(verdict.ok, false);
    assert.deepEqual(
      verdict.problems.map((p) => p.seq),
      [3],
    );
    assert.match(verdict.problems[0].problem, /edited/);
  });

  it('detects a deleted event', () => {
    s.db.run('DELETE FROM audit_events WHERE seq = 2');
    const verdict = s.engine.verifyAudit();
    assert.equal(verdict.ok, false);
    assert.ok(verdict.problems.some((p) => p.seq === 3 && /missing|deleted/.test(p.problem)));
  });

  it('detects reordered events', () => {
    const rows = s.db.all<Record<string, string | number>>(
      'SELECT * FROM audit_events WHERE seq IN (2, 3) ORDER BY seq',
    );
    s.db.transaction(() => {
      s.db.run('UPDATE audit_events SET seq = -1 WHERE seq = 2');
      s.db.run('UPDATE audit_events SET seq = 2 WHERE seq = 3');
      s.db.run('UPDATE audit_events SET seq = 3 WHERE seq = -1');
    });
    assert.equal(rows.length, 2);
    const verdict = s.engine.verifyAudit();
    assert.equal(verdict.ok, false);
    assert.ok(verdict.problems.some((p) => p.seq === 2));
  });

  it('detects events removed from the end', () => {
    s.db.run('DELETE FROM audit_events WHERE seq = 6');
    const verdict = s.engine.verifyAudit();
    assert.equal(verdict.ok, false);
    assert.match(verdict.problems[0].problem, /removed from the end|rewritten/);
  });

  it('a failed write appends nothing', () => {
    const before = s.engine.verifyAudit().events;
    assert.throws(() => s.engine.remember(person, memory({ title: '' })));
    assert.throws(() => s.engine.setStatus(person, 'decision/nope', 'deprecated', 'x'));
    assert.equal(s.engine.verifyAudit().events, before);
  });
});
