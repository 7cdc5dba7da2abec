import { strict as assert } from 'node:assert';
import { LoreError } from '../../../../src/engine';
import { SCHEMA_VERSION } from '../../../../src/engine/store/migrations';
import { agent, confirmedPerson, memory, openTestStore, person, type TestStore } from '../../../support/store';
import { ephemeralSigner, registerAuthor } from '../../../../src/engine/record/integrity';
import { legacyStatePayload, rowState } from '../../../../src/engine/record/state';

const KEY = 'decision/use-postgres-for-the-job-queue';
const WEB = 'fact/the-queue-handles-10k-jobs';

function refused(s: TestStore, key: string, pattern: RegExp): void {
  assert.throws(
    () => s.engine.get(key),
    (e: unknown) => e instanceof LoreError && e.code === 'INTEGRITY' && pattern.test(e.message),
  );
  assert.ok(s.engine.list().refused.some((r) => r.key === key));
  assert.ok(s.engine.verifyRecords().refused.some((r) => r.key === key));
}

function problems(s: TestStore): { seq: number; key?: string | null; problem: string }[] {
  const verdict = s.engine.verifyAudit();
  assert.equal(verdict.ok, verdict.problems.length === 0);
  return verdict.problems;
}

describe('signed state: status and provenance edited in the file', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory());
    s.engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'The queue handles 10k jobs',
        description: 'Read on a blog',
        provenance: { source: 'webpage' },
      }),
    );
    assert.equal(s.engine.list({ statuses: ['quarantined'] }).items[0].key, WEB);
  });
  afterEach(() => s.cleanup());

  it('a quarantined web page turned into an active record is refused, and the chain comparison names it', () => {
    s.db.run("UPDATE memories SET status = 'active' WHERE key = ?", [WEB]);
    refused(s, WEB, /changed outside Lore: status: "quarantined" → "active"/);
    const found = problems(s);
    assert.equal(found.length, 1);
    assert.equal(found[0].key, WEB);
    assert.match(found[0].problem, /reads active, but its status or provenance is not what event 2 recorded/);
  });

  it('a provenance changed from webpage to user is refused and reported', () => {
    s.db.run(`UPDATE memories SET provenance = json_set(provenance, '$.source', 'user') WHERE key = ?`, [WEB]);
    refused(s, WEB, /changed outside Lore: provenance: .*"source":"webpage".* → .*"source":"user"/);
    assert.deepEqual(
      problems(s).map((p) => p.key),
      [WEB],
    );
  });

  it('a stripped state signature is refused', () => {
    s.db.run('UPDATE memories SET state_signature = NULL WHERE key = ?', [KEY]);
    refused(s, KEY, /status and provenance are not signed/);
  });

  it('a retracted record set back to active is refused; the chain says it was retracted', () => {
    s.engine.setStatus(person, KEY, 'retracted', 'wrong');
    s.db.run("UPDATE memories SET status = 'active', status_reason = NULL WHERE key = ?", [KEY]);
    refused(s, KEY, /changed outside Lore: status: "retracted" → "active"; status_reason: "wrong" → null/);
    const [problem] = problems(s);
    assert.equal(problem.seq, 3);
    assert.match(problem.problem, /event 3 recorded/);
  });

  it("an agent's status change does not re-sign a status edited in the file: refused, still reported", () => {
    s.engine.setStatus(person, KEY, 'retracted', 'wrong');
    s.db.run("UPDATE memories SET status = 'active', status_reason = NULL WHERE key = ?", [KEY]);
    const sealed = () =>
      s.db.get<{ state_signature: string }>('SELECT state_signature FROM memories WHERE key = ?', [KEY])!
        .state_signature;
    const before = sealed();
    for (const status of ['deprecated', 'disputed'] as const) {
      assert.throws(
        () => s.engine.setStatus(agent, KEY, status, 'looks stale'),
        (e: unknown) => e instanceof LoreError && e.code === 'INTEGRITY' && /will not sign it again/.test(e.message),
      );
    }
    assert.equal(sealed(), before, 'the tampered row was not signed again');
    refused(s, KEY, /changed outside Lore: status: "retracted" → "active"; status_reason: "wrong" → null/);
    assert.equal(problems(s).length, 1, 'the audit comparison still names it');
  });

  it('deleted rows are reported missing, by key, from what is left of its history', () => {
    s.db.run('DELETE FROM memories WHERE key = ?', [KEY]);
    const [problem] = problems(s);
    assert.equal(problem.seq, 1);
    assert.equal(problem.key, KEY);
    assert.match(problem.problem, /has no current row \(deleted outside Lore\)/);
    // With its events gone too, the record is still reported, by its key digest.
    s.db.run('DELETE FROM memory_events WHERE key = ?', [KEY]);
    assert.match(
      problems(s)[0].problem,
      /the record with key digest [0-9a-f]{16}… \(v1\), written at event 1, has no current row/,
    );
  });

  it('a forgotten record re-inserted is reported as back; a row inserted outside Lore as in no event', () => {
    const row = s.db.get<Record<string, string | number | null>>('SELECT * FROM memories WHERE key = ?', [KEY])!;
    s.engine.forget(person, KEY);
    const { id: _id, ...columns } = row;
    const names = Object.keys(columns);
    const insert = (values: Record<string, string | number | null>) =>
      s.db.run(
        `INSERT INTO memories (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        names.map((n) => values[n]),
      );
    insert(columns);
    // Its own signatures still hold: only the chain knows it was forgotten.
    assert.equal(s.engine.get(KEY).memory.title, 'Use Postgres for the job queue');
    const [back] = problems(s);
    assert.equal(back.key, KEY);
    assert.match(back.problem, /was forgotten at event 3, but its row is back/);
    insert({ ...columns, key: 'decision/planted' });
    const planted = problems(s).find((p) => p.key === 'decision/planted')!;
    assert.equal(planted.seq, 0);
    assert.match(planted.problem, /in no event of the audit chain/);
  });

  it('every status change Lore makes is signed and recorded: the store verifies throughout', () => {
    const clean = () => {
      assert.deepEqual(s.engine.verifyRecords().refused, []);
      assert.deepEqual(problems(s), []);
    };
    s.engine.setStatus(person, KEY, 'deprecated', 'older');
    clean();
    s.engine.setStatus(person, KEY, 'disputed', 'unsure');
    clean();
    s.engine.promote(confirmedPerson, WEB);
    clean();
    s.engine.supersede(person, KEY, WEB);
    clean();
    s.engine.remember(person, memory({ description: 'Jobs go through Postgres, now with a retry table' }));
    clean();
    assert.equal(s.engine.get(KEY).memory.version, 2);
    // The archived version is checked too: an edit of its status is refused.
    s.db.run("UPDATE memories SET status = 'active' WHERE key = ? AND version = 1", [KEY]);
    assert.deepEqual(
      s.engine.verifyRecords().refused.map((r) => `${r.key} v${r.version}`),
      [`${KEY} v1`],
    );
  });
});

/** The store as schema 13 and 14 left it: no sealed copies of a state, of the history or of an author. */
function dropSealColumns(s: TestStore): void {
  s.db.exec('ALTER TABLE memories DROP COLUMN state_sealed');
  for (const table of ['memory_events', 'authors', 'memory_vectors'])
    for (const column of ['sealed', 'seal_signature', 'seal_signer'])
      s.db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
}

describe('signed state: upgrading a store written before it', () => {
  it('signs the rows already there as they stand, so they stay readable and later edits are refused', () => {
    let s = openTestStore();
    try {
      s.engine.remember(person, memory());
      s.engine.setStatus(person, KEY, 'deprecated', 'older');
      // The store as schema version 7 wrote it: no state signatures.
      s.db.exec(
        'ALTER TABLE memories DROP COLUMN state_signature; ALTER TABLE ' +
          'memories DROP COLUMN state_signer; PRAGMA user_version = 7',
      );
      // Nor version 15's sealed copies.
      dropSealColumns(s);
      for (const table of ['chunk_vectors', 'memory_vectors'])
        for (const change of ['insert', 'update', 'delete']) s.db.exec(`DROP TRIGGER ${table}_pages_${change}`);
      s.db.exec('DROP TABLE vector_code_pages');
      s.db.exec('ALTER TABLE chunk_vectors DROP COLUMN code; ALTER TABLE memory_vectors DROP COLUMN code');
      s.db.exec('ALTER TABLE drift_refs DROP COLUMN symbol_kind');
      for (const column of ['kind_confidence', 'kind_runner_up', 'kind_signals'])
        s.db.exec(`ALTER TABLE docs DROP COLUMN ${column}`);
      // Nor version 13's drift columns and dismissals.
      s.db.exec('ALTER TABLE drift_refs DROP COLUMN command; ALTER TABLE drift_refs DROP COLUMN already_broken');
      s.db.exec('DROP TABLE drift_dismissals');
      // Nor version 14's own kind readings.
      s.db.exec('ALTER TABLE docs DROP COLUMN kind_own');
      s = s.reopen();
      assert.equal(s.db.get<{ v: number }>('SELECT user_version AS v FROM pragma_user_version')!.v, SCHEMA_VERSION);
      assert.equal(s.engine.get(KEY).memory.status, 'deprecated');
      assert.deepEqual(s.engine.verifyRecords().refused, []);
      assert.equal(s.engine.verifyAudit().ok, true);
      s.db.run("UPDATE memories SET status = 'active' WHERE key = ?", [KEY]);
      assert.equal(s.engine.verifyRecords().refused.length, 1);
    } finally {
      s.cleanup();
    }
  });
});

describe('sealed fields: upgrading a store from schema 13 (status and provenance signed, nothing else)', () => {
  /** The store as Lore wrote it at schema 13: the first state signature on every row, no sealed copies. */
  function asSchema13(s: TestStore): void {
    const rows = s.db.all<{
      id: number;
      key: string;
      version: number;
      content_digest: string;
      status: string;
      provenance: string;
    }>('SELECT id, key, version, content_digest, status, provenance FROM memories');
    const storeId = s.engine.storeId;
    const signer = ephemeralSigner();
    registerAuthor({ db: s.db, clock: s.clock, signer }, signer, 'this machine');
    for (const row of rows) {
      const signature = signer.sign(legacyStatePayload(storeId, rowState(row)));
      s.db.run('UPDATE memories SET state_signature = ?, state_signer = ? WHERE id = ?', [
        signature,
        signer.keyId,
        row.id,
      ]);
    }
    dropSealColumns(s);
    // Nor version 14's own kind readings.
    s.db.exec('ALTER TABLE docs DROP COLUMN kind_own');
    s.db.exec('PRAGMA user_version = 13');
  }

  it('seals each row that holds its signature once; later edits of valid_until, actor or author are reported', () => {
    let s = openTestStore();
    try {
      s.engine.remember(person, memory());
      s.engine.remember(person, memory({ title: 'Retry jobs three times', description: 'Then dead-letter them' }));
      s.engine.setStatus(person, KEY, 'deprecated', 'older');
      asSchema13(s);
      s = s.reopen();
      assert.equal(s.db.get<{ v: number }>('SELECT user_version AS v FROM pragma_user_version')!.v, SCHEMA_VERSION);
      assert.equal(SCHEMA_VERSION, 15);
      assert.equal(s.engine.get(KEY).memory.status_reason, 'older');
      assert.deepEqual(s.engine.verifyRecords().refused, []);
      assert.deepEqual(s.engine.sealProblems(), []);
      assert.equal(s.engine.verifyAudit().ok, true);
      // After the upgrade the lifecycle, the history and the authors are sealed.
      s.db.run("UPDATE memories SET valid_until = '2000-01-01T00:00:00.000Z' WHERE key = ?", [KEY]);
      s.db.run("UPDATE memory_events SET actor = 'cli:mallory' WHERE event = 'deprecated'");
      s.db.run("UPDATE authors SET label = 'mallory' WHERE key_id = (SELECT MIN(key_id) FROM authors)");
      const found = s.engine.sealProblems().map((p) => `${p.table}: ${p.reason}`);
      assert.equal(found.length, 3, found.join('\n'));
      assert.match(found.join('\n'), /memories: changed outside Lore: valid_until/);
      assert.match(found.join('\n'), /memory_events: changed outside Lore: actor/);
      assert.match(found.join('\n'), /authors: changed outside Lore: label/);
    } finally {
      s.cleanup();
    }
  });

  it('a status edited before the upgrade is not sealed by it: still refused and reported after', () => {
    let s = openTestStore();
    try {
      s.engine.remember(person, memory());
      s.engine.setStatus(person, KEY, 'retracted', 'wrong');
      asSchema13(s);
      s.db.run("UPDATE memories SET status = 'active' WHERE key = ?", [KEY]);
      s = s.reopen();
      assert.equal(
        s.db.get<{ sealed: string | null }>('SELECT state_sealed AS sealed FROM memories WHERE key = ?', [KEY])!.sealed,
        null,
      );
      refused(s, KEY, /status or provenance was changed after it was signed/);
      assert.throws(() => s.engine.setStatus(person, KEY, 'deprecated', 'x'), /will not sign it again/);
    } finally {
      s.cleanup();
    }
  });
});
