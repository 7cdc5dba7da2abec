// A copy that was there all along is not where a target went (issue 17, point 4): a page not yet
// translated holds the same text in every locale, so a full scan after a delete must not "find" the
// deleted page in another locale, and after a rename it must not doubt the place a check saw it go.

import { strict as assert } from 'node:assert';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const page = '# MySQL database\n\nWe choose MySQL for the orders service.\n';

function locales(): DriftSpace {
  return driftSpace({
    'locales/en/examples/index.md': '# Examples\n\n* [MySQL](mysql-database/index.md)\n',
    'locales/en/examples/mysql-database/index.md': page,
    'locales/tr/examples/mysql-database/index.md': page,
  });
}

describe('drift: identical copies in other folders', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  it('a deleted page stays gone on the next full scan, not moved to its untranslated copy', () => {
    s = locales();
    s.engine.driftScan();
    s.remove('locales/en/examples/mysql-database/index.md');
    // The engine's clock is the wall clock in use; the test's starts in the past.
    s.clock.set(new Date(Date.now() + 1000).toISOString());
    const checked = s.engine.driftCheck(['locales/en/examples/mysql-database/index.md']);
    assert.equal(checked.find((f) => f.reference.raw === 'mysql-database/index.md')?.state, 'gone');
    s.engine.driftScan();
    const [ref] = s.refs('locales/en/examples/index.md', 'mysql-database/index.md');
    assert.equal(ref.state, 'gone', JSON.stringify(ref.evidence));
  });

  it('a renamed page stays where the check saw it go, though a copy elsewhere holds the same text', () => {
    s = locales();
    s.engine.driftScan();
    s.move('locales/en/examples/mysql-database/index.md', 'locales/en/examples/mysql-database/renamed-index.md');
    const moved = [
      'locales/en/examples/mysql-database/index.md',
      'locales/en/examples/mysql-database/renamed-index.md',
    ];
    assert.equal(
      s.engine.driftCheck(moved).find((f) => f.reference.raw === 'mysql-database/index.md')?.state,
      'relocated',
    );
    s.engine.driftScan();
    const [ref] = s.refs('locales/en/examples/index.md', 'mysql-database/index.md');
    assert.equal(ref.state, 'relocated', JSON.stringify(ref.evidence));
    assert.equal(ref.evidence.new_path, 'locales/en/examples/mysql-database/renamed-index.md');
  });

  it('a page deleted and then written again elsewhere is found there by the next full scan', () => {
    s = locales();
    s.engine.driftScan();
    s.remove('locales/en/examples/mysql-database/index.md');
    s.clock.set(new Date(Date.now() - 60_000).toISOString());
    s.engine.driftCheck(['locales/en/examples/mysql-database/index.md']);
    s.remove('locales/tr/examples/mysql-database/index.md');
    s.write('locales/en/decisions/mysql.md', page);
    s.engine.driftScan();
    const [ref] = s.refs('locales/en/examples/index.md', 'mysql-database/index.md');
    assert.equal(ref.state, 'relocated', JSON.stringify(ref.evidence));
    assert.equal(ref.evidence.new_path, 'locales/en/decisions/mysql.md');
  });
});
