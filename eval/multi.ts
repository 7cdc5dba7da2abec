// `npm run eval [-- --only a,b] [--no-drift] [--no-cases] [--only-kinds] [-v]`: first the kind
// classifier, leave one repository out over the blind labels (eval/kinds/loo.ts; `--kind-labels
// DIR:DIR`, `--legacy-kinds` adds the old non-blind classes.tsv for development, `--baseline MODULE`
// scores another classifier beside it, `--kind-set dev` scores the dev repositories only and
// `--kind-settings JSON` trains with other settings, `--no-siblings` leaves out the second
// pass); then every drift suite (eval/suites.ts)
// measured the same way, per repository: drift cases detected with the right state, and false alarms
// of a scan of the unmodified tree. Exit code 1 when a repository's document kinds or the pooled
// figure fall below 0.95, or a drift suite misses a bar of issue 17. An unfiltered run writes
// eval/results.json and its tables into docs/quality.md (eval/qualityDoc.ts).

import { parseArgs } from 'node:util';
import { SIBLING_PASS } from '../src/engine/indexing/kindSiblings';
import { treeSitterSymbols } from '../src/host/symbols/treeSitter';
import type { SymbolParser } from '../src/engine';
import { labelDirs, labelledRepos } from './kinds/dataset';
import { filesOf, leaveOneOut, modelsWithout, renderLoo, type Baseline } from './kinds/loo';
import { DEFAULT_SETTINGS, type TrainSettings } from './kinds/trainer';
import { evaluateDrift, readKnownBroken, scanUnmodified } from './drift';
import { suites, type Suite } from './suites';
import { belowTheBar, renderDriftTable, saveResults, type EvalResults } from './qualityDoc';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLASSIFICATION_BAR = 0.95;

interface Row {
  suite: Suite;
  cases: { right: number; total: number } | null;
  falseAlarms: number | null;
  known: number;
  /** broken.tsv rows (a reference confirmed broken by script, then read): how many the scan reports. */
  listed: number;
  fixes: { right: number; offered: number } | null;
}

function repos(suite: Suite): string[] {
  return suite.repository ? [suite.repository] : [];
}

const cpuSeconds = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(1);

/** The kind classifier, leave one repository out; whether a repository or the pooled figure is below the bar. */
async function runKinds(
  values: {
    'kind-labels'?: string;
    'legacy-kinds'?: boolean;
    baseline?: string;
    repos?: string;
    verbose?: boolean;
    'kind-set'?: string;
    'kind-settings'?: string;
    'no-siblings'?: boolean;
    siblings?: boolean;
  },
  record: EvalResults,
): Promise<boolean> {
  const dirs = values['kind-labels'] ? values['kind-labels'].split(':').filter(Boolean) : labelDirs();
  const { repos, skipped } = labelledRepos(dirs, { legacy: values['legacy-kinds'], repos: values.repos });
  console.log(`kinds: leave one repository out over ${repos.length} labelled repositories (${dirs.join(', ')})`);
  for (const line of skipped) console.log(`   skipped ${line}`);
  if (!repos.length) return false;
  const baseline = values.baseline ? ((await import(values.baseline)) as Baseline) : undefined;
  const started = Date.now();
  const cpuAtStart = process.cpuUsage();
  // --kind-set dev scores only the dev repositories (each still trained on every other one).
  const only = values['kind-set'] ? repos.filter((r) => r.set === values['kind-set']).map((r) => r.name) : undefined;
  // --kind-settings '{"l2":0.001}' tries other training settings (chosen on the dev repositories only).
  const settings = { ...DEFAULT_SETTINGS, ...(JSON.parse(values['kind-settings'] ?? '{}') as Partial<TrainSettings>) };
  // The second pass (kindSiblings.ts) is scored as the index runs it (SIBLING_PASS); --siblings turns it on.
  const noSiblings = values['no-siblings'] || !(values.siblings ?? SIBLING_PASS);
  // Features once per file (cached by content, featureCache.ts); the models in worker threads (foldPool.ts).
  const files = filesOf(repos);
  const models = await modelsWithout(repos, files, { settings, only });
  // With the second pass on, the first pass alone is scored too, from the same folds' models (before → after).
  if (!noSiblings) {
    console.log('first pass alone (no siblings):');
    console.log(renderLoo(leaveOneOut(repos, { only, settings, noSiblings: true, files, models }), {}));
    console.log('\nboth passes (siblings):');
  }
  const loo = leaveOneOut(repos, { baseline, only, settings, noSiblings, files, models });
  console.log(renderLoo(loo, { verbose: values.verbose, baseline: !!baseline }));
  record.kinds = {
    repositories: repos.length,
    results: loo.results,
    perKind: Object.fromEntries([...loo.kinds].map(([set, counts]) => [set, Object.fromEntries(counts)])),
  };
  console.log(
    `   (${((Date.now() - started) / 1000).toFixed(1)} s, CPU ${cpuSeconds(process.cpuUsage(cpuAtStart))} s in all ` +
      `threads; misses are listed with -v for dev repositories only)`,
  );
  const scored = loo.results.filter((r) => r.set !== 'legacy');
  const pooled =
    scored.reduce((n, r) => n + r.all.right, 0) /
    Math.max(
      1,
      scored.reduce((n, r) => n + r.all.total, 0),
    );
  const below = scored.filter((r) => r.docs.total && r.docs.right / r.docs.total < CLASSIFICATION_BAR);
  for (const r of below) console.log(`   below the bar (document kinds < 0.95): ${r.name}`);
  return below.length > 0 || (scored.length > 0 && pooled < CLASSIFICATION_BAR);
}

