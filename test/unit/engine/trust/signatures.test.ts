import { strict as assert } from 'node:assert';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, LoreError } from '../../../../src/engine';
import { ephemeralSigner, registerAuthor } from '../../../../src/engine/record/integrity';
import { signingPayload, verifyPayload } from '../../../../src/engine/record/signatures';
import { loadMachineSigner, machineKeyPath } from '../../../../src/host/machineKey';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { memory, openTestStore, person, tempDir, type TestStore } from '../../../support/store';

const KEY = 'decision/use-postgres-for-the-job-queue';

function refusedOnGet(s: TestStore, pattern: RegExp): void {
  assert.throws(
    () => s.engine.get(KEY),
    (e: unknown) => e instanceof LoreError && e.code === 'INTEGRITY' && pattern.test(e.message),
  );
}

describe('signed records', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    s.engine.remember(person, memory());
    s.engine.remember(person, memory({ title: 'Use UTC in logs', description: 'All log timestamps are UTC' }));
  });
  afterEach(() => s.cleanup());

  it('signs every version over store id, key, version, content digest and author', () => {
    const row = s.db.get<{ key: string; version: number; content_digest: string; author: string; signature: string }>(
      'SELECT * FROM memories WHERE key = ?',
      [KEY],
    )!;
    assert.match(row.author, /^ed25519:[0-9a-f]{16}$/);
    const publicKey = s.db.get<{ public_key: string }>('SELECT public_key FROM authors WHERE key_id = ?', [
      row.author,
    ])!.public_key;
    assert.ok(verifyPayload(publicKey, signingPayload(s.engine.storeId, row), row.signature));
    assert.ok(!verifyPayload(publicKey, signingPayload('another-store', row), row.signature));
    assert.equal(s.engine.get(KEY).memory.author, row.author);
  });

  it('refuses a record whose content was edited after signing, and names it in recall and list', async () => {
    s.db.run("UPDATE memories SET description = 'Jobs run on MySQL' WHERE key = ?", [KEY]);
    refusedOnGet(s, /content was changed after it was signed/);
    const recalled = await s.engine.recall({ query: 'job queue postgres mysql' });
    assert.ok(!recalled.results.some((r) => r.key === KEY));
    assert.deepEqual(
      recalled.refused.map((r) => r.key),
      [KEY],
    );
    const listed = s.engine.list();
    assert.deepEqual(
      listed.items.map((m) => m.key),
      ['decision/use-utc-in-logs'],
    );
    assert.equal(listed.refused[0].key, KEY);
  });

  it('refuses a record moved to another key', () => {
    s.db.run("UPDATE memories SET key = 'decision/moved' WHERE key = ?", [KEY]);
    assert.throws(() => s.engine.get('decision/moved'), /decision\/moved v1 is refused/);
  });

  it('refuses a re-attributed record', () => {
    const other = ephemeralSigner();
    registerAuthor({ db: s.db, clock: s.clock, signer: other }, other);
    s.db.run('UPDATE memories SET author = ? WHERE key = ?', [other.keyId, KEY]);
    refusedOnGet(s, /signature does not match/);
  });

  it('refuses a record whose signature was stripped', () => {
    s.db.run('UPDATE memories SET signature = NULL WHERE key = ?', [KEY]);
    refusedOnGet(s, /signature is missing/);
  });

  it('refuses a record copied into another store', () => {
    const row = s.db.get<Record<string, string | number | null>>('SELECT * FROM memories WHERE key = ?', [KEY])!;
    const other = openTestStore();
    try {
      const author = s.db.get<{ key_id: string; public_key: string }>('SELECT * FROM authors WHERE key_id = ?', [
        row.author as string,
      ])!;
      // The author's key is known there too (sealed by a key that store knows), so only the copy is wrong.
      const sealer = ephemeralSigner();
      const known = { db: other.db, clock: other.clock, signer: sealer };
      registerAuthor(known, sealer);
      registerAuthor(known, { keyId: author.key_id, publicKey: author.public_key });
      const { id: _id, ...columns } = row;
      const names = Object.keys(columns);
      other.db.run(
        `INSERT INTO memories (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        Object.values(columns) as (string | number | null)[],
      );
      assert.throws(() => other.engine.get(KEY), /signature does not match/);
    } finally {
      other.cleanup();
    }
  });

  it('keeps records verifiable across reopen with a different process key', () => {
    const reopened = s.reopen();
    s = reopened;
    assert.equal(s.engine.get(KEY).memory.title, 'Use Postgres for the job queue');
  });
});

describe('machine key', () => {
  it('is created once in the Lore home with mode 0600 and reused', () => {
    const home = tempDir('lore-home-');
    const first = loadMachineSigner(home);
    const second = loadMachineSigner(home);
    assert.equal(first.keyId, second.keyId);
    assert.equal(statSync(machineKeyPath(home)).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, 'keys')).mode & 0o777, 0o700);
    const db = new WasmSqlDatabase(':memory:');
    const engine = new Engine({ db, signer: first });
    engine.remember(person, memory());
    assert.equal(engine.get(KEY).memory.author, first.keyId);
    db.close();
  });
});
