// Training and inference of the kind model (eval/kinds/trainer.ts, kindModel.ts) on three small
// labelled repositories written for the test (test/fixtures/kinds): the same labels give the same
// weights file byte for byte (`npm run train:kinds` is reproducible), the model learns kinds a held-out
// repository's pages are judged by, inference is a probability distribution with a runner-up, and the
// explanation names the signals in plain words. The leave-one-out report never lists a held-out miss.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { labelledRepos } from '../../../../eval/kinds/dataset';
import { FeatureCache } from '../../../../eval/kinds/featureCache';
import { leaveOneOut, renderLoo } from '../../../../eval/kinds/loo';
import { trainWithout } from '../../../../eval/kinds/foldPool';
import {
  DEFAULT_SETTINGS,
  labelledFiles,
  samplesOf,
  trainKinds,
  weightsJson,
  type Sample,
} from '../../../../eval/kinds/trainer';
import { classifyKind } from '../../../../src/engine/indexing/classify';
import { folderConventionsOf } from '../../../../src/engine/indexing/kindConventions';
import { kindFeatures } from '../../../../src/engine/indexing/kindFeatures';
import { closeRunnerUp, describeFeature, predictKind, probabilities } from '../../../../src/engine/indexing/kindModel';
import { tempDir } from '../../../support/store';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'kinds');
const dataset = () => labelledRepos([join(FIXTURES, 'labels')], { repos: join(FIXTURES, 'repos') });

