import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiskWorkspaceReader } from '../../../../src/host/workspaceReader';
import { LoreError, type StewardFinding } from '../../../../src/engine';
import { findStale } from '../../../../src/engine/steward/scans';
import { driftByMemory } from '../../../../src/engine/steward/driftSignal';
import { agent, confirmedPerson, memory, openTestStore, person, type TestStore } from '../../../support/store';

const POSTGRES = 'decision/use-postgres-for-the-job-queue';

function auditRows(s: TestStore): Array<{ event: string; actor: string }> {
  return s.db.all<{ event: string; actor: string }>('SELECT event, actor FROM audit_events ORDER BY seq');
}

function isCode(code: string, pattern?: RegExp) {
  return (e: unknown) => e instanceof LoreError && e.code === code && (!pattern || pattern.test(e.message));
}

/**
 * One record of each kind the steward must not touch on its own: a near duplicate, a conflict, a stale record, a
 * dead-end collision.
 */
function seedRisky(s: TestStore): void {
  s.engine.remember(person, memory({ anchors: ['src/jobs/queue.ts'] }));
  // Near duplicate of POSTGRES: the same decision, worded a little differently.
  s.engine.remember(
    person,
    memory({
      key: 'decision/job-queue-on-postgres',
      title: 'Use Postgres for the job queue',
      description: 'Background jobs go through Postgres with SKIP LOCKED instead of a separate broker',
      anchors: ['src/jobs/queue.ts'],
    }),
  );
  // A conflict on one anchor: same topic, opposite advice.
  s.engine.remember(
    person,
    memory({
      key: 'convention/retry-jobs',
      type: 'convention',
      title: 'Retry failed jobs three times with backoff',
      description: 'Workers retry a failed job three times with exponential backoff',
      body: '',
      anchors: ['src/jobs/worker.ts'],
    }),
  );
  s.clock.advanceDays(1);
  s.engine.remember(
    person,
    memory({
      key: 'convention/never-retry-jobs',
      type: 'convention',
      title: 'Never retry failed jobs automatically',
      description: 'Workers do not retry a failed job; failed jobs go to the dead letter table',
      body: '',
      anchors: ['src/jobs/worker.ts#run'],
    }),
  );
  // Due for review.
  s.engine.remember(
    person,
    memory({
      key: 'runbook/rotate-certs',
      type: 'runbook',
      title: 'Rotate the TLS certificates',
      description: 'Renew and deploy the certificates before they expire',
      body: '',
      review_after: '2026-01-10',
    }),
  );
  // A decision that repeats a dead end.
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
    memory({ title: 'Keep sessions in Redis', description: 'Move the session store to Redis for speed', body: '' }),
  );
}

