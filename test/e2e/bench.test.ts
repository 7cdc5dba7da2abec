// The bench (bench/run.ts) at toy sizes: it runs, measures every figure, and writes readable
// results. Timings are not asserted (they depend on the machine); shape and sanity are.

import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, runBench, sanityProblems, table, type BenchResults } from '../../bench/run';
import { Corpus } from '../../bench/corpus';
import { tempDir } from '../support/store';

describe('bench', () => {
  it('generates the same memories and queries from the same seed, and valid ones', () => {
    const a = new Corpus(7);
    const b = new Corpus(7);
    const first = Array.from({ length: 50 }, (_, i) => a.memory(i));
    assert.deepEqual(first, Array.from({ length: 50 }, (_, i) => b.memory(i)));
    assert.deepEqual([a.query(), a.query()], [b.query(), b.query()]);
    assert.ok(new Set(first.map((m) => m.type)).size >= 5, 'a mix of record types');
    for (let i = 0; i < 200; i++) {
      const words = a.query().split(' ');
      assert.ok(words.length >= 2 && words.length <= 5, `queries have 2–5 words: ${words.join(' ')}`);
    }
  });

  it('--quick runs end to end and reports every figure', async function () {
    this.timeout(60_000);
    const dir = tempDir('lore-bench-test-');
    try {
      const options = { ...parseArgs(['--quick', '--sizes', '100,300', '--queries', '10', '--saves', '5', '--dir', dir]), out: join(dir, 'results.json') };
      assert.equal(options.quick, true);
      assert.equal(options.reps, 1);
      const results: BenchResults = await runBench(options);
      assert.deepEqual(sanityProblems(results), []);
      assert.deepEqual(results.sizes.map((s) => s.size), [100, 300]);
      assert.equal(results.node, process.version);
      assert.ok(results.cpus >= 1);
      assert.equal(results.sizes[0].ratios.recallP50VsBaseline, 1);
      assert.equal(results.verdict.steps.length, 1);
      assert.equal(results.verdict.recallP50At10kMs, null);
      assert.match(table(results), /recall p50[\s\S]*\n100 [\s\S]*\n300 /);
      assert.deepEqual(readdirSync(dir), [], 'the bench removes its store when done');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects nonsense options', () => {
    assert.throws(() => parseArgs(['--sizes', '1000,100']), /increasing/);
    assert.throws(() => parseArgs(['--reps', '0']), /positive whole number/);
  });
});
