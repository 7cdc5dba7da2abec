// `npm run eval [-- --only a,b] [--no-drift] [--no-cases] [-v]`: every suite (eval/suites.ts) measured
// the same way, per repository and never only on average: classification accuracy against the
// labels and against the path-only rule, per kind; drift cases detected with the right state; and
// false alarms of a scan of the unmodified tree. Held-out repositories (labelled, not tuned on) are
// reported in their own block. Exit code 1 when any suite misses a bar of issue 17.

import { parseArgs } from 'node:util';
import { treeSitterSymbols } from '../src/host/symbols/treeSitter';
import type { SymbolParser } from '../src/engine';
import { evaluateClassification } from './corpus';
import { evaluateDrift, readKnownBroken, scanUnmodified } from './drift';
import { suites, type Suite } from './suites';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLASSIFICATION_BAR = 0.95;

interface Row {
  suite: Suite;
  files: number;
  accuracy: number;
  pathOnly: number;
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

function pct(x: number): string {
  return Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`;
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
    },
    allowPositionals: false,
  });
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
    // A suite with broken.tsv but no classes.tsv yet is a false-alarm scan only: no classification bar.
    const cls = existsSync(join(suite.labels, 'classes.tsv'))
      ? evaluateClassification(suite.labels, suite.files)
      : { accuracy: NaN, pathOnly: NaN, total: 0, wrong: [], missing: [], perKind: new Map() };
    console.log(
      `\n== ${suite.name}${suite.heldOut ? ' (held out)' : ''}: ` +
        `classification ${pct(cls.accuracy)} of ${cls.total} labelled ` +
        `files, path-only rule ${pct(cls.pathOnly)}`,
    );
    console.log('   kind         right/total  path-only');
    for (const [kind, k] of [...cls.perKind].sort())
      console.log(
        `   ${kind.padEnd(12)} ${`${k.right}/${k.total}`.padStart(11)}  ${`${k.pathRight}/${k.total}`.padStart(9)}`,
      );
    for (const path of cls.missing) console.log(`   label without a file (left out): ${path}`);
    for (const [path, expected, got] of cls.wrong) console.log(`   wrong: ${path}: ${expected} → ${got}`);
    const row: Row = {
      suite,
      files: cls.total,
      accuracy: cls.accuracy,
      pathOnly: cls.pathOnly,
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
  console.log(
    '\nsuite                    files  classify  path-only  drift cases  fixes right  false alarms  already broken',
  );
  let failed = false;
  for (const heldOut of [false, true]) {
    const block = rows.filter((r) => r.suite.heldOut === heldOut);
    if (!block.length) continue;
    if (heldOut) console.log('held out (labelled, not tuned on):');
    for (const r of block) {
      const miss =
        (!Number.isNaN(r.accuracy) && r.accuracy < CLASSIFICATION_BAR) ||
        (r.falseAlarms ?? 0) > 0 ||
        (r.cases !== null && r.cases.right < r.cases.total) ||
        (r.fixes !== null && r.fixes.right < r.fixes.offered);
      failed ||= miss;
      const cases = r.cases ? `${r.cases.right}/${r.cases.total}` : '-';
      console.log(
        `${r.suite.name.padEnd(24)} ${String(r.files).padStart(5)}  ` +
          `${pct(r.accuracy).padStart(8)}  ${pct(r.pathOnly).padStart(9)}  ` +
          `${cases.padStart(11)}  ${(r.fixes ? `${r.fixes.right}/${r.fixes.offered}` : '-').padStart(11)}  ` +
          `${String(r.falseAlarms ?? '-').padStart(12)}  ` +
          `${(r.listed ? `${r.known}/${r.listed}` : '-').padStart(14)}${miss ? '  below the bar' : ''}`,
      );
    }
  }
  return failed ? 1 : 0;
}
