// Drift benchmark: a generated workspace of documents whose references (paths in code spans,
// relative links, function names) point at generated source files, at 1k and 10k references.
// Figures: the first full scan (extract, resolve, fingerprint everything), a re-scan with nothing
// changed, and the per-save check — a target file rewritten, then `driftCheck([that path])` —
// p50 and p95 over many saves (target: p50 ≤ 50 ms at 10k references), plus the check after a
// document save (its references re-extracted). The baseline of a check is reading and hashing
// the saved file, the least any check must do. Real SQLite file, real files on disk.
//
//   npx tsx bench/drift.ts [--quick]      (or through bench/run.ts: --only drift)

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Engine } from '../src/engine';
import { sha256 } from '../src/engine/model/digest';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { DiskWorkspaceReader } from '../src/host/workspaceReader';
import { prng } from '../scripts/prng';
import { figure, type Figure } from './result';

const REFS_PER_DOC = 20;
const FUNCTIONS_PER_FILE = 2;

interface Generated {
  root: string;
  targets: string[];
  docs: string[];
}

function sourceText(file: number, version: number): string {
  return Array.from(
    { length: FUNCTIONS_PER_FILE },
    (_, f) => `export function handle${file}x${f}(input) {\n  return input * ${file + f + version};\n}\n`,
  ).join('\n');
}

/** `references` references over references/REFS_PER_DOC documents; a third paths, a third links, a third functions. */
function generate(references: number, seed: number): Generated {
  const random = prng(seed);
  const root = mkdtempSync(join(tmpdir(), 'lore-drift-bench-'));
  const files = Math.max(10, Math.round(references / 4));
  const targets: string[] = [];
  for (let i = 0; i < files; i++) {
    const path = `services/svc${i % 50}/src/module${i}.ts`;
    targets.push(path);
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), sourceText(i, 0));
  }
  const docs: string[] = [];
  for (let d = 0; d < Math.ceil(references / REFS_PER_DOC); d++) {
    const path = `docs/area${d % 20}/note${d}.md`;
    docs.push(path);
    const lines = [`# Note ${d}`, ''];
    const used = new Set<number>();
    for (let r = 0; r < REFS_PER_DOC && d * REFS_PER_DOC + r < references; r++) {
      // Each reference of a document names a different file: a repeated mention is one reference.
      let i = Math.floor(random() * files);
      while (used.has(i)) i = (i + 1) % files;
      used.add(i);
      const kind = r % 3;
      if (kind === 0) lines.push(`- The handler lives in \`${targets[i]}\`.`);
      else if (kind === 1) lines.push(`- See [module ${i}](../../${targets[i]}).`);
      else lines.push(`- It calls \`handle${i}x${r % FUNCTIONS_PER_FILE}()\` first.`);
    }
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), lines.join('\n') + '\n');
  }
  return { root, targets, docs };
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface SizeResult {
  references: number;
  firstScanMs: number;
  rescanMs: number;
  checkRuns: number[];
  checkBaseline: number[];
  docCheckRuns: number[];
}

function measure(references: number, saves: number, seed: number): SizeResult {
  const ws = generate(references, seed);
  const db = new WasmSqlDatabase(join(ws.root, '..', `${ws.root.split('/').pop()}.db`));
  try {
    const engine = new Engine({ db, files: new DiskWorkspaceReader(ws.root) });
    let start = process.hrtime.bigint();
    const scan = engine.driftScan();
    const firstScanMs = ms(start);
    if (scan.references < references * 0.95)
      throw new Error(`only ${scan.references} of ${references} references were extracted`);
    start = process.hrtime.bigint();
    engine.driftScan();
    const rescanMs = ms(start);
    const random = prng(seed + 1);
    const checkRuns: number[] = [];
    const checkBaseline: number[] = [];
    const docCheckRuns: number[] = [];
    for (let s = 0; s < saves; s++) {
      const i = Math.floor(random() * ws.targets.length);
      const path = ws.targets[i];
      writeFileSync(join(ws.root, path), sourceText(i, s + 1));
      start = process.hrtime.bigint();
      sha256(readFileSync(join(ws.root, path), 'utf8'));
      checkBaseline.push(ms(start));
      start = process.hrtime.bigint();
      engine.driftCheck([path]);
      checkRuns.push(ms(start));
      const doc = ws.docs[Math.floor(random() * ws.docs.length)];
      writeFileSync(join(ws.root, doc), `${readFileSync(join(ws.root, doc), 'utf8')}\nEdited ${s}.\n`);
      start = process.hrtime.bigint();
      engine.driftCheck([doc]);
      docCheckRuns.push(ms(start));
    }
    return { references: scan.references, firstScanMs, rescanMs, checkRuns, checkBaseline, docCheckRuns };
  } finally {
    db.close();
    rmSync(ws.root, { recursive: true, force: true });
    rmSync(join(ws.root, '..', `${ws.root.split('/').pop()}.db`), { force: true });
  }
}

