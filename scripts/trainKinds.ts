// `npm run train:kinds [-- --labels DIR:DIR] [--out FILE] [--siblings-out FILE]`: trains the kind model
// on every labelled repository with a checkout (eval/kinds/dataset.ts: LORE_KIND_LABELS,
// LORE_EVAL_REPOS) and writes the weights files the classifier ships with: the first reading
// (src/engine/indexing/kindWeights.json) and the second pass that weighs a page's siblings
// (kindSiblingWeights.json, eval/kinds/secondStage.ts). The same labels and checkouts give the same
// files, byte for byte.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { labelDirs, labelledRepos } from '../eval/kinds/dataset';
import { CrossFit, neighbourhoodOf } from '../eval/kinds/secondStage';
import { labelledFiles, samplesOf, trainKinds, weightsJson } from '../eval/kinds/trainer';

function main(): void {
  const { values } = parseArgs({
    options: {
      labels: { type: 'string' },
      out: { type: 'string' },
      'siblings-out': { type: 'string' },
      repos: { type: 'string' },
    },
  });
  const dirs = values.labels ? values.labels.split(':').filter(Boolean) : labelDirs();
  const { repos, skipped } = labelledRepos(dirs, { repos: values.repos });
  for (const line of skipped) console.error(`skipped ${line}`);
  if (!repos.length) {
    console.error(`no labelled repository with a checkout in ${dirs.join(', ')}: nothing written`);
    process.exitCode = 1;
    return;
  }
  const files = repos.map((r) => labelledFiles(r));
  const samples = files.flatMap((f) => samplesOf(f));
  const weights = trainKinds(samples);
  const out = values.out ?? join(__dirname, '..', 'src', 'engine', 'indexing', 'kindWeights.json');
  writeFileSync(out, weightsJson(weights));
  console.log(
    `${out}: ${Object.keys(weights.weights).length} features × ${weights.classes.length} kinds, ` +
      `from ${samples.length} pages of ${repos.length} repositories (${repos.map((r) => r.name).join(', ')})`,
  );
  // The second pass's model (kindSiblings.ts), from first readings cross-fitted by repository.
  const second = new CrossFit(repos.map((r, i) => neighbourhoodOf(r, files[i]))).secondStage();
  const secondOut = values['siblings-out'] ?? join(dirname(out), 'kindSiblingWeights.json');
  writeFileSync(secondOut, weightsJson(second));
  console.log(
    `${secondOut}: ${Object.keys(second.weights).length} features × ${second.classes.length} kinds, ` +
      `from ${second.trained.paths} pages' first readings`,
  );
}

main();