describe('steward', () => {
  let s: TestStore;
  beforeEach(() => (s = openTestStore()));
  afterEach(() => s.cleanup());

  describe('policy', () => {
    it('merges exact duplicates on its own, keeping the copy and its history, audited as the steward', async () => {
      s.engine.remember(person, memory());
      s.clock.advanceDays(1);
      s.engine.remember(
        agent,
        memory({ key: 'decision/postgres-job-queue', provenance: { source: 'agent', client: 'copilot' } }),
      );
      const before = s.engine.stats();

      const run = s.engine.stewardRun();
      assert.equal(run.applied, 1);
      assert.equal(run.queued, 0);
      const [finding] = run.findings;
      assert.equal(finding.kind, 'duplicate');
      assert.equal(finding.evidence.exact, true);
      assert.equal(finding.risk, 'low');
      assert.equal(finding.outcome, 'applied');
      assert.deepEqual(finding.keys, [POSTGRES, 'decision/postgres-job-queue'], 'the older record survives');

      const copy = s.engine.get('decision/postgres-job-queue').memory;
      assert.equal(copy.status, 'superseded');
      assert.equal(copy.superseded_by, POSTGRES);
      assert.equal(copy.body, memory().body, 'the copy keeps what it said');
      const events = s.engine.history('decision/postgres-job-queue').events;
      const merged = events.find((e) => e.event === 'merged');
      assert.ok(merged, JSON.stringify(events));
      assert.equal(merged.related_key, POSTGRES);
      assert.equal(merged.actor, 'steward:policy');
      assert.match(merged.reason ?? '', /exact duplicate/);
      assert.ok(
        s.engine
          .history(POSTGRES)
          .events.some((e) => e.event === 'supersedes' && e.related_key === 'decision/postgres-job-queue'),
      );

      const after = s.engine.stats();
      assert.equal(after.memories, before.memories, 'nothing is deleted');
      assert.deepEqual(after.by_status, { active: 1, superseded: 1 });
      const newAudit = auditRows(s).slice(before.audit_events);
      assert.deepEqual(newAudit, [{ event: 'memory.supersede', actor: 'steward:policy' }]);
      assert.ok(s.engine.verifyAudit().ok);
      assert.deepEqual(
        (await s.engine.recall({ query: 'postgres job queue' })).results.map((r) => r.key),
        [POSTGRES],
      );
      assert.equal(s.engine.inbox().open, 0);
    });

    it(
      'applies nothing risky: near duplicates, conflicts, stale records ' + 'and dead-end collisions wait in the Inbox',
      () => {
        seedRisky(s);
        s.clock.set('2026-02-01T00:00:00Z');
        const before = s.engine
          .list({ statuses: ['active', 'deprecated', 'disputed', 'superseded', 'retracted', 'quarantined'] })
          .items.map((m) => `${m.key}@${m.version}:${m.status}`);

        const run = s.engine.stewardRun();
        assert.equal(run.applied, 0);
        const kinds = new Set(run.findings.map((f) => f.kind));
        assert.deepEqual([...kinds].sort(), ['conflict', 'dead_end_collision', 'duplicate', 'stale']);
        for (const f of run.findings) {
          assert.equal(f.auto, false, `${f.kind} ${f.keys} must not be automatic`);
          assert.notEqual(f.risk, 'low');
          assert.equal(f.outcome, 'queued');
          assert.ok(f.inbox_id);
        }
        const after = s.engine
          .list({ statuses: ['active', 'deprecated', 'disputed', 'superseded', 'retracted', 'quarantined'] })
          .items.map((m) => `${m.key}@${m.version}:${m.status}`);
        assert.deepEqual(after, before, 'no record changed');
        const inbox = s.engine.inbox();
        assert.equal(inbox.open, run.findings.length);
        for (const item of inbox.items) {
          assert.ok(item.summary.length > 10);
          assert.ok(Object.keys(item.evidence).length > 0, 'every item carries evidence');
          assert.equal(item.suggested_action, item.actions[0]);
          assert.ok(item.actions.includes('dismiss'));
        }
        const opened = auditRows(s).filter((e) => e.event === 'inbox.open');
        assert.equal(opened.length, inbox.open, 'each queued item is audited');
        assert.ok(opened.every((e) => e.actor === 'steward:policy'));
      },
    );

    it('a dry run reports the same decisions and writes nothing', () => {
      seedRisky(s);
      s.engine.remember(person, memory({ key: 'decision/postgres-copy', anchors: ['src/jobs/queue.ts'] }));
      s.clock.set('2026-02-01T00:00:00Z');
      const before = s.engine.stats();
      const dry = s.engine.stewardRun({ dryRun: true });
      assert.equal(dry.dry_run, true);
      assert.ok(dry.findings.some((f) => f.outcome === 'would_apply'));
      assert.ok(dry.findings.some((f) => f.outcome === 'would_queue'));
      assert.equal(dry.applied + dry.queued, 0);
      assert.deepEqual(s.engine.stats(), before);
      assert.equal(s.engine.inbox({ state: 'all' }).total, 0);

      const real = s.engine.stewardRun();
      assert.deepEqual(
        real.findings.map((f) => `${f.fingerprint}:${f.outcome}`).sort(),
        dry.findings
          .map(
            (f) => `${f.fingerprint}:${f.outcome.replace('would_apply', 'applied').replace('would_queue', 'queued')}`,
          )
          .sort(),
      );
    });

    it('queues a finding once, and a dismissed finding stays dismissed until a record changes', () => {
      seedRisky(s);
      s.clock.set('2026-02-01T00:00:00Z');
      const first = s.engine.stewardRun();
      const auditAfterFirst = s.engine.stats().audit_events;
      const second = s.engine.stewardRun();
      assert.ok(second.findings.every((f) => f.outcome === 'already_queued'));
      assert.equal(s.engine.stats().audit_events, auditAfterFirst, 'a rerun with nothing new writes nothing');

      const stale = first.findings.find((f) => f.kind === 'stale')!;
      s.engine.resolveInbox(person, stale.inbox_id!, 'dismiss', 'checked: still right');
      assert.equal(
        s.engine.stewardRun().findings.find((f) => f.fingerprint === stale.fingerprint)?.outcome,
        'dismissed_before',
      );
      s.engine.remember(
        person,
        memory({
          key: 'runbook/rotate-certs',
          type: 'runbook',
          title: 'Rotate the TLS certificates',
          description: 'Renew and deploy the certificates a week before they expire',
          body: '',
          review_after: '2026-01-20',
        }),
      );
      const again = s.engine
        .stewardRun()
        .findings.find((f) => f.kind === 'stale' && f.keys[0] === 'runbook/rotate-certs');
      assert.equal(again?.outcome, 'queued', 'a new version is a new finding');
    });
  });

  describe('scans', () => {
    const run = (s: TestStore, options = {}) => s.engine.stewardRun({ dryRun: true, ...options }).findings;
    const ofKind = (findings: StewardFinding[], kind: string) => findings.filter((f) => f.kind === kind);

    it('finds near duplicates of one type by similarity, with the shared terms as evidence', () => {
      s.engine.remember(person, memory());
      s.engine.remember(
        person,
        memory({
          key: 'decision/job-queue-on-postgres',
          description: 'Background jobs go through Postgres with SKIP LOCKED instead of a separate broker',
        }),
      );
      s.engine.remember(person, memory({ type: 'fact', title: 'Use Postgres for the job queue' }));
      s.engine.remember(
        person,
        memory({
          title: 'Use Kafka for analytics events',
          description: 'Analytics events stream through Kafka',
          body: '',
        }),
      );
      const [near, ...rest] = ofKind(run(s), 'duplicate');
      assert.equal(
        rest.length,
        0,
        'a fact and a decision are not duplicates of each other; an unrelated decision is not either',
      );
      assert.deepEqual(near.keys.sort(), ['decision/job-queue-on-postgres', POSTGRES]);
      assert.equal(near.evidence.exact, false);
      assert.ok((near.evidence.similarity as number) >= 0.8 && (near.evidence.similarity as number) < 1);
      assert.ok((near.evidence.shared_terms as string[]).includes('postgr'));
      assert.equal(near.risk, 'medium');
    });

    it('finds conflicts: two live records holding one fact key, and differing records on one anchor', () => {
      // A web record holding the fact key sat in quarantine while a newer one took it; then a person promoted it.
      s.engine.remember(
        agent,
        memory({
          key: 'fact/max-upload-size',
          type: 'fact',
          title: 'Uploads are limited to 10 MB',
          description: 'The API refuses uploads over 10 MB',
          fact_key: 'upload-limit',
          provenance: { source: 'webpage' },
        }),
      );
      s.clock.advanceDays(1);
      s.engine.remember(
        person,
        memory({
          key: 'fact/upload-size',
          type: 'fact',
          title: 'Uploads are limited to 50 MB',
          description: 'The API refuses uploads over 50 MB',
          fact_key: 'upload-limit',
        }),
      );
      s.engine.promote(confirmedPerson, 'fact/max-upload-size');
      s.engine.remember(
        person,
        memory({
          key: 'convention/retry-jobs',
          type: 'convention',
          title: 'Retry failed jobs three times with backoff',
          description: 'Workers retry a failed job three times with exponential backoff',
          body: '',
          anchors: ['src/jobs/worker.ts'],
        }),
      );
      s.clock.advanceDays(1);
      s.engine.remember(
        person,
        memory({
          key: 'convention/never-retry-jobs',
          type: 'convention',
          title: 'Never retry failed jobs automatically',
          description: 'Workers do not retry a failed job; failed jobs go to the dead letter table',
          body: '',
          anchors: ['src/jobs/worker.ts#run'],
        }),
      );
      // Same anchor, different topic: not a conflict.
      s.engine.remember(
        person,
        memory({
          key: 'convention/log-format',
          type: 'convention',
          title: 'Log as JSON lines',
          description: 'Every log line is one JSON object with a timestamp',
          body: '',
          anchors: ['src/jobs/worker.ts'],
        }),
      );

      const conflicts = ofKind(run(s), 'conflict');
      assert.equal(conflicts.length, 2, JSON.stringify(conflicts.map((c) => c.summary)));
      const fact = conflicts.find((c) => c.evidence.fact_key)!;
      assert.deepEqual(fact.keys, ['fact/max-upload-size', 'fact/upload-size']);
      const anchor = conflicts.find((c) => c.evidence.anchor)!;
      assert.equal(anchor.evidence.anchor, 'src/jobs/worker.ts');
      assert.deepEqual(anchor.keys, ['convention/retry-jobs', 'convention/never-retry-jobs'], 'oldest first');
      assert.deepEqual(anchor.evidence.negated, {
        'convention/retry-jobs': false,
        'convention/never-retry-jobs': true,
      });
      assert.equal(anchor.risk, 'high');
      assert.deepEqual(anchor.actions, ['supersede', 'dispute', 'dismiss']);
    });

    it(
      'finds a contradiction without a fact key: one subject, two ' +
        'values of one exclusive kind; not related records',
      () => {
        s.engine.remember(
          person,
          memory({
            key: 'fact/deploy-day',
            type: 'fact',
            title: 'Deploys go out on Tuesdays',
            description: 'Production releases happen on Tuesday afternoons',
            body: '',
          }),
        );
        s.clock.advanceDays(30);
        s.engine.remember(
          person,
          memory({
            key: 'fact/deploy-day-now',
            type: 'fact',
            title: 'We deploy on Thursdays now',
            description: 'Releases moved to Thursday mornings',
            body: '',
          }),
        );
        // Related, not contradicting: another statement about deploys, another schedule, another type.
        s.engine.remember(
          person,
          memory({
            key: 'fact/deploy-freeze',
            type: 'fact',
            title: 'Deploy freeze on Fridays',
            description: 'Nothing ships on Friday',
            body: '',
          }),
        );
        s.engine.remember(
          person,
          memory({
            key: 'fact/backups-nightly',
            type: 'fact',
            title: 'Database backups run nightly',
            description: 'pg_dump at 02:00 UTC',
            body: '',
          }),
        );
        s.engine.remember(
          person,
          memory({
            key: 'fact/log-rotation',
            type: 'fact',
            title: 'Log rotation runs weekly',
            description: 'logrotate on Sundays',
            body: '',
          }),
        );
        s.engine.remember(
          person,
          memory({
            key: 'convention/deploy-review',
            type: 'convention',
            title: 'Deploys on Mondays need two reviewers',
            description: 'Monday releases are reviewed twice',
            body: '',
          }),
        );

        const conflicts = ofKind(run(s), 'conflict');
        assert.equal(conflicts.length, 1, JSON.stringify(conflicts.map((c) => c.summary)));
        assert.deepEqual(conflicts[0].keys, ['fact/deploy-day', 'fact/deploy-day-now'], 'older first');
        assert.equal(conflicts[0].evidence.value_kind, 'weekday');
        assert.deepEqual(conflicts[0].evidence.values, {
          'fact/deploy-day': ['tuesday'],
          'fact/deploy-day-now': ['thursday'],
        });
        assert.deepEqual(conflicts[0].actions, ['supersede', 'dispute', 'dismiss']);
      },
    );

    it('recall flags both, ranks the newer first and names each in the other, before any steward run', async () => {
      s.engine.remember(
        person,
        memory({
          key: 'fact/deploy-day',
          type: 'fact',
          title: 'Deploys go out on Tuesdays',
          description: 'Production deploys happen on Tuesday afternoons',
          body: '',
        }),
      );
      s.clock.advanceDays(30);
      s.engine.remember(
        person,
        memory({
          key: 'fact/deploy-day-now',
          type: 'fact',
          title: 'We deploy on Thursdays now',
          description: 'Releases moved to Thursday mornings',
          body: '',
        }),
      );
      const check = async () => {
        const hits = (await s.engine.recall({ query: 'which day do production deploys happen' })).results;
        assert.deepEqual(
          hits.slice(0, 2).map((h) => h.key),
          ['fact/deploy-day-now', 'fact/deploy-day'],
        );
        assert.ok(hits.slice(0, 2).every((h) => h.flags.includes('conflict')));
        const [newer, older] = hits;
        assert.equal(older.verification?.state, 'contradicted');
        assert.deepEqual(
          older.verification?.contradicted_by.map((r) => r.key),
          ['fact/deploy-day-now'],
        );
        assert.match(older.verification!.reason, /contradicted by newer fact\/deploy-day-now/);
        assert.deepEqual(
          newer.verification?.contradicts.map((r) => r.key),
          ['fact/deploy-day'],
        );
        assert.notEqual(newer.verification?.state, 'contradicted');
      };
      await check();
      // The steward's Inbox offers to supersede the older; until a person acts, recall says the same.
      s.engine.stewardRun();
      const item = s.engine.inbox({}).items.find((i) => i.kind === 'conflict');
      assert.deepEqual(item?.keys, ['fact/deploy-day', 'fact/deploy-day-now']);
      assert.equal(item?.suggested_action, 'supersede');
      await check();
    });

    it('a compatible related record is not marked as a contradiction at recall', async () => {
      s.engine.remember(
        person,
        memory({
          key: 'fact/deploy-day',
          type: 'fact',
          title: 'Deploys go out on Tuesdays',
          description: 'Production deploys happen on Tuesday afternoons',
          body: '',
        }),
      );
      s.clock.advanceDays(30);
      s.engine.remember(
        person,
        memory({
          key: 'fact/deploy-freeze',
          type: 'fact',
          title: 'Deploy freeze on Fridays',
          description: 'Nothing ships on Friday',
          body: '',
        }),
      );
      const hits = (await s.engine.recall({ query: 'which day do deploys happen' })).results;
      assert.equal(hits.length, 2);
      for (const hit of hits) {
        assert.ok(!hit.flags.includes('conflict'), hit.key);
        assert.deepEqual(hit.verification?.contradicted_by, []);
        assert.deepEqual(hit.verification?.contradicts, []);
      }
    });

    it('finds stale records: review date passed, unverified for the configured time; incidents do not age', () => {
      s.engine.remember(person, memory({ review_after: '2026-03-01' }));
      s.engine.remember(
        person,
        memory({
          key: 'runbook/restore-db',
          type: 'runbook',
          title: 'Restore the database from a snapshot',
          description: 'Restore the nightly snapshot into a new instance',
          body: '',
        }),
      );
      s.engine.remember(
        person,
        memory({
          key: 'incident/queue-outage',
          type: 'incident',
          title: 'Job queue outage',
          description: 'The queue stalled for an hour',
          body: '',
        }),
      );
      s.clock.set('2026-02-01T00:00:00Z');
      assert.deepEqual(ofKind(run(s), 'stale'), [], 'nothing due yet');
      assert.deepEqual(
        ofKind(run(s, { unverifiedDays: 30 }), 'stale').map((f) => f.keys[0]),
        ['runbook/restore-db'],
        "the age limit is configurable; a future review date is the author's schedule",
      );
      s.clock.set('2026-08-01T00:00:00Z');
      const stale = ofKind(run(s), 'stale');
      assert.deepEqual(
        stale.map((f) => [f.keys[0], f.evidence.reasons]),
        [
          [POSTGRES, ['review_due']],
          ['runbook/restore-db', ['unverified']],
        ],
      );
      assert.throws(() => s.engine.stewardRun({ unverifiedDays: 0 }), isCode('INVALID_INPUT', /unverifiedDays/));
    });

    it('flags a record whose anchor drifted, from the drift findings', () => {
      const workspace = join(s.dir, 'repo');
      mkdirSync(join(workspace, 'src', 'jobs'), { recursive: true });
      writeFileSync(join(workspace, 'src', 'jobs', 'queue.ts'), 'export function enqueue() {}\n');
      s.engine.useFiles(new DiskWorkspaceReader(workspace));
      s.engine.remember(person, memory({ anchors: ['src/jobs/queue.ts'] }));
      s.engine.driftScan();
      assert.deepEqual(ofKind(run(s), 'stale'), [], 'the anchor is current');

      rmSync(join(workspace, 'src', 'jobs', 'queue.ts'));
      s.engine.driftCheck(['src/jobs/queue.ts']);
      const [finding, ...none] = ofKind(run(s), 'stale');
      assert.equal(none.length, 0);
      assert.deepEqual(finding.keys, [POSTGRES]);
      assert.deepEqual(finding.evidence.reasons, ['anchor_drift']);
      const [signal] = finding.evidence.drift as Array<{ state: string; reference: string }>;
      assert.equal(signal.state, 'gone');
      assert.equal(signal.reference, 'src/jobs/queue.ts');
      assert.match(finding.summary, /1 of its references drifted \(gone\)/);
    });

    it('counts a re-verification as confirmation, even one that made no new version', () => {
      const workspace = join(s.dir, 'repo');
      mkdirSync(join(workspace, 'ops'), { recursive: true });
      writeFileSync(join(workspace, 'ops', 'restore.sh'), 'pg_restore --clean latest.dump\n');
      s.engine.useFiles(new DiskWorkspaceReader(workspace));
      const key = 'runbook/restore-db';
      s.engine.remember(
        person,
        memory({
          key,
          type: 'runbook',
          title: 'Restore the database from a snapshot',
          description: 'Run ops/restore.sh against a new instance',
          body: '',
          anchors: ['ops/restore.sh'],
        }),
      );
      s.engine.driftScan();
      s.engine.reverify(person, key);
      const version = s.engine.get(key).memory.version;
      s.clock.advanceDays(100);
      s.engine.reverify(person, key);
      assert.equal(s.engine.get(key).memory.version, version, 'already verified: no new version');
      s.clock.advanceDays(100);
      assert.deepEqual(ofKind(run(s), 'stale'), [], '200 days since the last version, 100 since it was re-verified');
      s.clock.advanceDays(100);
      const [stale] = ofKind(run(s), 'stale');
      assert.deepEqual(stale.evidence.reasons, ['unverified']);
      assert.equal(stale.evidence.verified_at, '2026-04-11T00:00:00.000Z');
    });

    it('reads only drifted states of memory findings', () => {
      const drift = driftByMemory([
        {
          id: 'f1',
          source: { kind: 'memory', key: POSTGRES },
          reference: { raw: 'src/jobs/queue.ts' },
          state: 'relocated',
          evidence: { detail: 'moved to src/queue.ts' },
        },
        {
          id: 'f2',
          source: { kind: 'memory', key: POSTGRES },
          reference: { raw: 'README.md' },
          state: 'current',
          evidence: { detail: 'unchanged' },
        },
        {
          id: 'f3',
          source: { kind: 'doc', path: 'docs/a.md' },
          reference: { raw: 'src/x.ts' },
          state: 'changed',
          evidence: { detail: 'edited' },
        },
      ]);
      assert.deepEqual([...drift.keys()], [POSTGRES]);
      assert.deepEqual(drift.get(POSTGRES), [
        { finding_id: 'f1', state: 'relocated', reference: 'src/jobs/queue.ts', detail: 'moved to src/queue.ts' },
      ]);
      s.engine.remember(person, memory());
      const [finding] = findStale([s.engine.get(POSTGRES).memory], { now: '2026-01-02T00:00:00Z', drift });
      assert.deepEqual(finding.evidence.reasons, ['anchor_drift']);
    });

    it('finds an active decision that repeats a recorded dead end', () => {
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
        memory({ title: 'Keep sessions in Redis', description: 'Move the session store to Redis for speed', body: '' }),
      );
      s.engine.remember(person, memory());
      const [collision, ...rest] = ofKind(run(s), 'dead_end_collision');
      assert.equal(rest.length, 0);
      assert.deepEqual(collision.keys, ['decision/keep-sessions-in-redis', 'dead_end/redis-as-the-session-store']);
      assert.ok((collision.evidence.resemblance as number) >= 0.5);
      assert.equal((collision.evidence.dead_end as { key: string }).key, 'dead_end/redis-as-the-session-store');
    });
  });

  describe('inbox resolve', () => {
    let ids: Record<string, number>;
    beforeEach(() => {
      seedRisky(s);
      s.clock.set('2026-02-01T00:00:00Z');
      ids = {};
      for (const f of s.engine.stewardRun().findings) ids[f.kind] = f.inbox_id!;
    });

    it('merge: the near duplicate is superseded by the survivor, its history kept', () => {
      const item = s.engine.inbox().items.find((i) => i.id === ids.duplicate)!;
      const [survivor, other] = item.keys;
      const auditBefore = s.engine.stats().audit_events;
      const r = s.engine.resolveInbox(person, ids.duplicate, 'merge');
      assert.deepEqual(r.changed, [other]);
      assert.equal(r.item.state, 'resolved');
      assert.deepEqual(r.item.resolution && { action: r.item.resolution.action, by: r.item.resolution.by }, {
        action: 'merge',
        by: 'test:alice',
      });
      assert.equal(s.engine.get(other).memory.superseded_by, survivor);
      assert.ok(s.engine.history(other).events.some((e) => e.event === 'merged' && e.actor === 'test:alice'));
      assert.deepEqual(
        auditRows(s)
          .slice(auditBefore)
          .map((e) => e.event),
        ['memory.supersede', 'inbox.merge'],
      );
    });

    it('supersede: the older side of a conflict gives way to the newer', () => {
      s.engine.resolveInbox(person, ids.conflict, 'supersede');
      assert.equal(s.engine.get('convention/retry-jobs').memory.superseded_by, 'convention/never-retry-jobs');
      assert.equal(s.engine.get('convention/never-retry-jobs').memory.status, 'active');
    });

    it('dispute: both sides of a conflict are marked disputed with the note as the reason', () => {
      const r = s.engine.resolveInbox(person, ids.conflict, 'dispute', 'ask the queue owners which holds');
      assert.deepEqual(r.changed.sort(), ['convention/never-retry-jobs', 'convention/retry-jobs']);
      for (const key of r.changed) {
        const m = s.engine.get(key).memory;
        assert.equal(m.status, 'disputed');
        assert.equal(m.status_reason, 'ask the queue owners which holds');
      }
    });

    it('deprecate: a stale record is deprecated, with the finding as its reason', () => {
      s.engine.resolveInbox(person, ids.stale, 'deprecate');
      const m = s.engine.get('runbook/rotate-certs').memory;
      assert.equal(m.status, 'deprecated');
      assert.match(m.status_reason ?? '', /^steward: runbook\/rotate-certs may be out of date: its review date/);
    });

    it('dispute on a dead-end collision marks the decision, not the dead end', () => {
      s.engine.resolveInbox(person, ids.dead_end_collision, 'dispute');
      assert.equal(s.engine.get('decision/keep-sessions-in-redis').memory.status, 'disputed');
      assert.equal(s.engine.get('dead_end/redis-as-the-session-store').memory.status, 'active');
    });

    it('dismiss changes no record and closes the item', () => {
      const before = s.engine.list().items.map((m) => `${m.key}:${m.status}`);
      const r = s.engine.resolveInbox(person, String(ids.conflict), 'dismiss');
      assert.equal(r.item.state, 'dismissed');
      assert.deepEqual(r.changed, []);
      assert.deepEqual(
        s.engine.list().items.map((m) => `${m.key}:${m.status}`),
        before,
      );
      assert.ok(!s.engine.inbox().items.some((i) => i.id === ids.conflict));
      assert.ok(s.engine.inbox({ state: 'all' }).items.some((i) => i.id === ids.conflict && i.state === 'dismissed'));
    });

    it("validates the action, the id and the item's state, naming the valid choices", () => {
      assert.throws(
        () => s.engine.resolveInbox(person, ids.stale, 'merge'),
        isCode('INVALID_INPUT', /cannot be resolved with merge; valid actions: deprecate, dispute, dismiss/),
      );
      assert.throws(
        () => s.engine.resolveInbox(person, ids.stale, 'keep'),
        isCode(
          'INVALID_INPUT',
          /action must be one of merge, supersede, deprecate, dispute, add, promote, dismiss; got "keep"/,
        ),
      );
      assert.throws(() => s.engine.resolveInbox(person, 'abc', 'dismiss'), isCode('INVALID_INPUT', /whole number/));
      assert.throws(() => s.engine.resolveInbox(person, 9999, 'dismiss'), isCode('NOT_FOUND', /no inbox item 9999/));
      s.engine.resolveInbox(person, ids.stale, 'dismiss');
      assert.throws(
        () => s.engine.resolveInbox(person, ids.stale, 'deprecate'),
        isCode('INVALID_STATE', /already dismissed/),
      );
    });

    it('refuses to act on a finding whose records changed since', () => {
      s.engine.setStatus(person, 'convention/retry-jobs', 'deprecated', 'replaced by the dead letter table');
      s.engine.remember(
        person,
        memory({
          key: 'convention/never-retry-jobs',
          type: 'convention',
          title: 'Never retry failed jobs automatically',
          description: 'Workers never retry a failed job',
          body: '',
          anchors: ['src/jobs/worker.ts'],
        }),
      );
      assert.throws(
        () => s.engine.resolveInbox(person, ids.conflict, 'supersede'),
        isCode('INVALID_STATE', /changed since inbox item/),
      );
      assert.equal(s.engine.get('convention/retry-jobs').memory.status, 'deprecated', 'nothing was applied');
    });

    it('refuses to deprecate a stale record that was brought up to date since', () => {
      s.engine.remember(
        person,
        memory({
          key: 'runbook/rotate-certs',
          type: 'runbook',
          title: 'Rotate the TLS certificates',
          description: 'Renew and deploy the certificates before they expire',
          body: 'Checked again: still how we do it.',
          review_after: '2027-01-10',
        }),
      );
      assert.throws(
        () => s.engine.resolveInbox(person, ids.stale, 'deprecate'),
        isCode('INVALID_STATE', /runbook\/rotate-certs changed since inbox item/),
      );
      assert.equal(
        s.engine.get('runbook/rotate-certs').memory.status,
        'active',
        'the fresh version was not deprecated',
      );
    });

    it('forget removes the inbox items that name the forgotten record', () => {
      const open = s.engine.inbox().open;
      s.engine.forget(person, 'runbook/rotate-certs');
      assert.equal(s.engine.inbox().open, open - 1);
      assert.ok(!JSON.stringify(s.engine.inbox({ state: 'all' })).includes('rotate-certs'));
    });
  });
});