export interface DriftBenchResult {
  title: string;
  method: Record<string, string>;
  notes: string[];
  figures: Figure[];
}

export async function runDriftBench(options: { quick: boolean }): Promise<DriftBenchResult> {
  const sizes = options.quick ? [200, 1000] : [1000, 10000];
  const saves = options.quick ? 10 : 100;
  const rounds = options.quick ? 1 : 3;
  const figures: Figure[] = [];
  for (const size of sizes) {
    const results = Array.from({ length: rounds }, (_, r) => measure(size, saves, 20261129 + r));
    const refs = results[0].references;
    const at = size >= 1000 ? `${size / 1000}k` : String(size);
    const checkTarget = size >= 10000 ? { target: { on: 'median' as const, op: '<=' as const, limit: 50 } } : {};
    figures.push(
      figure({
        name: `drift.scan.first.${at}`,
        label: 'full scan, first (extract + fingerprint)',
        sizes: { references: refs },
        unit: 'ms',
        runs: results.map((r) => r.firstScanMs),
      }),
      figure({
        name: `drift.scan.again.${at}`,
        label: 'full scan, nothing changed',
        sizes: { references: refs },
        unit: 'ms',
        runs: results.map((r) => r.rescanMs),
      }),
      figure({
        name: `drift.check.save.${at}`,
        label: 'per-save check of a changed target',
        sizes: { references: refs },
        unit: 'ms',
        runs: results.map((r) => percentile(r.checkRuns, 50)),
        p95Runs: results.map((r) => percentile(r.checkRuns, 95)),
        baseline: { label: 'read + sha256 of the file', runs: results.map((r) => percentile(r.checkBaseline, 50)) },
        ...checkTarget,
      }),
      figure({
        name: `drift.check.doc.${at}`,
        label: 'per-save check of an edited document',
        sizes: { references: refs },
        unit: 'ms',
        runs: results.map((r) => percentile(r.docCheckRuns, 50)),
        p95Runs: results.map((r) => percentile(r.docCheckRuns, 95)),
      }),
    );
  }
  return {
    title: 'Drift detection',
    method: {
      'drift.scan.first.*':
        'a fresh store scans a generated workspace (documents with 20 ' +
        'references each: paths in code spans, relative links, function ' +
        'names) and fingerprints every target',
      'drift.scan.again.*': 'the same scan again with nothing changed (stat-only for unchanged targets)',
      'drift.check.save.*':
        `a target file is rewritten, then driftCheck([its path]); p50 ` + `(and p95) over ${saves} saves`,
      'drift.check.doc.*': 'a document gains a line, then driftCheck([its path]) re-extracts its references',
    },
    notes: [`${rounds} round(s) per size; sizes are references stored after the first scan`],
    figures,
  };
}

if (require.main === module) {
  const quick = process.argv.includes('--quick');
  void runDriftBench({ quick }).then((result) => {
    for (const f of result.figures) {
      const p95 = f.p95 !== undefined ? `, p95 ${f.p95.toFixed(1)}` : '';
      const base = f.baseline ? ` (baseline ${f.baseline.median.toFixed(2)} ${f.unit})` : '';
      const target = f.target
        ? ` target ${f.target.on} ${f.target.op} ${f.target.limit}: ${f.met ? 'met' : 'NOT met'}`
        : '';
      console.log(
        `${f.label.padEnd(42)} ${String(f.sizes.references).padStart(6)} ` +
          `refs  ${f.median.toFixed(1)} ${f.unit}${p95}${base}${target}`,
      );
    }
  });
}
