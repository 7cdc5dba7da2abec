// Strings bound to SQLite reach it as the same UTF-8 bytes after patchSqliteWasm.mjs's fix 5, and
// a long one is encoded by Node's encoder, not the package's loop over each character.

import { strict as assert } from 'node:assert';
import { WasmSqlDatabase } from '../../../src/host/sqlite';

/** The bytes SQLite holds for a bound string, as hex. */
function stored(db: WasmSqlDatabase, text: string): string {
  return db.get<{ h: string }>('SELECT hex(?) AS h', [text])!.h.toLowerCase();
}

/** How many times `String.prototype.codePointAt` runs in `work`: the package's own encoder calls it per character. */
function codePointCalls(work: () => void): number {
  const original = String.prototype.codePointAt;
  let calls = 0;
  String.prototype.codePointAt = function (this: string, index: number) {
    calls++;
    return original.call(this, index);
  };
  try {
    work();
  } finally {
    String.prototype.codePointAt = original;
  }
  return calls;
}

describe('strings bound to SQLite', () => {
  let db: WasmSqlDatabase;
  beforeEach(() => (db = new WasmSqlDatabase(':memory:')));
  afterEach(() => db.close());

  it('are stored as their UTF-8 bytes, short or long, accents, scripts and emoji alike', () => {
    const texts = [
      'a',
      'héllo wörld',
      'x'.repeat(31),
      'Straße — 東京 — 🚀 deploy '.repeat(40),
      `${'ascii '.repeat(20_000)}ünïcödé`,
      '🚀'.repeat(16),
    ];
    for (const text of texts)
      assert.equal(stored(db, text), Buffer.from(text, 'utf8').toString('hex'), text.slice(0, 40));
    // Read back whole through a table, too.
    db.exec('CREATE TABLE t (v TEXT)');
    for (const text of texts) db.run('INSERT INTO t VALUES (?)', [text]);
    assert.deepEqual(
      db.all<{ v: string }>('SELECT v FROM t').map((r) => r.v),
      texts,
    );
  });

  it('keep the old bytes for a lone surrogate (which Lore refuses before it stores anything)', () => {
    const lone = `${'long enough to take the native path '.repeat(2)}\ud800 end`;
    assert.match(stored(db, lone), /eda080/, 'the package writes a lone high surrogate as ED A0 80');
  });

  it('encode a long string without a loop over its characters', () => {
    const text = 'chunk text with a heading and some prose; '.repeat(100);
    stored(db, 'x'); // the statement is prepared (and cached) before counting
    assert.equal(
      codePointCalls(() => stored(db, text)),
      0,
    );
    assert.ok(
      codePointCalls(() => stored(db, 'short é')) > 0,
      'a short string still goes the old way (the count works)',
    );
  });
});
