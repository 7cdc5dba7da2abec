// The light stemmer recall scores with (src/engine/text/words.ts, settled by bm25.ts's
// matchStem): each suffix rule in its order, the three-letter floor, the final "e", and words that
// settle only after several passes. The table is what recall has always produced for these words.

import { strict as assert } from 'node:assert';
import { matchStem } from '../../../../src/engine/search/bm25';
import { stem } from '../../../../src/engine/text/words';

describe('stem and matchStem', () => {
  it('applies the first suffix rule that leaves three letters, then drops a final e', () => {
    const table: Array<[string, string]> = [
      ['policies', 'policy'],
      ['classes', 'class'],
      ['class', 'class'],
      ['migrations', 'migration'],
      ['restarting', 'restart'],
      ['deployed', 'deploy'],
      ['migration', 'migrat'],
      ['quickly', 'quick'],
      ['cache', 'cach'],
      ['lies', 'li'],
      ['ties', 'ti'],
      ['bus', 'bus'],
      ['sing', 'sing'],
      ['red', 'red'],
      ['bled', 'bled'],
      ['ring', 'ring'],
      ['being', 'being'],
      ['nation', 'nat'],
      ['fly', 'fly'],
      ['apply', 'app'],
      ['stress', 'stress'],
      ['cases', 'cas'],
      ['ss', 'ss'],
      ['abcs', 'abc'],
      ['rolled', 'roll'],
    ];
    assert.deepEqual(
      table.map(([word]) => [word, stem(word)]),
      table,
    );
  });

  it('settles a word over several passes, the same each time it is asked', () => {
    const table: Array<[string, string]> = [
      ['migrations', 'migrat'],
      ['migrating', 'migrat'],
      ['migration', 'migrat'],
      ['rollbacks', 'rollback'],
      ['certificates', 'certificat'],
      ['policies', 'policy'],
      ['restarted', 'restart'],
    ];
    for (let pass = 0; pass < 2; pass++)
      assert.deepEqual(
        table.map(([word]) => [word, matchStem(word)]),
        table,
      );
  });
});
