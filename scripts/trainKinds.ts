// `npm run train:kinds [-- --labels DIR:DIR] [--out FILE]`: trains the kind model on every labelled
// repository with a checkout (eval/kinds/dataset.ts: LORE_KIND_LABELS, LORE_EVAL_REPOS) and writes the
// one weights file the classifier ships with (src/engine/indexing/kindWeights.json). The same labels
// and checkouts give the same file, byte for byte.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { labelDirs, labelledRepos } from '../eval/kinds/dataset';
import { labelledFiles, samplesOf, trainKinds, weightsJson } from '../eval/kinds/trainer';

function main(): void {
  const { values } = parseArgs({
    options: { labels: { type: 'string' }, out: { type: 'string' }, repos: { type: 'string' } },
  });
  const dirs = values.labels ? values.labels.split(':').filter(Boolean) : labelDirs();
  const { repos, skipped } = labelledRepos(dirs, { repos: values.repos });
  for (const line of skipped) console.error(`skipped ${line}`);
  if (!repos.length) {
    console.error(`no labelled repository with a checkout in ${dirs.join(', ')}: nothing written`);
    process.exitCode = 1;
    return;
  }
  const samples = repos.flatMap((r) => samplesOf(labelledFiles(r)));
  const weights = trainKinds(samples);
  const out = values.out ?? join(__dirname, '..', 'src', 'engine', 'indexing', 'kindWeights.json');
  writeFileSync(out, weightsJson(weights));
  console.log(
    `${out}: ${Object.keys(weights.weights).length} features × ${weights.classes.length} kinds, ` +
      `from ${samples.length} pages of ${repos.length} repositories (${repos.map((r) => r.name).join(', ')})`,
  );
}

main();
