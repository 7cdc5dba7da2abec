// The bench (bench/run.ts) in its --quick mode: every benchmark runs end to end at toy sizes
// against the built server and reports well-formed figures; the report renders as the table of
// docs/performance.md. Timings are never asserted (they depend on the machine); shape is.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Corpus } from '../../bench/corpus';
import { EDITED_FILE, docsCorpus } from '../../bench/docsCorpus';
import { writeReadmeSection } from '../../bench/readme';
import { figure } from '../../bench/result';
import { BENCHES, RESULTS_FILE, parseArgs, runAll, table, type Report } from '../../bench/run';
import { tempDir } from '../support/store';

describe('bench', () => {
  it('generates the same memories and queries from the same seed, and valid ones', () => {
    const a = new Corpus(7);
    const b = new Corpus(7);
    const first = Array.from({ length: 50 }, (_, i) => a.memory(i));
    assert.deepEqual(
      first,
      Array.from({ length: 50 }, (_, i) => b.memory(i)),
    );
    assert.deepEqual([a.query(), a.query()], [b.query(), b.query()]);
    assert.ok(new Set(first.map((m) => m.type)).size >= 5, 'a mix of record types');
    for (let i = 0; i < 200; i++) {
      const words = a.query().split(' ');
      assert.ok(words.length >= 2 && words.length <= 5, `queries have 2–5 words: ${words.join(' ')}`);
    }
  });

  it('generates the same docs + infra corpus from the same seed, with files to skip and a 20 KB markdown file', () => {
    const a = docsCorpus(300, 5);
    assert.deepEqual(a, docsCorpus(300, 5));
    assert.notDeepEqual(
      a.map((f) => f.text),
      docsCorpus(300, 6).map((f) => f.text),
    );
    assert.equal(a.filter((f) => f.indexed).length, 300);
    assert.ok(
      a.some((f) => !f.indexed && f.path.startsWith('node_modules/')),
      'dependencies to skip',
    );
    for (const ending of ['.md', '.tf', '.yaml', 'Dockerfile', '.yml'])
      assert.ok(
        a.some((f) => f.indexed && f.path.endsWith(ending)),
        `has ${ending} files`,
      );
    const edited = a.find((f) => f.path === EDITED_FILE)!;
    assert.ok(
      Buffer.byteLength(edited.text) >= 20 * 1024 && Buffer.byteLength(edited.text) < 24 * 1024,
      'the edited file is about 20 KB',
    );
  });

  it('--quick runs every benchmark end to end and reports well-formed figures', async function () {
    this.timeout(300_000);
    const dir = tempDir('lore-bench-test-');
    try {
      const options = parseArgs(['--quick', '--dir', dir]);
      assert.equal(options.official, false);
      assert.ok(options.out.startsWith(tmpdir()), 'quick results go to the temp folder, not the repository');
      assert.deepEqual(options.only, [...BENCHES]);
      const report: Report = await runAll(options);
      assert.deepEqual(report.problems, []);
      assert.equal(report.quick, true);
      assert.equal(report.node, process.version);
      const benches = report.sections.map((s) => s.bench);
      assert.deepEqual(benches, [
        'real',
        'store',
        'recall-memory',
        'index',
        'recall-docs',
        'embed',
        'owner',
        'owner-load',
        'transport',
        'drift',
        'adversarial',
        'hooks',
        'cold',
        'vectors',
        'kinds',
        'postgres',
      ]);
      const names = report.sections.flatMap((s) => s.figures.map((f) => f.name));
      for (const name of [
        'store.saves',
        'recall.memory',
        'index.files_per_second',
        'index.reindex_one_file',
        'recall.docs',
        'embed.chunks_per_second',
        'embed.overhead',
        'owner.loop_delay.p99',
        'owner.peak_rss',
        'owner_load.loop_delay.p99',
        'owner_load.recall',
        'owner_load.fresh_after_save',
        'transport.stdio',
        'transport.http',
        'adversarial.redact.a_a_a',
        'adversarial.refuse_body',
        'hooks.session_start',
        'hooks.pre_compact',
        'hooks.slash_memories',
        'index.cost_over_walk',
        'index.reindex_unchanged',
        'cold.recall',
        'cold.recall.over_node',
        'cold.session_start.over_node',
        'cold.help',
        'vectors.recall_p50',
        'vectors.search_p50',
        'vectors.cold_recall_rss',
        'kinds.all',
        'kinds.prose',
        // The shared store's figures where PostgreSQL is installed; else its section says it was skipped.
        ...(report.sections.find((s) => s.bench === 'postgres')?.notes[0]?.startsWith('skipped:')
          ? []
          : ['postgres.saves', 'postgres.recall']),
      ]) {
        assert.ok(names.includes(name), `the report has ${name}`);
      }
      for (const s of report.sections) {
        assert.ok(s.title && s.seconds >= 0);
        for (const f of s.figures) {
          assert.ok(f.unit && f.label, `${f.name} has a unit and a label`);
          assert.ok(f.runs.length >= 1 && f.runs.every(Number.isFinite), `${f.name} has runs`);
          assert.ok(Number.isFinite(f.median));
          if (f.baseline)
            assert.ok(
              Number.isFinite(f.ratio!) && Math.abs(f.ratio! - f.median / f.baseline.median) < 1e-9,
              `${f.name}: ratio is median / baseline`,
            );
          assert.equal(
            f.met === null,
            f.target === undefined,
            `${f.name}: met is judged exactly when there is a target`,
          );
        }
      }
      const drift = report.sections.find((s) => s.bench === 'drift')!;
      assert.ok(
        drift.figures.length > 0 || drift.notes.some((n) => n.startsWith('SLOT')),
        'drift reports figures or says its slot is empty',
      );
      const printed = table(report);
      assert.match(printed, /index: full index[^\n]*files\/s/);
      assert.match(printed, /transport: MCP recall round trip, stdio/);
      assert.deepEqual(readdirSync(dir), [], 'the bench removes its stores and corpora when done');

      // The performance table renders from the report and replaces only what is between the markers.
      const readme = join(dir, 'README.md');
      const results = join(dir, 'results.json');
      writeFileSync(readme, 'before\n<!-- bench:start -->\nold\n<!-- bench:end -->\nafter\n');
      writeFileSync(results, JSON.stringify(report));
      writeReadmeSection(results, readme);
      const text = readFileSync(readme, 'utf8');
      assert.match(text, /^before\n<!-- bench:start -->\nMeasured by `npm run bench`/);
      assert.match(text, /\| Index: workspace documents \(no model\): full index/);
      assert.match(text, /<!-- bench:end -->\nafter\n$/);
      assert.doesNotMatch(text, /\nold\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes bench/results.json and the table in docs/performance.md only on a full run', () => {
    const performance = readFileSync(resolve(__dirname, '..', '..', 'docs', 'performance.md'), 'utf8');
    assert.match(performance, /<!-- bench:start -->[\s\S]*<!-- bench:end -->/, 'the table a full run rewrites');
    const full = parseArgs([]);
    assert.equal(full.official, true);
    assert.equal(full.out, RESULTS_FILE);
    assert.equal(RESULTS_FILE, resolve(__dirname, '..', '..', 'bench', 'results.json'));
    assert.equal(parseArgs(['--only', 'index']).official, false);
    assert.equal(parseArgs(['--out', join(tmpdir(), 'x.json')]).official, false);
  });

  it('rejects nonsense options', () => {
    assert.throws(() => parseArgs(['--only', 'nothing']), /--only takes/);
    assert.throws(() => parseArgs(['--corpus', '/no/such/folder']), /does not exist/);
    assert.throws(() => parseArgs(['--fast']), /unknown option --fast/);
    assert.throws(() => parseArgs(['--out']), /needs a value/);
  });

  it('judges targets on the median, the p95 or the ratio', () => {
    const f = figure({
      name: 'x',
      label: 'x',
      unit: 'ms',
      runs: [3, 1, 2],
      p95Runs: [9, 9, 9],
      baseline: { label: 'b', runs: [1, 1, 1] },
      target: { on: 'ratio', op: '<=', limit: 1.5 },
    });
    assert.equal(f.median, 2);
    assert.equal(f.ratio, 2);
    assert.equal(f.met, false);
    assert.equal(
      figure({ name: 'x', label: 'x', unit: 'ms', runs: [2], target: { on: 'median', op: '<=', limit: 2 } }).met,
      true,
    );
    assert.equal(
      figure({ name: 'x', label: 'x', unit: 'ms', runs: [2], p95Runs: [5], target: { on: 'p95', op: '<=', limit: 4 } })
        .met,
      false,
    );
    assert.equal(figure({ name: 'x', label: 'x', unit: 'files/s', runs: [400] }).met, null);
  });
});
