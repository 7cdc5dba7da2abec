// `npx tsx eval/draftCases.ts NAME...`: drafts eval/repos/<name>/drift.jsonl from a scan of the
// unmodified tree. It picks, deterministically (sorted by document and line, spread over the
// list), references the detector resolves at baseline: links and paths to files for renames and
// deletes, whole-file links for modifies, symbols and flags for modifies of their definition. The
// draft measures whether a reference's state follows an edit, not whether extraction finds every
// reference; a person reads every case before it is committed (eval/README.md).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DRIFT_STATES, Engine, type DriftFinding } from '../src/engine';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { DiskWorkspaceReader } from '../src/host/workspaceReader';
import { treeSitterSymbols } from '../src/host/symbols/treeSitter';
import { suites } from './suites';

function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

async function main(): Promise<void> {
  const names = new Set(process.argv.slice(2));
  const tree = treeSitterSymbols();
  await tree.whenReady;
  for (const suite of suites().suites.filter((s) => names.has(s.name))) {
    const db = new WasmSqlDatabase(':memory:');
    const engine = new Engine({
      db,
      files: new DiskWorkspaceReader(suite.files, tree),
      repositories: suite.repository ? [suite.repository] : [],
    });
    engine.driftScan();
    const all = engine
      .driftFindings({ states: [...DRIFT_STATES] })
      .filter((f) => f.state === 'current' && f.source.path && f.reference.target_path);
    all.sort((a, b) => `${a.source.path}:${a.source.line}`.localeCompare(`${b.source.path}:${b.source.line}`));
    db.close();
    const used = new Set<string>();
    const pick = (pool: DriftFinding[], n: number) => {
      const fresh = pool.filter(
        (f) => !used.has(f.reference.target_path!) && !f.reference.target_path!.startsWith('.github/ISSUE'),
      );
      const out = spread(fresh, n);
      for (const f of out) used.add(f.reference.target_path!);
      return out;
    };
    const fileRefs = all.filter(
      (f) =>
        ['link', 'path', 'filename', 'published', 'index', 'url'].includes(f.reference.form) &&
        !f.reference.raw.includes('#'),
    );
    const onFiles = fileRefs.filter(
      (f) => !/\.(png|svg|jpg|gif)$/i.test(f.reference.target_path!) && !f.reference.raw.endsWith('/'),
    );
    const symbols = all.filter((f) => ['symbol', 'flag'].includes(f.reference.form));
    const cases = [
      ...pick(onFiles, 4).map((f) => ({ f, edit: 'rename' })),
      ...pick(onFiles, 3).map((f) => ({ f, edit: 'delete' })),
      ...pick(onFiles, 3).map((f) => ({ f, edit: 'modify' })),
      ...pick(symbols, 2).map((f) => ({ f, edit: 'modify' })),
    ];
    const lines = cases.map(({ f, edit }, i) =>
      JSON.stringify({
        id: `${suite.name}-d${String(i + 1).padStart(2, '0')}`,
        doc: f.source.path,
        reference: f.reference.raw,
        target: f.reference.target_path,
        edit,
        note: `${f.reference.form} at line ${f.source.line}${f.reference.symbol ? ` (${f.reference.symbol})` : ''}`,
      }),
    );
    writeFileSync(join(suite.extra ?? suite.labels, 'drift.jsonl'), `${lines.join('\n')}\n`);
    console.log(`${suite.name}: ${lines.length} cases`);
  }
}

void main();
