// `npm run eval` writes its tables into docs/quality.md between markers (eval/qualityDoc.ts), so the
// figures there are never copied by hand: a small results object is rendered into the marked blocks
// and every other line of the file stays as it was.

import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderQualityDoc, saveResults, type EvalResults } from '../../../eval/qualityDoc';
import { markedSection } from '../../../scripts/markedSection';

const tally = (right: number, total: number) => ({ right, path: 0, baseline: 0, total });

const RESULTS: EvalResults = {
  date: '2026-12-02T12:00:00.000Z',
  kinds: {
    repositories: 2,
    results: [
      { name: 'madr', set: 'dev', missesRead: false, all: tally(9, 10), docs: tally(4, 5), misses: [], seconds: 1 },
      {
        name: 'rust-rfcs',
        set: 'held-out',
        missesRead: false,
        all: tally(3, 4),
        docs: tally(3, 3),
        misses: [],
        seconds: 1,
      },
    ],
    perKind: { dev: { adr: { tp: 4, fp: 1, fn: 0 } }, 'held-out': { rfc: { tp: 3, fp: 0, fn: 0 } } },
  },
  drift: [
    {
      suite: 'madr',
      heldOut: false,
      cases: { right: 10, total: 10 },
      fixes: { right: 2, offered: 2 },
      falseAlarms: 0,
      known: 1,
      listed: 1,
    },
    {
      suite: 'adr-examples',
      heldOut: true,
      cases: { right: 9, total: 10 },
      fixes: null,
      falseAlarms: 0,
      known: 0,
      listed: 0,
    },
  ],
};

const DOC = [
  '# Measured quality',
  '',
  'Hand-written prose before.',
  '<!-- eval:kinds:start -->',
  'old kinds figures',
  '<!-- eval:kinds:end -->',
  'Prose between, with a | table | row |.',
  '<!-- eval:drift:start -->',
  'old drift figures',
  '<!-- eval:drift:end -->',
  'Prose after.',
  '',
].join('\n');

/** The lines outside the marked blocks. */
const outside = (text: string) => text.replace(/<!-- eval:(\w+):start -->[\s\S]*?<!-- eval:\1:end -->/g, '[$1]');

describe('eval writes its tables into docs/quality.md', () => {
  it('renders kinds per repository and per kind, and drift per suite, into the marked blocks only', () => {
    const doc = renderQualityDoc(DOC, RESULTS);
    assert.equal(outside(doc), outside(DOC));
    assert.doesNotMatch(doc, /old kinds figures|old drift figures/);
    const kinds = markedSection(doc, 'eval:kinds') ?? '';
    assert.match(kinds, /run of 2026-12-02/);
    assert.match(kinds, /over 2 labelled repositories/);
    assert.match(kinds, /^madr\s+dev\s+10\s+90\.0%.*\s5\s+80\.0%/m);
    assert.match(kinds, /^rust-rfcs\s+held-out\s+4\s+75\.0%/m);
    assert.match(kinds, /^\s+adr\s+80\.0%\s+100\.0%\s+\(4\)$/m);
    const drift = markedSection(doc, 'eval:drift') ?? '';
    assert.match(drift, /^madr\s+10\/10\s+2\/2\s+0\s+1\/1$/m);
    assert.match(drift, /held out \(labelled, not tuned on\):\nadr-examples\s+9\/10\s+-\s+0\s+-\s+below the bar$/m);
  });

  it('a run that measured only the kinds leaves the drift block as it was', () => {
    const doc = renderQualityDoc(DOC, { ...RESULTS, drift: undefined });
    assert.match(doc, /old drift figures/);
    assert.doesNotMatch(doc, /old kinds figures/);
  });

  it('a doc without the markers is refused by name, not written half', () => {
    assert.throws(() => renderQualityDoc('# no markers\n', RESULTS), /no <!-- eval:kinds:start -->/);
  });

  it('saves the results file and re-renders the doc from it (the same text a second time)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lore-quality-doc-'));
    try {
      const [results, doc] = [join(dir, 'results.json'), join(dir, 'quality.md')];
      writeFileSync(doc, DOC);
      saveResults(RESULTS, results, doc);
      const once = readFileSync(doc, 'utf8');
      assert.equal(outside(once), outside(DOC));
      assert.equal(JSON.parse(readFileSync(results, 'utf8')).drift.length, 2);
      saveResults(JSON.parse(readFileSync(results, 'utf8')) as EvalResults, results, doc);
      assert.equal(readFileSync(doc, 'utf8'), once);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
