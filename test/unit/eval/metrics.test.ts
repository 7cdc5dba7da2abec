// The retrieval metrics `npm run eval` prints, checked on rankings worked out by hand.

import assert from 'node:assert/strict';
import { scoreRanking } from '../../../eval/retrieval';

describe('retrieval metrics (eval/retrieval.ts)', () => {
  it('scores the first relevant result, recall in the top 5 and discounted gain in the top 10', () => {
    const first = scoreRanking(['a', 'b', 'c'], ['a']);
    assert.deepEqual(first, { rank: 1, recallAt5: 1, reciprocal: 1, ndcg: 1 });

    const third = scoreRanking(['x', 'y', 'a', 'b'], ['a', 'b']);
    assert.equal(third.rank, 3);
    assert.equal(third.recallAt5, 1);
    assert.equal(third.reciprocal, 1 / 3);
    const ideal = 1 + 1 / Math.log2(3);
    assert.ok(Math.abs(third.ndcg - (1 / Math.log2(4) + 1 / Math.log2(5)) / ideal) < 1e-12);

    const late = scoreRanking(['1', '2', '3', '4', '5', '6', 'a'], ['a', 'z']);
    assert.equal(late.rank, 7);
    assert.equal(late.recallAt5, 0);

    const missing = scoreRanking(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'a'], ['a']);
    assert.deepEqual(missing, { rank: null, recallAt5: 0, reciprocal: 0, ndcg: 0 });
  });

  it('counts a path listed twice once', () => {
    assert.equal(scoreRanking(['a', 'a'], ['a']).ndcg, 1);
  });
});
