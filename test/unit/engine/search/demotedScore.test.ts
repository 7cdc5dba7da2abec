// A record moved below the newer one that contradicts it shows a score no higher than that record's:
// every door prints the list in order with its scores, so a demoted hit must never read as the
// better match ("0.439" printed under "0.266").

import assert from 'node:assert/strict';
import { memory, openTestStore, person, type TestStore } from '../../../support/store';

describe('recall: a demoted hit shows a score that follows its place', function () {
  this.timeout(60_000);
  let s: TestStore;
  beforeEach(() => {
    s = openTestStore();
  });
  afterEach(() => s.cleanup());

  it('never prints a higher score below a lower one after a contradiction moves it', async () => {
    s.engine.remember(
      person,
      memory({
        key: 'fact/deploy-day',
        type: 'fact',
        title: 'Deploys go out on Tuesdays',
        description: 'Production deploys happen on Tuesday afternoons, the day of the week we release',
        body: '',
      }),
    );
    s.engine.remember(
      person,
      memory({
        key: 'fact/deploy-window',
        type: 'fact',
        title: 'Production deploys happen in a two hour window',
        description: 'Deploys to production take about two hours, and happen with the release captain',
        body: '',
      }),
    );
    s.clock.advanceDays(30);
    s.engine.remember(
      person,
      memory({
        key: 'fact/deploy-day-now',
        type: 'fact',
        title: 'We deploy on Thursdays now',
        description: 'Releases moved to Thursday mornings',
        body: '',
      }),
    );
    const hits = (await s.engine.recall({ query: 'which day do production deploys happen' })).results;
    const keys = hits.map((h) => h.key);
    assert.equal(hits.find((h) => h.key === 'fact/deploy-day')?.verification?.state, 'contradicted');
    assert.ok(keys.indexOf('fact/deploy-day-now') < keys.indexOf('fact/deploy-day'), keys.join(', '));
    for (let i = 1; i < hits.length; i++)
      assert.ok(hits[i].score.total <= hits[i - 1].score.total, `${keys[i]} scores above ${keys[i - 1]}`);
  });
});
