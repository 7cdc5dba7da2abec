// Writes the bench table of docs/performance.md from bench/results.json, between <!-- bench:start -->
// and <!-- bench:end -->: the only way those figures change. A full `npm run bench` calls
// it; `npx tsx bench/readme.ts [results.json]` re-renders without measuring again.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeTarget, formatNumber, formatSizes, type Section } from './result';
import { withMarkedSection } from '../scripts/markedSection';

interface Report {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  loadAverage: { before: number; after: number };
  seconds: number;
  sections: Section[];
}

const root = join(__dirname, '..');

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function performanceSection(report: Report): string {
  if (!Array.isArray(report.sections))
    throw new Error('results.json is not a report of bench/run.ts (no sections): run npm run bench');
  const rows: string[] = [];
  for (const s of report.sections) {
    for (const f of s.figures) {
      rows.push(
        `| ${cell(s.title)}: ${cell(f.label)} | ${formatSizes(f.sizes)} | ` +
          `${formatNumber(f.median)} ` +
          `${f.unit}${f.p95 === undefined ? '' : ` (p95 ${formatNumber(f.p95)})`} ` +
          `| ` +
          `${f.baseline ? `${formatNumber(f.baseline.median)} ${f.unit} (${cell(f.baseline.label)})` : ''} ` +
          `| ${f.ratio === undefined ? '' : `×${f.ratio.toFixed(2)}`} | ` +
          `${describeTarget(f)}${f.met === null ? '' : f.met ? ' ✓' : ' ✗ not met'} ` +
          `|`,
      );
    }
  }
  const notes = report.sections.flatMap((s) => s.notes.map((n) => `- ${s.title}: ${n}`));
  return [
    `Measured by \`npm run bench\` on ${report.date.slice(0, 10)} ` +
      `(Node ${report.node}, ${report.cpus} × ${report.cpuModel}, load ` +
      `average ` +
      `${report.loadAverage.before.toFixed(1)}→${report.loadAverage.after.toFixed(1)}, ` +
      `${Math.round(report.seconds)} s). Each figure is the median of ` +
      `several runs; its baseline is measured in the same run (what the ` +
      `machine does without Lore's part) and "×" is the ratio to it. ` +
      `Method: [bench/README.md](../bench/README.md); every figure: ` +
      `\`bench/results.json\`.`,
    '',
    '| benchmark | size | median | baseline | × baseline | target |',
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...rows,
    ...(notes.length ? ['', ...notes] : []),
  ].join('\n');
}

export function writeReadmeSection(
  resultsFile = join(root, 'bench', 'results.json'),
  readme = join(root, 'docs', 'performance.md'),
): void {
  if (!existsSync(resultsFile)) throw new Error(`${resultsFile} does not exist: run npm run bench`);
  const section = performanceSection(JSON.parse(readFileSync(resultsFile, 'utf8')) as Report);
  writeFileSync(readme, withMarkedSection(readFileSync(readme, 'utf8'), 'bench', section, readme));
}

if (require.main === module) writeReadmeSection(process.argv[2]);
