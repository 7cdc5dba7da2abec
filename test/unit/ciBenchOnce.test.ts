// The bench runs once in CI: at toy sizes inside `npm test` (test/e2e/bench.test.ts), never a second
// time as its own step of .ci/run, and `npm test` itself does not start `npm run bench`.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
/** The commands a shell script runs (comments left out). */
const commands = (script: string) =>
  script
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);

describe('CI runs the bench once', () => {
  const ci = commands(readFileSync(join(ROOT, '.ci/run'), 'utf8'));
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

  it('.ci/run runs npm test once and no bench step of its own', () => {
    assert.equal(ci.filter((c) => /^(timed )?npm test\b/.test(c)).length, 1);
    assert.deepEqual(
      ci.filter((c) => /\bbench\b/.test(c)),
      [],
    );
  });

  it('npm test runs the quick bench inside mocha only (test/e2e/bench.test.ts), not npm run bench', () => {
    assert.doesNotMatch(scripts.test, /\bbench\b/);
    assert.match(readFileSync(join(ROOT, 'test/e2e/bench.test.ts'), 'utf8'), /parseArgs\(\['--quick'/);
  });
});
