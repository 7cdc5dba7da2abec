import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

// Distinctive words: if any trace of them survives in the file, forget failed.
const MARKER = 'quetzalcoatlus';
const KEY = 'decision/quetzalcoatlus-migration-plan';

function fileContains(path: string, needle: string): boolean {
  return readFileSync(path).includes(Buffer.from(needle, 'utf8'));
}

describe('forget', () => {
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
    for (let i = 0; i < 40; i++)
      s.engine.remember(
        person,
        memory({ title: `Unrelated decision ${i}`, description: `Filler record number ${i} about caching` }),
      );
    for (let v = 1; v <= 3; v++) {
      s.clock.advanceDays(1);
      s.engine.remember(
        person,
        memory({
          title: `${MARKER} migration plan`,
          description: `Move the ${MARKER} service off the monolith, revision ${v}`,
          body: `${MARKER} body text v${v} zygomorphic`,
        }),
      );
    }
    s.db.run(
      'INSERT INTO memory_vectors (memory_id, model, dims, vector) ' +
        "SELECT id, 'test-model', 2, x'0000803f0000803f' FROM memories " +
        'WHERE key = ?',
      [KEY],
    );
    s.engine.setStatus(person, KEY, 'disputed', `${MARKER} numbers are off`);
  });
  afterEach(() => s.cleanup());

  it('returns a receipt with the versions removed and their digests', async () => {
    const digests = s.engine.history(KEY).versions.map((v) => v.content_digest);
    const receipt = s.engine.forget(person, KEY);
    assert.equal(receipt.key, KEY);
    assert.equal(receipt.versions_removed, 3);
    assert.deepEqual(receipt.digests, digests);
    assert.equal(receipt.forgotten_at, s.clock.now().toISOString());
  });

  it('purges rows, full-text terms, vectors, archived versions and history', async () => {
    s.engine.forget(person, KEY);
    assert.equal(s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories WHERE key = ?', [KEY])!.n, 0);
    assert.equal(s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_vectors')!.n, 0);
    assert.equal(s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_events WHERE key = ?', [KEY])!.n, 0);
    assert.equal(
      s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH ?', [MARKER])!.n,
      0,
    );
    assert.deepEqual((await s.engine.recall({ query: `${MARKER} migration` })).results, []);
    assert.throws(() => s.engine.get(KEY), /no memory with key/);
    assert.throws(() => s.engine.history(KEY), /no memory with key/);
    assert.equal(s.engine.stats().memories, 40);
  });

  it('leaves no trace of the content anywhere in the store file', async () => {
    assert.ok(fileContains(s.path, MARKER), 'the marker is in the file before forget');
    s.engine.forget(person, KEY);
    s.db.close();
    for (const needle of [MARKER, 'zygomorphic', 'quetzalcoatlu', 'zygomorph', 'numbers are off']) {
      assert.ok(!fileContains(s.path, needle), `"${needle}" still in the store file`);
    }
  });

  it('keeps only digests in the audit chain', async () => {
    s.engine.forget(person, KEY);
    const events = s.db.all<Record<string, unknown>>('SELECT * FROM audit_events');
    assert.ok(!JSON.stringify(events).includes(MARKER.slice(0, 8) + ' '), 'audit events must not hold text');
    assert.ok(!JSON.stringify(events).includes('zygomorphic'));
    const last = events[events.length - 1];
    assert.equal(last.event, 'memory.forget');
    assert.ok(s.engine.verifyAudit().ok);
  });

  it('is final: the key can be used afresh, from version 1', async () => {
    s.engine.forget(person, KEY);
    const r = s.engine.remember(person, memory({ key: KEY, title: 'A new plan', description: 'Fresh start' }));
    assert.equal(r.saved && r.version, 1);
  });
});
