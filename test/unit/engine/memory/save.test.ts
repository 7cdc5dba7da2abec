import { strict as assert } from 'node:assert';
import { LIMITS, LoreError, type RememberInput, type SaveResult } from '../../../../src/engine';
import { agent, memory, openTestStore, person, type TestStore } from '../../../support/store';

function saved(result: SaveResult): Extract<SaveResult, { saved: true }> {
  assert.equal(result.saved, true, JSON.stringify(result));
  return result as Extract<SaveResult, { saved: true }>;
}

function rejects(work: () => unknown, code: string, pattern: RegExp): void {
  assert.throws(work, (error: unknown) => {
    assert.ok(error instanceof LoreError, `expected a LoreError, got ${error}`);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('remember', () => {
  let s: TestStore;
  beforeEach(() => (s = openTestStore()));
  afterEach(() => s.cleanup());

  it('derives a readable key from type and title and stores every field', async () => {
    const r = saved(
      s.engine.remember(
        person,
        memory({
          anchors: ['src/jobs/queue.ts#enqueue'],
          links: ['docs/adr/0007.md'],
          tags: ['Queue'],
          confidence: 0.8,
          fact_key: 'jobs.backend',
          review_after: '2027-01-01',
        }),
      ),
    );
    assert.equal(r.key, 'decision/use-postgres-for-the-job-queue');
    assert.equal(r.version, 1);
    assert.equal(r.status, 'active');
    const { memory: m } = s.engine.get(r.key);
    assert.equal(m.title, 'Use Postgres for the job queue');
    assert.deepEqual(m.anchors, ['src/jobs/queue.ts#enqueue']);
    assert.deepEqual(m.links, ['docs/adr/0007.md']);
    assert.deepEqual(m.tags, ['queue']);
    assert.equal(m.confidence, 0.8);
    assert.equal(m.basis, 'declared');
    assert.equal(m.provenance.source, 'user');
    assert.equal(m.fact_key, 'jobs.backend');
    assert.equal(m.review_after, '2027-01-01T00:00:00.000Z');
    assert.equal(m.recorded_at, '2026-01-01T00:00:00.000Z');
    assert.equal(m.valid_from, m.recorded_at);
    assert.match(m.content_digest, /^[0-9a-f]{64}$/);
  });

  it('keeps valid time apart from record time', async () => {
    const r = saved(s.engine.remember(person, memory({ valid_from: '2024-05-01' })));
    const { memory: m } = s.engine.get(r.key);
    assert.equal(m.valid_from, '2024-05-01T00:00:00.000Z');
    assert.equal(m.recorded_at, '2026-01-01T00:00:00.000Z');
  });

  it('enforces every limit where data comes in', async () => {
    rejects(
      () => s.engine.remember(person, memory({ title: 'x'.repeat(LIMITS.titleChars + 1) })),
      'LIMIT_EXCEEDED',
      /title is 121 characters; the limit is 120/,
    );
    rejects(() => s.engine.remember(person, memory({ description: 'x'.repeat(301) })), 'LIMIT_EXCEEDED', /description/);
    rejects(
      () => s.engine.remember(person, memory({ body: 'é'.repeat(8 * 1024 + 1) })),
      'LIMIT_EXCEEDED',
      /body is 16386 bytes/,
    );
    rejects(
      () => s.engine.remember(person, memory({ links: Array.from({ length: 33 }, (_, i) => `l${i}`) })),
      'LIMIT_EXCEEDED',
      /links has 33 items/,
    );
    rejects(() => s.engine.remember(person, memory({ links: ['x'.repeat(121)] })), 'LIMIT_EXCEEDED', /links\[0\]/);
    assert.equal(s.engine.stats().memories, 0);
    assert.equal(s.engine.stats().audit_events, 0);
  });

  it('accepts text exactly at the limits', async () => {
    saved(
      s.engine.remember(
        person,
        memory({
          title: 't'.repeat(120),
          description: 'd'.repeat(300),
          body: 'b'.repeat(16 * 1024),
          links: Array.from({ length: 32 }, (_, i) => `docs/${i}.md`),
        }),
      ),
    );
  });

  it('validates types, enums, dates and unknown fields with errors that say what to do', async () => {
    rejects(
      () => s.engine.remember(person, memory({ type: 'idea' as never })),
      'INVALID_INPUT',
      /type must be one of decision, dead_end/,
    );
    rejects(() => s.engine.remember(person, memory({ title: '  ' })), 'INVALID_INPUT', /title is required/);
    rejects(() => s.engine.remember(person, memory({ valid_from: '2026-13-45' })), 'INVALID_INPUT', /valid_from/);
    rejects(() => s.engine.remember(person, memory({ valid_from: 'yesterday' })), 'INVALID_INPUT', /ISO 8601/);
    rejects(
      () => s.engine.remember(person, memory({ valid_from: '2026-02-01', valid_until: '2026-01-01' })),
      'INVALID_INPUT',
      /valid_until must be later/,
    );
    rejects(() => s.engine.remember(person, memory({ confidence: 2 })), 'INVALID_INPUT', /confidence/);
    rejects(
      () => s.engine.remember(person, memory({ key: 'fact/abc' })),
      'INVALID_INPUT',
      /does not start with its type/,
    );
    rejects(() => s.engine.remember(person, memory({ key: 'decision/Bad Key' })), 'INVALID_INPUT', /not a valid key/);
    rejects(
      () => s.engine.remember(person, { ...memory(), colour: 'blue' }),
      'INVALID_INPUT',
      /unknown field\(s\): colour/,
    );
    rejects(
      () => s.engine.remember(person, memory({ provenance: { source: 'email' as never } })),
      'INVALID_INPUT',
      /provenance.source/,
    );
    rejects(
      () => s.engine.remember(person, { ...memory(), provenance: undefined } as never),
      'INVALID_INPUT',
      /provenance must be an object/,
    );
    assert.equal(s.engine.stats().memories, 0);
  });

  describe('secrets', () => {
    const cases: Array<[string, string]> = [
      ['github-token', `token ghp_${'a1B2'.repeat(9)}`],
      ['aws-access-key-id', 'key AKIAIOSFODNN7EXAMPLE here'],
      ['private-key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE...'],
      ['password-in-url', 'connect to postgres://app:hunter2secret@db.internal:5432/app'],
      ['slack-token', 'xoxb-1234567890-abcdefghij'],
      ['secret-assignment', 'set api_key = "9f8e7d6c5b4a39281706"'],
      ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ];
    for (const [rule, text] of cases) {
      it(`refuses ${rule} and names the rule, not the secret`, async () => {
        assert.throws(
          () => s.engine.remember(person, memory({ body: text })),
          (error: unknown) => {
            assert.ok(error instanceof LoreError);
            assert.equal(error.code, 'SECRET_DETECTED');
            assert.match(error.message, new RegExp(`rule: ${rule}`));
            assert.ok(
              !JSON.stringify(error.toJSON()).includes(text.slice(6, 20)),
              'the error must not echo the secret',
            );
            return true;
          },
        );
        assert.equal(s.engine.stats().memories, 0);
      });
    }

    it('checks every text field, not only the body', async () => {
      rejects(
        () => s.engine.remember(person, memory({ links: ['https://bob:s3cretpass@example.com/x'] })),
        'SECRET_DETECTED',
        /links\[0\]/,
      );
      rejects(
        () => s.engine.remember(person, memory({ title: `use ghp_${'x'.repeat(36)}` })),
        'SECRET_DETECTED',
        /title/,
      );
    });

    it('lets ordinary prose about passwords and tokens through', async () => {
      saved(
        s.engine.remember(
          person,
          memory({
            body:
              'Rotate the password every 90 days; the API token lives in Vault ' +
              'at ops/db. Set password: via the UI.',
          }),
        ),
      );
    });
  });

  describe('text a store cannot keep', () => {
    it('refuses a NUL character in any text field with an error naming the field, and stores nothing', () => {
      for (const [field, fields] of [
        ['title', { title: 'Use Postgres\0 for jobs' }],
        ['description', { description: 'before\0after' }],
        ['body', { body: 'kept\0lost' }],
        ['tags[1]', { tags: ['ok', 'bad\0tag'] }],
        ['links[0]', { links: ['docs/a\0.md'] }],
        ['provenance.agent', { provenance: { source: 'user', agent: 'x\0' } }],
      ] as const) {
        rejects(
          () => s.engine.remember(person, memory(fields as never)),
          'INVALID_INPUT',
          new RegExp(`^${field.replace(/[[\]]/g, '\\$&')} contains a NUL character`),
        );
      }
      assert.equal(s.engine.stats().memories, 0);
    });

    it('refuses a lone UTF-16 surrogate but keeps a real astral character', () => {
      rejects(
        () => s.engine.remember(person, memory({ body: 'half \uD83D of an emoji' })),
        'INVALID_INPUT',
        /body contains a lone UTF-16 surrogate/,
      );
      rejects(
        () => s.engine.remember(person, memory({ title: 'trailing \uDC00' })),
        'INVALID_INPUT',
        /title contains a lone UTF-16 surrogate/,
      );
      const r = saved(s.engine.remember(person, memory({ body: 'a whole 🐘 elephant' })));
      assert.equal(s.engine.get(r.key).memory.body, 'a whole 🐘 elephant');
    });

    it('refuses NUL in a session summary and a status reason too (the same check at every door)', () => {
      rejects(
        () => s.engine.sessionClose(agent, { kind: 'routine', summary: 'done\0' }),
        'INVALID_INPUT',
        /summary contains a NUL character/,
      );
      const r = saved(s.engine.remember(person, memory()));
      rejects(
        () => s.engine.setStatus(person, r.key, 'deprecated', 'no longer\0 true'),
        'INVALID_INPUT',
        /reason contains a NUL character/,
      );
    });
  });

  describe('limits before scans', () => {
    it('refuses an oversized body on its size, before any secret rule reads it', () => {
      const body = `${'x'.repeat(LIMITS.bodyBytes)} ghp_${'a1B2'.repeat(9)}`;
      rejects(
        () => s.engine.remember(person, memory({ body })),
        'LIMIT_EXCEEDED',
        /body is 16425 bytes; the limit is 16384/,
      );
      const summary = `${'y'.repeat(LIMITS.bodyBytes)} AKIAIOSFODNN7EXAMPLE`;
      rejects(
        () => s.engine.sessionClose(agent, { kind: 'routine', summary }),
        'LIMIT_EXCEEDED',
        /summary is 16405 bytes/,
      );
    });
  });

  describe('refused values are never echoed', () => {
    it('names a refused tag by its place, not its text', () => {
      assert.throws(
        () => s.engine.remember(person, memory({ tags: ['queue', 'token=Zq8#hunter2!'] })),
        (error: unknown) => {
          assert.ok(error instanceof LoreError);
          assert.match(error.message, /tags\[1\] is not allowed/);
          assert.ok(!JSON.stringify(error.toJSON()).includes('hunter2'), JSON.stringify(error.toJSON()));
          return true;
        },
      );
    });

    it('describes, rather than repeats, a secret sent where an enum or a date belongs', () => {
      const secret = `ghp_${'a1B2'.repeat(9)}`;
      for (const fields of [{ type: secret }, { valid_from: secret }, { scope: 'x'.repeat(41) }]) {
        assert.throws(
          () => s.engine.remember(person, memory(fields as never)),
          (error: unknown) =>
            error instanceof LoreError &&
            !JSON.stringify(error.toJSON()).includes(secret.slice(4, 20)) &&
            /got text of \d+ characters/.test(error.message),
        );
      }
    });
  });

  describe('versions', () => {
    it('archives the previous version on a save of an existing key and keeps the last five', async () => {
      for (let i = 1; i <= 8; i++) {
        s.clock.advanceDays(1);
        const r = saved(s.engine.remember(person, memory({ body: `revision ${i}` })));
        assert.equal(r.version, i);
      }
      const h = s.engine.history('decision/use-postgres-for-the-job-queue');
      assert.deepEqual(
        h.versions.map((v) => v.version),
        [3, 4, 5, 6, 7, 8],
      );
      assert.deepEqual(
        h.versions.map((v) => v.current),
        [false, false, false, false, false, true],
      );
      assert.equal(s.engine.get('decision/use-postgres-for-the-job-queue', 7).memory.body, 'revision 7');
      assert.throws(() => s.engine.get('decision/use-postgres-for-the-job-queue', 2), /has no kept version 2/);
    });

    it('keeps archived versions out of recall', async () => {
      saved(s.engine.remember(person, memory({ body: 'zeppelin transport considered' })));
      s.clock.advanceDays(1);
      saved(s.engine.remember(person, memory({ body: 'nothing about airships' })));
      assert.deepEqual((await s.engine.recall({ query: 'zeppelin' })).results, []);
    });

    it('treats an identical save as unchanged, without a new version or audit event', async () => {
      saved(s.engine.remember(person, memory()));
      const events = s.engine.stats().audit_events;
      const r = saved(s.engine.remember(person, memory()));
      assert.equal(r.unchanged, true);
      assert.equal(r.version, 1);
      assert.equal(s.engine.stats().audit_events, events);
    });

    it('returns the winner instead of overwriting when expected_version lost a race', async () => {
      saved(s.engine.remember(person, memory({ body: 'v1' })));
      saved(
        s.engine.remember(
          agent,
          memory({ body: 'agent A wins', expected_version: 1, provenance: { source: 'agent' } }),
        ),
      );
      const lost = s.engine.remember(
        agent,
        memory({ body: 'agent B loses', expected_version: 1, provenance: { source: 'agent' } }),
      );
      assert.equal(lost.saved, false);
      if (lost.saved) return;
      assert.equal(lost.conflict.current_version, 2);
      assert.equal(lost.conflict.current?.body, 'agent A wins');
      assert.equal(s.engine.get(lost.key).memory.body, 'agent A wins');
    });

    it('expected_version 0 means "create only"', async () => {
      saved(s.engine.remember(person, memory({ expected_version: 0 })));
      const again = s.engine.remember(person, memory({ body: 'other', expected_version: 0 }));
      assert.equal(again.saved, false);
    });
  });

  it('supersedes the active record holding the same fact_key', async () => {
    s.clock.set('2026-01-01T00:00:00Z');
    saved(
      s.engine.remember(
        person,
        memory({
          type: 'fact',
          title: 'Deploys run on Jenkins',
          description: 'The CI system is Jenkins',
          fact_key: 'ci.system',
        }),
      ),
    );
    s.clock.set('2026-03-01T00:00:00Z');
    const r = saved(
      s.engine.remember(
        person,
        memory({
          type: 'fact',
          title: 'Deploys run on GitHub Actions',
          description: 'The CI system is GitHub Actions',
          fact_key: 'ci.system',
        }),
      ),
    );
    assert.deepEqual(r.superseded, ['fact/deploys-run-on-jenkins']);
    const old = s.engine.get('fact/deploys-run-on-jenkins').memory;
    assert.equal(old.status, 'superseded');
    assert.equal(old.superseded_by, 'fact/deploys-run-on-github-actions');
    assert.equal(old.valid_until, '2026-03-01T00:00:00.000Z');
    assert.equal(s.engine.get(r.key).memory.supersedes, 'fact/deploys-run-on-jenkins');
  });

  it('attaches a resembling dead end as a warning', async () => {
    saved(
      s.engine.remember(
        person,
        memory({
          type: 'dead_end',
          title: 'Redis lists as the job queue',
          description: 'Tried Redis lists for background jobs; jobs were lost on failover',
        }),
      ),
    );
    const r = saved(
      s.engine.remember(
        agent,
        memory({
          title: 'Move background jobs to a Redis queue',
          description: 'Use Redis lists for the job queue to cut Postgres load',
          provenance: { source: 'agent' },
        }),
      ),
    );
    assert.deepEqual(
      r.warnings.dead_ends.map((d) => d.key),
      ['dead_end/redis-lists-as-the-job-queue'],
    );
    const unrelated = saved(
      s.engine.remember(person, memory({ title: 'Use UTC in logs', description: 'All timestamps in logs are UTC' })),
    );
    assert.deepEqual(unrelated.warnings.dead_ends, []);
  });

  it('warns against the dead ends live now, after one is forgotten and its row id reused', () => {
    const first = saved(
      s.engine.remember(
        person,
        memory({
          type: 'dead_end',
          title: 'Redis lists as the job queue',
          description: 'Tried Redis lists for background jobs; jobs were lost on failover',
        }),
      ),
    );
    const probe = saved(
      s.engine.remember(
        agent,
        memory({
          title: 'Redis lists for jobs',
          description: 'job queue on Redis lists',
          provenance: { source: 'agent' },
        }),
      ),
    );
    assert.equal(probe.warnings.dead_ends.length, 1);
    s.engine.forget(person, probe.key);
    s.engine.forget(person, first.key);
    // SQLite hands the highest freed row id to the next insert: the cache must not keep the old terms.
    saved(
      s.engine.remember(
        person,
        memory({
          type: 'dead_end',
          title: 'GraphQL federation gateway',
          description: 'Schema stitching broke on every deploy',
        }),
      ),
    );
    assert.deepEqual(
      saved(
        s.engine.remember(
          agent,
          memory({
            title: 'Redis lists for jobs again',
            description: 'job queue on Redis lists',
            provenance: { source: 'agent' },
          }),
        ),
      ).warnings.dead_ends,
      [],
    );
    const federation = saved(
      s.engine.remember(
        agent,
        memory({
          title: 'Try a GraphQL federation gateway',
          description: 'federation gateway with schema stitching',
          provenance: { source: 'agent' },
        }),
      ),
    );
    assert.deepEqual(
      federation.warnings.dead_ends.map((d) => d.key),
      ['dead_end/graphql-federation-gateway'],
    );
  });

  it('quarantines records from webpage and tool sources, and an update never lifts quarantine', async () => {
    const r = saved(
      s.engine.remember(agent, memory({ provenance: { source: 'webpage', evidence: ['https://example.com/post'] } })),
    );
    assert.equal(r.status, 'quarantined');
    const again = saved(
      s.engine.remember(agent, memory({ body: 'changed by an agent', provenance: { source: 'agent' } })),
    );
    assert.equal(again.status, 'quarantined');
    assert.deepEqual((await s.engine.recall({ query: 'postgres job queue' })).results, []);
  });

  it('an update keeps every field the caller left out, and clears only what it sends empty', () => {
    const first = saved(
      s.engine.remember(
        person,
        memory({
          anchors: ['src/jobs/queue.ts#enqueue'],
          links: ['docs/adr/0007.md'],
          tags: ['queue'],
          basis: 'verified',
          confidence: 0.8,
          fact_key: 'jobs.backend',
          review_after: '2027-01-01',
          valid_until: '2099-01-01',
        }),
      ),
    );
    // A new description only, the way `lore remember --key K` edits one field: nothing else is lost.
    const { body: _body, ...noBody } = memory({ key: first.key, description: 'Jobs go through Postgres' });
    const second = saved(s.engine.remember(person, noBody));
    assert.equal(second.version, 2);
    const kept = s.engine.get(first.key).memory;
    assert.equal(kept.description, 'Jobs go through Postgres');
    assert.equal(kept.body, 'We already run Postgres; one fewer system to operate.');
    assert.deepEqual(kept.anchors, ['src/jobs/queue.ts#enqueue']);
    assert.deepEqual(kept.links, ['docs/adr/0007.md']);
    assert.deepEqual(kept.tags, ['queue']);
    assert.equal(kept.basis, 'verified');
    assert.equal(kept.confidence, 0.8);
    assert.equal(kept.fact_key, 'jobs.backend');
    assert.match(kept.review_after ?? '', /^2027-01-01/);
    assert.match(kept.valid_until ?? '', /^2099-01-01/);

    // Sent empty, a field is cleared: "" for the body, [] for a list, null for a value.
    saved(
      s.engine.remember(person, {
        ...noBody,
        body: '',
        anchors: [],
        confidence: null,
        fact_key: null,
      } as unknown as RememberInput),
    );
    const cleared = s.engine.get(first.key).memory;
    assert.equal(cleared.body, '');
    assert.deepEqual(cleared.anchors, []);
    assert.equal(cleared.confidence, null);
    assert.equal(cleared.fact_key, null);
    assert.deepEqual(cleared.links, ['docs/adr/0007.md'], 'links were not named, so they stay');
  });

  it('a record remembered again after it was forgotten starts from what the call says', () => {
    const first = saved(s.engine.remember(person, memory({ tags: ['queue'], anchors: ['src/a.ts'] })));
    s.engine.forget(person, first.key);
    const { body: _body, ...noBody } = memory({ key: first.key });
    saved(s.engine.remember(person, noBody));
    const again = s.engine.get(first.key).memory;
    assert.equal(again.body, '');
    assert.deepEqual(again.tags, []);
  });
});