describe('kind model: training and inference', function () {
  this.timeout(60_000);

  it('reads label folders with their set, and skips none of the fixture rows', () => {
    const { repos, skipped } = dataset();
    assert.deepEqual(skipped, []);
    assert.deepEqual(
      repos.map((r) => [r.name, r.set, r.rows.length]),
      [
        ['alpha', 'dev', 8],
        ['beta', 'dev', 8],
        ['gamma', 'held-out', 8],
      ],
    );
  });

  it('trains the same weights file byte for byte, through npm run train:kinds too', () => {
    const samples = dataset().repos.flatMap((r) => samplesOf(labelledFiles(r)));
    assert.equal(samples.length, 21, 'the Dockerfiles are kinds by definition, not samples');
    assert.equal(weightsJson(trainKinds(samples)), weightsJson(trainKinds([...samples])));
    const dir = tempDir();
    const run = (out: string) =>
      execFileSync(
        process.execPath,
        [
          ...['--import', 'tsx', join(__dirname, '..', '..', '..', '..', 'scripts', 'trainKinds.ts')],
          ...['--labels', join(FIXTURES, 'labels'), '--repos', join(FIXTURES, 'repos'), '--out', out],
        ],
        { encoding: 'utf8' },
      );
    run(join(dir, 'a.json'));
    run(join(dir, 'b.json'));
    const a = readFileSync(join(dir, 'a.json'), 'utf8');
    assert.equal(a, readFileSync(join(dir, 'b.json'), 'utf8'));
    assert.deepEqual(JSON.parse(a).classes, ['adr', 'runbook', 'readme', 'guide']);
  });

  it('learns kinds that hold on a repository it was not trained on', () => {
    const { repos } = dataset();
    const weights = trainKinds(repos.filter((r) => r.name !== 'gamma').flatMap((r) => samplesOf(labelledFiles(r))));
    const unseen = '# Use Redis\n\n## Status\n\nProposed\n\n## Context\n\nCaching.\n\n## Decision\n\nRedis.\n';
    assert.equal(classifyKind('records/0009-use-redis.md', unseen, undefined, { weights }).kind, 'adr');
    const steps = '# Rotate the keys\n\n1. Check the keys\n2. Restart the api\n\n```bash\nkubectl get pods\n```\n';
    assert.equal(classifyKind('runbooks/rotate.md', steps, undefined, { weights }).kind, 'runbook');
    const loo = leaveOneOut(repos);
    assert.deepEqual(
      loo.results.map((r) => [r.name, r.all.right, r.all.total]),
      [
        ['alpha', 8, 8],
        ['beta', 8, 8],
        ['gamma', 8, 8],
      ],
    );
  });

  it('gives probabilities that sum to one, the runner-up, and the signals in plain words', () => {
    const weights = {
      version: 1 as const,
      classes: ['runbook' as const, 'guide' as const],
      weights: { bias: [0, 0.5], 'sec:steps': [2, 0], 'body:commands': [1, 0] },
      trained: { repositories: 0, paths: 0, settings: {} },
    };
    const features = new Map([
      ['bias', 1],
      ['sec:steps', 1],
      ['body:commands', 0.5],
    ]);
    const p = probabilities(weights, features);
    assert.ok(Math.abs(p[0] + p[1] - 1) < 1e-12);
    const verdict = predictKind(weights, features, true);
    assert.equal(verdict.kind, 'runbook');
    assert.equal(verdict.runnerUp, 'guide');
    assert.ok(verdict.confidence > 0.8);
    assert.deepEqual(
      verdict.signals.map((s) => s.words),
      ['a “steps” section', 'commands such as kubectl, aws, helm, git'],
    );
    assert.equal(closeRunnerUp(verdict), null);
    assert.equal(closeRunnerUp({ ...verdict, runnerUpConfidence: 0.3 }), 'guide');
    assert.equal(describeFeature('pdir:runbooks'), 'its folder named “runbooks”');
  });

  it('a kind by definition says so, with full confidence', () => {
    const verdict = classifyKind('build/Dockerfile', 'FROM alpine\n', undefined, { explain: true });
    assert.deepEqual([verdict.kind, verdict.by, verdict.confidence], ['dockerfile', 'rule', 1]);
    assert.match(verdict.signals[0].words, /Dockerfile/);
  });

  it('prints misses of dev repositories with -v, never of held-out ones', () => {
    const { repos } = dataset();
    // The Dockerfile labelled config in gamma (held out) and alpha (dev): a miss in both, by definition.
    const relabelled = repos.map((r) =>
      r.name === 'beta'
        ? r
        : { ...r, rows: r.rows.map((row) => (row.path === 'Dockerfile' ? { ...row, kind: 'config' as const } : row)) },
    );
    const report = renderLoo(leaveOneOut(relabelled), { verbose: true });
    assert.match(report, /miss alpha: Dockerfile: config → dockerfile/);
    assert.doesNotMatch(report, /miss gamma/);
    assert.match(report, /held-out:/);
  });

  it('marks a held-out repository whose misses were read (source.json misses_read) beside its figure', () => {
    const { repos } = dataset();
    const clean = renderLoo(leaveOneOut(repos));
    assert.match(clean, /^gamma +held-out +8 /m);
    assert.doesNotMatch(clean, /misses read/);
    const read = renderLoo(leaveOneOut(repos.map((r) => (r.name === 'gamma' ? { ...r, missesRead: true } : r))));
    assert.match(read, /^gamma +held-out\* +8 /m);
    assert.match(read, /\* misses read while changing the features \(gamma\): not held out/);
    assert.match(read, /^pooled, never read +held-out +0 /m);
  });
  it('reads features from its cache as computed afresh, and an edited file afresh (featureCache.ts)', () => {
    const file = join(tempDir(), 'cache', 'alpha.json');
    const path = 'docs/runbooks/restore.md';
    const conventions = folderConventionsOf([path, 'docs/runbooks/other.md']);
    const text = '# Restore\n\n1. Stop the api\n2. Run the restore\n\n```bash\npsql -f dump.sql\n```\n';
    const first = new FeatureCache(file);
    assert.deepEqual([...first.features({ path, text, conventions })], [...kindFeatures({ path, text, conventions })]);
    first.save();
    const second = new FeatureCache(file);
    const cached = second.features({ path, text, conventions });
    assert.deepEqual([second.hits, second.misses], [1, 0]);
    assert.deepEqual([...cached], [...kindFeatures({ path, text, conventions })]);
    const edited = `${text}\n## Timeline\n\n- 10:02 paged\n`;
    assert.deepEqual(
      [...second.features({ path, text: edited, conventions })],
      [...kindFeatures({ path, text: edited, conventions })],
    );
    assert.deepEqual([second.hits, second.misses], [1, 1]);
    const moved = second.features({ path, text, conventions: folderConventionsOf([path]) });
    assert.deepEqual([...moved], [...kindFeatures({ path, text, conventions: folderConventionsOf([path]) })]);
    assert.equal(second.misses, 2, "a change in the file's folder is a change in its features");
  });
  it('trains the leave-one-out models in worker threads to the same weights as in one thread', async () => {
    const { repos } = dataset();
    const byRepo = repos.map((r): [string, Sample[]] => [r.name, samplesOf(labelledFiles(r))]);
    const jobs = repos.map((r) => [r.name]);
    const threaded = await trainWithout(byRepo, jobs, DEFAULT_SETTINGS, 2);
    const inline = await trainWithout(byRepo, jobs, DEFAULT_SETTINGS, 1);
    assert.deepEqual(threaded.map(weightsJson), inline.map(weightsJson));
    const withoutGamma = byRepo.filter(([name]) => name !== 'gamma').flatMap(([, samples]) => samples);
    assert.equal(weightsJson(threaded[2]), weightsJson(trainKinds(withoutGamma)), 'the fold without gamma');
    assert.deepEqual(
      threaded.map((w) => w.trained.paths),
      [14, 14, 14],
    );
  });
});