export async function runAll(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string' },
      'no-drift': { type: 'boolean' },
      'no-cases': { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      repos: { type: 'string' },
      'only-kinds': { type: 'boolean' },
      'no-kinds': { type: 'boolean' },
      'kind-labels': { type: 'string' },
      'legacy-kinds': { type: 'boolean' },
      baseline: { type: 'string' },
      'kind-set': { type: 'string' },
      'kind-settings': { type: 'string' },
      'no-siblings': { type: 'boolean' },
      siblings: { type: 'boolean' },
    },
    allowPositionals: false,
  });
  // Only a run of every label and suite, with the shipped settings, stands for the doc's figures.
  const filters = ['only', 'repos', 'kind-labels', 'legacy-kinds', 'baseline', 'kind-set', 'kind-settings'] as const;
  const writesDoc =
    !filters.some((f) => values[f] !== undefined) &&
    values.siblings === undefined &&
    values['no-siblings'] === undefined &&
    !values['no-drift'] &&
    !values['no-cases'];
  const results: EvalResults = { date: new Date().toISOString() };
  let kindsFailed = false;
  if (!values['no-kinds']) kindsFailed = await runKinds(values, results);
  if (values['only-kinds']) {
    if (writesDoc) saveResults(results);
    return kindsFailed ? 1 : 0;
  }
  const only = values.only ? new Set(values.only.split(',')) : null;
  const found = suites(values.repos);
  for (const line of found.skipped) console.log(`skipped ${line}`);
  let parser: SymbolParser | undefined;
  if (!values['no-drift']) {
    const tree = treeSitterSymbols();
    await tree.whenReady;
    parser = tree;
  }
  const rows: Row[] = [];
  for (const suite of found.suites.filter((s) => !only || only.has(s.name))) {
    console.log(`\n== ${suite.name}${suite.heldOut ? ' (held out)' : ''}`);
    const row: Row = {
      suite,
      cases: null,
      falseAlarms: null,
      known: 0,
      listed: 0,
      fixes: null,
    };
    if (!values['no-drift']) {
      const listed = readKnownBroken(suite.labels, suite.extra);
      const unmodified = scanUnmodified(suite.files, listed, parser, repos(suite));
      row.falseAlarms = unmodified.false_alarms.length;
      row.known = unmodified.found;
      row.listed = listed.filter((k) => k.reference !== '*').length;
      console.log(
        `   unmodified tree: ${unmodified.references} references, ` +
          `${unmodified.false_alarms.length} false alarms, ` +
          `${unmodified.by_state.ambiguous} ambiguous, ${unmodified.known} ` +
          `labelled really broken, ${unmodified.mentions} mentions (${unmodified.seconds.toFixed(1)} s)`,
      );
      const shown = values.verbose ? unmodified.false_alarms : unmodified.false_alarms.slice(0, 15);
      for (const f of shown)
        console.log(
          `   false alarm: ${f.source.path}:${f.source.line ?? ''} ` +
            `${f.reference.form} ${f.reference.raw} → ${f.state}: ` +
            `${f.evidence.detail}`,
        );
      if (shown.length < unmodified.false_alarms.length)
        console.log(`   … ${unmodified.false_alarms.length - shown.length} more (-v)`);
      if (values.verbose)
        for (const k of unmodified.missed)
          console.log(`   already broken, not found: ${k.doc} → ${k.reference}: ${k.seen}`);
      if (!values['no-cases'] && existsSync(join(suite.labels, 'drift.jsonl'))) {
        const drift = evaluateDrift(suite.labels, parser, suite.files, repos(suite));
        row.cases = { right: drift.detected, total: drift.cases.length };
        row.fixes = { right: drift.fixes.right, offered: drift.fixes.offered };
        console.log(`   drift cases: ${drift.detected}/${drift.cases.length} right (${drift.seconds.toFixed(1)} s)`);
        console.log(
          `   update fixes: ${drift.fixes.right}/${drift.fixes.offered} right (one token changed, ` +
            `the reference current at the new place), ${drift.fixes.declined} not offered`,
        );
        for (const w of drift.fixes.wrong) console.log(`   fix WRONG: ${w}`);
        for (const o of drift.cases)
          if (!o.ok || values.verbose)
            console.log(
              `   case ${o.id} ${o.edit}: expected ${o.expected}, check ` +
                `${o.check}, scan ${o.scan}${o.ok ? '' : ` WRONG: ${o.detail}`}`,
            );
      }
    }
    rows.push(row);
  }
  results.drift = rows.map((r) => ({
    suite: r.suite.name,
    heldOut: r.suite.heldOut,
    cases: r.cases,
    fixes: r.fixes,
    falseAlarms: r.falseAlarms,
    known: r.known,
    listed: r.listed,
  }));
  console.log('\n' + renderDriftTable(results.drift));
  const failed = kindsFailed || results.drift.some(belowTheBar);
  if (writesDoc) saveResults(results);
  return failed ? 1 : 0;
}
