// Writes eval's tables into docs/quality.md from eval/results.json, between marker pairs
// (<!-- eval:kinds:start --> … <!-- eval:kinds:end -->, <!-- eval:drift:start --> … <!-- eval:drift:end -->):
// the only way those figures change, as bench/readme.ts does for docs/performance.md. A full
// `npm run eval` writes results.json and calls it; `npx tsx eval/qualityDoc.ts [results.json]`
// re-renders without measuring again. A run that measured only one part leaves the other block alone.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocKind } from '../src/engine/model/kinds';
import type { LabelSet } from './kinds/dataset';
import { renderLoo, type KindCounts, type RepoResult } from './kinds/loo';
import { withMarkedSection } from '../scripts/markedSection';

/** One suite's drift figures, as the run's closing table shows them. */
export interface DriftRow {
  suite: string;
  heldOut: boolean;
  cases: { right: number; total: number } | null;
  fixes: { right: number; offered: number } | null;
  falseAlarms: number | null;
  /** broken.tsv rows the scan reports, of those listed. */
  known: number;
  listed: number;
}

export interface EvalResults {
  /** ISO time of the run. */
  date: string;
  /** Leave one repository out: each repository's tallies and the per-kind counts per label set. */
  kinds?: {
    repositories: number;
    results: RepoResult[];
    perKind: Partial<Record<LabelSet, Partial<Record<DocKind, KindCounts>>>>;
  };
  drift?: DriftRow[];
}

const root = join(__dirname, '..');
export const RESULTS_FILE = join(root, 'eval', 'results.json');
export const QUALITY_DOC = join(root, 'docs', 'quality.md');

/** Whether a suite's row is below the bar: a false alarm, a missed case or a wrong fix. */
export function belowTheBar(r: DriftRow): boolean {
  return (
    (r.falseAlarms ?? 0) > 0 ||
    (r.cases !== null && r.cases.right < r.cases.total) ||
    (r.fixes !== null && r.fixes.right < r.fixes.offered)
  );
}

/** The drift table per suite, as `npm run eval` prints it last. */
export function renderDriftTable(rows: readonly DriftRow[]): string {
  const out = ['suite                    drift cases  fixes right  false alarms  already broken'];
  for (const heldOut of [false, true]) {
    const block = rows.filter((r) => r.heldOut === heldOut);
    if (!block.length) continue;
    if (heldOut) out.push('held out (labelled, not tuned on):');
    for (const r of block) {
      const cases = r.cases ? `${r.cases.right}/${r.cases.total}` : '-';
      out.push(
        `${r.suite.padEnd(24)} ${cases.padStart(11)}  ` +
          `${(r.fixes ? `${r.fixes.right}/${r.fixes.offered}` : '-').padStart(11)}  ` +
          `${String(r.falseAlarms ?? '-').padStart(12)}  ` +
          `${(r.listed ? `${r.known}/${r.listed}` : '-').padStart(14)}${belowTheBar(r) ? '  below the bar' : ''}`,
      );
    }
  }
  return out.join('\n');
}

/** The kinds tables (per repository, pooled, per kind), as `npm run eval -- --only-kinds` prints them. */
export function renderKindsTables(kinds: NonNullable<EvalResults['kinds']>): string {
  const perKind = new Map<LabelSet, Map<DocKind, KindCounts>>(
    Object.entries(kinds.perKind).map(([set, counts]) => [
      set as LabelSet,
      new Map(Object.entries(counts ?? {}) as Array<[DocKind, KindCounts]>),
    ]),
  );
  const header = `kinds: leave one repository out over ${kinds.repositories} labelled repositories`;
  return [header, renderLoo({ results: kinds.results, kinds: perKind })].join('\n');
}

function block(run: string, table: string): string {
  return [
    `Written by \`npm run eval\` from \`eval/results.json\` (run of ${run}); do not edit by hand.`,
    '',
    '```',
    table,
    '```',
  ].join('\n');
}

/** `doc` with each block the results hold re-rendered; the rest of the text is left as it is. */
export function renderQualityDoc(doc: string, results: EvalResults): string {
  const run = results.date.slice(0, 10);
  const parts: Array<[string, string | undefined]> = [
    ['kinds', results.kinds && renderKindsTables(results.kinds)],
    ['drift', results.drift && renderDriftTable(results.drift)],
  ];
  let text = doc;
  for (const [marker, table] of parts) {
    if (table === undefined) continue;
    text = withMarkedSection(text, `eval:${marker}`, block(run, table), 'the quality doc');
  }
  return text;
}

export function writeQualityDoc(resultsFile = RESULTS_FILE, doc = QUALITY_DOC): void {
  if (!existsSync(resultsFile)) throw new Error(`${resultsFile} does not exist: run npm run eval`);
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as EvalResults;
  writeFileSync(doc, renderQualityDoc(readFileSync(doc, 'utf8'), results));
}

/** Saves a run's results (misses left out: they are for -v, not the doc) and writes the doc's tables. */
export function saveResults(results: EvalResults, resultsFile = RESULTS_FILE, doc = QUALITY_DOC): void {
  const kinds = results.kinds && {
    ...results.kinds,
    results: results.kinds.results.map((r) => ({ ...r, misses: [] })),
  };
  writeFileSync(resultsFile, JSON.stringify({ ...results, ...(kinds ? { kinds } : {}) }, null, 2) + '\n');
  writeQualityDoc(resultsFile, doc);
}

if (require.main === module) writeQualityDoc(process.argv[2]);
