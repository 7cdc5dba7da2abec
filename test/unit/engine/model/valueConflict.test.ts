// statesValue (src/engine/model/valueConflict.ts) is the short cut that lets a record stating no
// weekday, month or frequency skip its contradiction lookup: it must say true for every record
// valueConflict can pair, on either side, and false for a record that names no such value.

import { strict as assert } from 'node:assert';
import { statesValue, valueConflict } from '../../../../src/engine/model/valueConflict';

const records = [
  { title: 'Deploys go out on Tuesdays', description: 'after the stand-up' },
  { title: 'We deploy on Thursdays now', description: 'moved from Tuesday' },
  { title: 'Backups run nightly', description: 'to the cold bucket' },
  { title: 'Backups run weekly', description: '' },
  { title: 'Release freeze in December', description: 'no deploys' },
  { title: 'Release freeze in March', description: '' },
  { title: 'Use PostgreSQL for billing', description: 'not MySQL' },
  { title: 'Deploys go out after the stand-up', description: 'every day we can' },
  { title: 'Invoices are immutable once issued', description: 'credit notes instead' },
];

describe('statesValue: the contradiction lookup is skipped only where no contradiction can be', () => {
  it('holds for both records of every pair valueConflict finds', () => {
    let pairs = 0;
    for (const a of records)
      for (const b of records) {
        if (a === b || !valueConflict(a, b)) continue;
        pairs++;
        assert.ok(statesValue(a) && statesValue(b), `${a.title} / ${b.title}`);
      }
    assert.ok(pairs >= 3, `expected the fixture to hold conflicting pairs, found ${pairs}`);
  });

  it('is false for a record naming no weekday, month or frequency, which then conflicts with none', () => {
    for (const plain of records.slice(6)) {
      assert.equal(statesValue(plain), false, plain.title);
      for (const other of records) assert.equal(valueConflict(other, plain), null);
    }
    assert.equal(statesValue({ title: 'Rotate keys', description: 'quarterly' }), true);
  });
});
