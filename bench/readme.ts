// Writes the README's performance section from bench/results.json (and bench/embed-results.json
// when present), between <!-- bench:start --> and <!-- bench:end -->. Run by `npm run bench`.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Stat { p50: number; p95: number }
interface SizeResult {
  size: number;
  recall: Stat;
  fts: Stat;
  save: Stat & { perSecond: number };
  matches: { p50: number };
  ratios: { recallP50VsBaseline: number; recallVsFts: number };
}
interface Results { date: string; node: string; cpus: number; cpuModel: string; loadAverage: { before: number; after: number }; options: { reps: number; queries: number }; sizes: SizeResult[] }

const root = join(__dirname, '..');
const ms = (n: number) => `${n.toFixed(1)} ms`;

export function performanceSection(results: Results): string {
  const rows = results.sizes.map(
    (s) => `| ${s.size.toLocaleString('en')} | ${ms(s.recall.p50)} | ${ms(s.recall.p95)} | ×${s.ratios.recallP50VsBaseline.toFixed(1)} | ${ms(s.fts.p50)} | ${s.matches.p50.toLocaleString('en')} | ${s.save.perSecond.toFixed(0)}/s | ${ms(s.save.p95)} |`,
  );
  const first = results.sizes[0];
  const last = results.sizes[results.sizes.length - 1];
  const exponent = Math.log(last.recall.p50 / first.recall.p50) / Math.log(last.size / first.size);
  return [
    `Measured by \`npm run bench\` on ${results.date.slice(0, 10)} (Node ${results.node}, ${results.cpus} × ${results.cpuModel}, load average ${results.loadAverage.before.toFixed(1)}→${results.loadAverage.after.toFixed(1)}); medians of ${results.options.reps} runs over ${results.options.queries} queries. Lexical recall (no model); "×" is against the smallest store of the same run; "FTS5 alone" is the bare full-text query recall builds on. Method and findings: [bench/README.md](bench/README.md).`,
    '',
    '| memories | recall p50 | recall p95 | × smallest | FTS5 alone p50 | matches per query | saves | save p95 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Recall cost grows as size^${exponent.toFixed(2)} from ${first.size.toLocaleString('en')} to ${last.size.toLocaleString('en')} memories: it follows the number of memories a query's words match.`,
  ].join('\n');
}

export function writeReadmeSection(resultsFile = join(root, 'bench', 'results.json'), readme = join(root, 'README.md')): void {
  if (!existsSync(resultsFile)) return;
  const section = performanceSection(JSON.parse(readFileSync(resultsFile, 'utf8')) as Results);
  const text = readFileSync(readme, 'utf8');
  const updated = text.replace(/<!-- bench:start -->[\s\S]*?<!-- bench:end -->/, `<!-- bench:start -->\n${section}\n<!-- bench:end -->`);
  writeFileSync(readme, updated);
}

if (require.main === module) writeReadmeSection(process.argv[2]);
