// A store never silently starts over. Where the data directory records that a store existed, a
// lore.db that is 0 bytes, cut short, missing, or another file put in its place is refused with
// what to do: every command exits non-zero, `doctor` and `audit verify` fail, and the file is left
// exactly as found. Before, a 0-byte lore.db became a new, empty store and both reported OK.

import { strict as assert } from 'node:assert';
import { copyFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { fileDigest, makeSpace, ok, type CliSpace } from '../support/cli';

const DAMAGE: Record<string, (space: CliSpace, other: CliSpace) => void> = {
  'emptied to 0 bytes': (space) => truncateSync(space.paths().database, 0),
  'cut short': (space) => truncateSync(space.paths().database, Math.floor(statSync(space.paths().database).size / 2)),
  deleted: (space) => rmSync(space.paths().database),
  "replaced by another workspace's store": (space, other) =>
    copyFileSync(other.paths().database, space.paths().database),
  'replaced by a file that is not SQLite': (space) => writeFileSync(space.paths().database, 'not a database\n'),
};

describe('a store never silently starts over', function () {
  this.timeout(120_000);
  let other: CliSpace;
  before(() => {
    other = makeSpace('lore-other-');
    ok(other.lore('remember', '--type', 'decision', '--title', 'Other store', '--description', 'Elsewhere.'));
  });
  after(() => other.cleanup());

  for (const [name, damage] of Object.entries(DAMAGE)) {
    it(`refuses a lore.db ${name}; doctor and audit verify fail; nothing is written`, () => {
      const space = makeSpace('lore-startover-');
      try {
        ok(space.lore('remember', '--type', 'decision', '--title', 'Use Postgres', '--description', 'One DB.'));
        damage(space, other);
        const before = fileDigest(space.paths().database);
        for (const args of [
          ['remember', '--type', 'decision', '--title', 'Use Redis', '--description', 'Cache.'],
          ['list'],
          ['audit', 'verify'],
          ['doctor'],
        ]) {
          const result = space.lore(...args);
          const said = `${result.stderr}\n${result.stdout}`;
          assert.notEqual(result.code, 0, `lore ${args[0]} exited 0:\n${said}`);
          assert.match(said, /Lore will not start a new, empty store/, `lore ${args[0]}: ${said}`);
          assert.match(said, /restore lore\.db from a backup/);
          if (args[0] === 'doctor') assert.match(result.stdout, /^FAIL open:/m);
        }
        assert.equal(fileDigest(space.paths().database), before, 'the damaged file is left as found');
      } finally {
        space.cleanup();
      }
    });
  }

  it('a store from before the record existed is adopted, then protected', () => {
    const space = makeSpace('lore-adopt-');
    try {
      ok(space.lore('remember', '--type', 'decision', '--title', 'Use Postgres', '--description', 'One DB.'));
      const record = `${space.paths().dir}/store.json`;
      const id = JSON.parse(readFileSync(record, 'utf8')).store_id;
      rmSync(record);
      ok(space.lore('list'));
      assert.equal(JSON.parse(readFileSync(record, 'utf8')).store_id, id, 'the record is written again on open');
      truncateSync(space.paths().database, 0);
      assert.notEqual(space.lore('list').code, 0);
    } finally {
      space.cleanup();
    }
  });
});
