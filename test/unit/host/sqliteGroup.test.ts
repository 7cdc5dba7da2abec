// Grouped commits in the SQLite port (src/host/sqlite.ts), on a real database file: grouped work
// shares one commit, any other write commits the group first, a grouped piece that throws is undone
// alone, and closing commits what is open. A second connection shows what is on disk.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { WasmSqlDatabase } from '../../../src/host/sqlite';
import { tempDir } from '../../support/store';

function onDisk(path: string): string[] {
  const other = new WasmSqlDatabase(path);
  try {
    return other.all<{ v: string }>('SELECT v FROM t ORDER BY v').map((r) => r.v);
  } finally {
    other.close();
  }
}

describe('WasmSqlDatabase grouped commits', () => {
  let path: string;
  let db: WasmSqlDatabase;
  beforeEach(() => {
    path = join(tempDir('lore-group-'), 'g.db');
    db = new WasmSqlDatabase(path);
    db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  });
  afterEach(() => db.close());

  it('keeps grouped work in one open transaction until another write commits it', () => {
    db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['a']));
    db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['b']));
    // Visible to its own connection; the file is still locked by the open transaction.
    assert.equal(db.all('SELECT v FROM t').length, 2);
    assert.throws(() => onDisk(path), /locked|busy/i);
    db.run('INSERT INTO t VALUES (?)', ['c']);
    assert.deepEqual(onDisk(path), ['a', 'b', 'c']);
  });

  it('undoes only the grouped piece that throws, and a transaction or flush commits the rest', () => {
    db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['a']));
    assert.throws(() =>
      db.grouped(() => {
        db.run('INSERT INTO t VALUES (?)', ['lost']);
        throw new Error('boom');
      }),
    );
    db.transaction(() => db.run('INSERT INTO t VALUES (?)', ['b']));
    assert.deepEqual(onDisk(path), ['a', 'b']);
    db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['c']));
    db.flush();
    assert.deepEqual(onDisk(path), ['a', 'b', 'c']);
  });

  it("runs grouped work inside a caller's transaction as part of it", () => {
    assert.throws(() =>
      db.transaction(() => {
        db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['inner']));
        throw new Error('the caller fails');
      }),
    );
    db.transaction(() => db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['kept'])));
    assert.deepEqual(onDisk(path), ['kept']);
  });

  it('commits an open group when it closes', () => {
    db.grouped(() => db.run('INSERT INTO t VALUES (?)', ['a']));
    db.close();
    assert.deepEqual(onDisk(path), ['a']);
    db = new WasmSqlDatabase(path);
  });
});
