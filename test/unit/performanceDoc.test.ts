// docs/performance.md's figures are generated: the table between its bench markers is exactly what
// bench/readme.ts renders from bench/results.json, and rendering is deterministic (the same report
// gives the same bytes, and a second write changes nothing). A figure edited by hand fails here.

import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performanceSection, writeReadmeSection } from '../../bench/readme';
import { markedSection } from '../../scripts/markedSection';

const ROOT = join(__dirname, '..', '..');
const RESULTS = join(ROOT, 'bench', 'results.json');
const DOC = join(ROOT, 'docs', 'performance.md');

describe('docs/performance.md is generated from bench/results.json', () => {
  const report = JSON.parse(readFileSync(RESULTS, 'utf8'));

  it('its bench table is what the generator renders from the checked-in results', () => {
    const inDoc = markedSection(readFileSync(DOC, 'utf8'), 'bench');
    assert.ok(inDoc !== null, 'docs/performance.md has a <!-- bench:start --> … <!-- bench:end --> section');
    assert.equal(inDoc, performanceSection(report), 'run `npx tsx bench/readme.ts` after changing results.json');
  });

  it('renders the same bytes every time, and a second write changes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lore-perfdoc-'));
    try {
      const doc = join(dir, 'performance.md');
      const results = join(dir, 'results.json');
      copyFileSync(RESULTS, results);
      writeFileSync(doc, 'before\n<!-- bench:start -->\nold\n<!-- bench:end -->\nafter\n');
      writeReadmeSection(results, doc);
      const first = readFileSync(doc, 'utf8');
      writeReadmeSection(results, doc);
      assert.equal(readFileSync(doc, 'utf8'), first);
      assert.equal(performanceSection(JSON.parse(JSON.stringify(report))), performanceSection(report));
      assert.ok(first.startsWith('before\n<!-- bench:start -->\nMeasured by `npm run bench`'));
      assert.ok(first.endsWith('<!-- bench:end -->\nafter\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('changes the table when a figure changes (it is read, not copied)', () => {
    const changed = structuredClone(report);
    const figure = changed.sections.find((s: { figures: unknown[] }) => s.figures.length).figures[0];
    figure.median = figure.median * 2 + 1;
    assert.notEqual(performanceSection(changed), performanceSection(report));
  });
});
