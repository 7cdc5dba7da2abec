// `npm run eval -- --corpus DIR --drift`: the drift detector against a corpus's drift.jsonl. Each
// case names a document, the reference it makes and the target file, and an edit (rename, delete
// or modify). In a fresh temporary copy of files/ the eval scans, applies the edit, runs the
// per-save check for the touched paths and a full scan, and checks the document's reference got
// the state the edit implies (rename → relocated, delete → gone, modify → changed). Every other
// reference whose state moved although its target was not touched is a false alarm.
//
// The edits are generic: a rename moves the target to `renamed-<name>` in its folder; a delete
// removes it (the whole folder when the reference names a folder holding it); a modify appends a
// comment to the first line holding the reference as a whole token — inside the target's definition
// of that name when it has one, the first line under the heading a `#fragment` names — (or its longest leading part,
// for a name like a pod `x-0` whose
// definition is `x`), or to the file's end when the reference is a path.

import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DRIFT_STATES, Engine, type DriftFinding, type DriftState, type SymbolParser } from '../src/engine';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { DiskWorkspaceReader } from '../src/host/workspaceReader';
import { findDefinitions } from '../src/engine/drift/symbols';
import { anchorKey } from '../src/engine/drift/target';
import { canRelink, relink } from '../src/vscode/drift/relink';

export interface DriftCase {
  id: string;
  doc: string;
  reference: string;
  target: string;
  edit: 'rename' | 'delete' | 'modify';
  note?: string;
}

/** A reference whose state moved between the baseline and the check. */
export interface StateMove {
  source: string;
  raw: string;
  target: string | null;
  from: DriftState;
  to: DriftState;
  detail: string;
}

export interface CaseOutcome {
  id: string;
  edit: DriftCase['edit'];
  expected: DriftState;
  /** The state the per-save check gave the case's reference, and the full scan after it. */
  check: DriftState | null;
  scan: DriftState | null;
  ok: boolean;
  detail: string;
  false_alarms: StateMove[];
  /**
   * Other references to the touched target whose state moved too (right for whole-file references, worth a look for
   * symbols).
   */
  collateral: StateMove[];
  /** Every Update fix offered after the edit, applied to its document (issue 31, point 1). */
  fixes: FixOutcome;
}

/**
 * The editor's Update fixes (src/vscode/drift/relink.ts) offered on the edited tree, applied: each
 * must change exactly one whitespace-separated token of its line, the one holding the reference,
 * and the fixed document, checked again, must have that reference current at the new place.
 */
export interface FixOutcome {
  offered: number;
  right: number;
  /** Relocated path references no fix was offered for (the form could not be kept): not wrong, not a fix. */
  declined: number;
  wrong: string[];
}

export interface DriftEvalResult {
  cases: CaseOutcome[];
  detected: number;
  false_alarms: number;
  /** The Update fixes of every case together. */
  fixes: FixOutcome;
  baseline: { references: number; by_state: Record<DriftState, number> };
  seconds: number;
}

const EXPECTED: Record<DriftCase['edit'], DriftState> = { rename: 'relocated', delete: 'gone', modify: 'changed' };

function commentFor(path: string): string {
  if (/\.(go|ts|tsx|js|jsx|java|c|cc|cpp|h|rs|swift|kt|scala|cs)$/i.test(path)) return ' // edited by the drift eval';
  if (/\.(md|markdown|html|erb)$/i.test(path)) return ' <!-- edited by the drift eval -->';
  return ' # edited by the drift eval';
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The line a modify edits: the reference as a whole token, else its longest leading part (names
 * only). When the target defines the name, the token is looked for inside that definition first:
 * the first mention may be a call or another definition's comment, and editing it would not change
 * the symbol the document names (the case would then measure nothing).
 */
function lineToEdit(text: string, reference: string, path: string): number | null {
  const ref = reference.replace(/^\.\//, '');
  const lines = text.split('\n');
  // A heading's section is what a `#fragment` names: its first line of prose is edited (the heading itself is the
  // anchor).
  const fragment =
    ref.includes('#') && /\.(md|markdown)$/i.test(path) ? anchorKey(ref.slice(ref.indexOf('#') + 1)) : null;
  const heading = fragment
    ? lines.findIndex((l) => /^#{1,6}\s/.test(l) && anchorKey(l.replace(/^#+/, '')) === fragment)
    : -1;
  if (heading >= 0) {
    const body = lines.findIndex((l, i) => i > heading && l.trim() !== '' && !/^#{1,6}\s/.test(l));
    if (body >= 0) return body;
  }
  const spans = findDefinitions(path, text).filter((d) => d.name === ref);
  const token = new RegExp(`(^|[^A-Za-z0-9_-])${escape(ref)}($|[^A-Za-z0-9_-])`);
  for (const span of spans) {
    for (let i = span.start; i <= span.end; i++)
      if (token.test(lines[i]) && !/^\s*(\/\/|#|\*|\/\*)/.test(lines[i])) return i;
  }
  // A Helm value's dotted path (`serviceMonitor.enabled`) is written as nested keys: its leaf key's line.
  if (spans.length && ref.includes('.')) return spans[0].start;
  const parts = ref.split(/(?=[-_])/);
  const tries = /[/.]/.test(ref)
    ? [ref]
    : parts.map((_, i) => parts.slice(0, parts.length - i).join('')).filter((p) => p.length >= 4);
  for (const candidate of tries) {
    const token = new RegExp(`(^|[^A-Za-z0-9_-])${escape(candidate)}($|[^A-Za-z0-9_-])`);
    const at = lines.findIndex((line) => token.test(line));
    if (at >= 0) return at;
  }
  return null;
}

function applyEdit(root: string, c: DriftCase, caseRows: DriftFinding[]): string[] {
  const target = join(root, c.target);
  if (c.edit === 'rename') {
    const moved = join(dirname(c.target), `renamed-${basename(c.target)}`)
      .split('\\')
      .join('/');
    // A folder's rename reaches a save or a watcher as the paths of the files it held.
    const inside = statSync(target).isDirectory()
      ? new DiskWorkspaceReader(root)
          .list()
          .map((f) => f.path)
          .filter((p) => p.startsWith(`${c.target}/`))
      : [];
    renameSync(target, join(root, moved));
    return inside.length ? inside.flatMap((p) => [p, `${moved}${p.slice(c.target.length)}`]) : [c.target, moved];
  }
  if (c.edit === 'delete') {
    // A reference to a folder (a module) is deleted with the folder.
    const folder = caseRows
      .map((r) => r.reference.target_path)
      .find((p) => p && p !== c.target && c.target.startsWith(`${p}/`));
    if (folder) {
      const files = new DiskWorkspaceReader(root)
        .list()
        .map((f) => f.path)
        .filter((p) => p.startsWith(`${folder}/`));
      rmSync(join(root, folder), { recursive: true, force: true });
      return files;
    }
    if (statSync(target).isDirectory()) {
      const files = new DiskWorkspaceReader(root)
        .list()
        .map((f) => f.path)
        .filter((p) => p.startsWith(`${c.target}/`));
      rmSync(target, { recursive: true, force: true });
      return files;
    }
    rmSync(target);
    return [c.target];
  }
  // A folder is what it holds: modifying one adds a file to it (an edit inside a file changes that file only).
  if (statSync(target).isDirectory()) {
    const added = `${c.target}/added-by-drift-eval.md`;
    writeFileSync(join(root, added), '# added by the drift eval\n');
    return [added];
  }
  const text = readFileSync(target, 'utf8');
  // A line range (`#L24-L28`, an embed's sed range) is edited on its first line: the end of the file is not in it.
  const range = /^L(\d+)(?:-L\d+)?$/.exec(caseRows[0]?.reference.symbol ?? '');
  const at = range ? Number(range[1]) - 1 : lineToEdit(text, c.reference, c.target);
  const lines = text.split('\n');
  if (at === null) {
    const end = lines.length && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
    lines.splice(end, 0, commentFor(c.target).trim());
  } else lines[at] += commentFor(c.target);
  writeFileSync(target, lines.join('\n'));
  return [c.target];
}

function isTouched(path: string | null, touched: string[]): boolean {
  return !!path && touched.some((t) => t === path || t.startsWith(`${path}/`));
}

function referenceMatches(finding: DriftFinding, c: DriftCase): boolean {
  if (finding.source.path !== c.doc) return false;
  const raw = finding.reference.raw;
  return raw === c.reference || raw.replace(/^\.\//, '') === c.reference.replace(/^\.\//, '');
}

function targetMatches(finding: DriftFinding, c: DriftCase): boolean {
  const path = finding.reference.target_path;
  return path === c.target || (!!path && c.target.startsWith(`${path}/`));
}

const ALL_STATES: DriftState[] = [...DRIFT_STATES];

/** `parser`: locate symbols as the owner does (src/host/symbols/treeSitter.ts); without one, by patterns. */
export function runCase(
  filesDir: string,
  c: DriftCase,
  parser?: SymbolParser,
  repositories: readonly string[] = [],
): { outcome: CaseOutcome; baseline: { references: number; by_state: Record<DriftState, number> } } {
  const root = mkdtempSync(join(tmpdir(), 'lore-drift-eval-'));
  try {
    cpSync(filesDir, root, { recursive: true });
    const db = new WasmSqlDatabase(':memory:');
    const engine = new Engine({ db, files: new DiskWorkspaceReader(root, parser), repositories });
    try {
      const scan = engine.driftScan();
      const before = new Map(engine.driftFindings({ states: ALL_STATES }).map((f) => [f.id, f]));
      const mentions = [...before.values()].filter((f) => referenceMatches(f, c));
      const caseRows = mentions.filter((f) => targetMatches(f, c));
      const expected = EXPECTED[c.edit];
      const base = { id: c.id, edit: c.edit, expected };
      if (!caseRows.length) {
        const seen = mentions
          .map((f) => `${f.reference.form} → ${f.reference.target_path ?? f.evidence.detail}`)
          .join('; ');
        return {
          baseline: scan,
          outcome: {
            ...base,
            check: null,
            scan: null,
            ok: false,
            detail: mentions.length ? `reference found but resolved elsewhere: ${seen}` : 'reference not extracted',
            false_alarms: [],
            collateral: [],
            fixes: { offered: 0, right: 0, declined: 0, wrong: [] },
          },
        };
      }
      const touched = applyEdit(root, c, caseRows);
      const checked = new Map(engine.driftCheck(touched).map((f) => [f.id, f]));
      engine.driftScan();
      const after = new Map(engine.driftFindings({ states: ALL_STATES }).map((f) => [f.id, f]));
      const row = caseRows[0];
      const checkState = checked.get(row.id)?.state ?? null;
      const scanState = after.get(row.id)?.state ?? null;
      const falseAlarms: StateMove[] = [];
      const collateral: StateMove[] = [];
      for (const [id, was] of before) {
        const now = after.get(id);
        if (!now || now.state === was.state || caseRows.some((r) => r.id === id)) continue;
        const entry = {
          source: was.source.path ?? was.source.key ?? '?',
          raw: was.reference.raw,
          target: was.reference.target_path,
          from: was.state,
          to: now.state,
          detail: now.evidence.detail,
        };
        (isTouched(was.reference.target_path, touched) ? collateral : falseAlarms).push(entry);
      }
      const ok = checkState === expected && scanState === expected;
      const evidence = after.get(row.id)?.evidence;
      const fixes = applyFixes(engine, root, [...after.values()]);
      return {
        baseline: scan,
        outcome: {
          ...base,
          check: checkState,
          scan: scanState,
          ok,
          detail: evidence
            ? `${evidence.detail}${evidence.new_path ? ` (new: ${evidence.new_path})` : ''}`
            : 'no longer tracked',
          false_alarms: falseAlarms,
          collateral,
          fixes,
        },
      };
    } finally {
      db.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Only the whitespace-separated token holding `raw` differs between the two lines. */
function oneTokenChanged(before: string, after: string, raw: string): boolean {
  const a = before.split(/\s+/);
  const b = after.split(/\s+/);
  if (a.length !== b.length) return false;
  const differing = a.map((t, i) => (t === b[i] ? -1 : i)).filter((i) => i >= 0);
  // A reference written with spaces (an embed's `cat examples/x.jsonnet`): the changed token holds one of its words.
  const words = raw.split(/\s+/);
  return differing.length === 1 && (a[differing[0]].includes(raw) || words.some((w) => a[differing[0]].includes(w)));
}

/** Applies every Update the editor would offer on the relocated findings, then checks the fixed documents. */
function applyFixes(engine: Engine, root: string, findings: DriftFinding[]): FixOutcome {
  const out: FixOutcome = { offered: 0, right: 0, declined: 0, wrong: [] };
  const expected: Array<{ doc: string; line: number; text: string; path: string; raw: string }> = [];
  const texts = new Map<string, string[]>();
  for (const f of findings.filter(canRelink)) {
    const doc = f.source.path!;
    const lines = texts.get(doc) ?? readFileSync(join(root, doc), 'utf8').split('\n');
    texts.set(doc, lines);
    const at = (f.source.line ?? 1) - 1;
    const change = relink(f, lines[at] ?? '');
    if ('problem' in change) {
      out.declined++;
      continue;
    }
    out.offered++;
    const before = lines[at];
    const after = before.slice(0, change.start) + change.text + before.slice(change.end);
    if (!oneTokenChanged(before, after, f.reference.raw)) {
      out.wrong.push(`${doc}:${at + 1} ${before.trim()} → ${after.trim()}`);
      continue;
    }
    lines[at] = after;
    expected.push({
      doc,
      line: at + 1,
      text: change.text,
      path: f.evidence.new_path!.split('#')[0],
      raw: f.reference.raw,
    });
  }
  if (!expected.length) return out;
  for (const [doc, lines] of texts) writeFileSync(join(root, doc), lines.join('\n'));
  engine.driftCheck([...texts.keys()]);
  const now = engine.driftFindings({ states: ALL_STATES });
  for (const e of expected) {
    const fixed = now.filter((f) => f.source.path === e.doc && f.reference.raw === e.text);
    if (fixed.some((f) => f.state === 'current' && f.reference.target_path === e.path)) out.right++;
    else
      out.wrong.push(
        `${e.doc}:${e.line} ${e.raw} → ${e.text}: ` +
          (fixed.map((f) => `${f.state} ${f.reference.target_path ?? f.evidence.detail}`).join('; ') ||
            'not a reference'),
      );
  }
  return out;
}

/** `corpus`: the folder holding drift.jsonl; `files`: the tree its paths are relative to (default corpus/files). */
export function evaluateDrift(
  corpus: string,
  parser?: SymbolParser,
  files = join(corpus, 'files'),
  repositories: readonly string[] = [],
): DriftEvalResult {
  const started = Date.now();
  const cases = readFileSync(join(corpus, 'drift.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as DriftCase);
  const outcomes: CaseOutcome[] = [];
  let baseline: DriftEvalResult['baseline'] = {
    references: 0,
    by_state: { current: 0, relocated: 0, changed: 0, gone: 0, broken: 0, ambiguous: 0 },
  };
  for (const c of cases) {
    const run = runCase(files, c, parser, repositories);
    baseline = { references: run.baseline.references, by_state: run.baseline.by_state };
    outcomes.push(run.outcome);
  }
  return {
    cases: outcomes,
    detected: outcomes.filter((o) => o.ok).length,
    false_alarms: outcomes.reduce((n, o) => n + o.false_alarms.length, 0),
    fixes: {
      offered: outcomes.reduce((n, o) => n + o.fixes.offered, 0),
      right: outcomes.reduce((n, o) => n + o.fixes.right, 0),
      declined: outcomes.reduce((n, o) => n + o.fixes.declined, 0),
      wrong: outcomes.flatMap((o) => o.fixes.wrong.map((w) => `${o.id}: ${w}`)),
    },
    baseline,
    seconds: (Date.now() - started) / 1000,
  };
}

export function renderDrift(result: DriftEvalResult, verbose = false): string {
  const lines = [
    `drift: ${result.detected}/${result.cases.length} cases detected ` +
      `with the right state, ${result.false_alarms} false alarms ` +
      `(${result.seconds.toFixed(1)} s)`,
    `baseline: ${result.baseline.references} references — ${Object.entries(result.baseline.by_state)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
    'case      edit     expected   check      scan       ',
  ];
  for (const o of result.cases) {
    lines.push(
      `${o.id.padEnd(9)} ${o.edit.padEnd(8)} ${o.expected.padEnd(10)} ` +
        `${String(o.check).padEnd(10)} ${String(o.scan).padEnd(10)} ` +
        `${o.ok ? 'ok' : 'WRONG'}${!o.ok || verbose ? `  ${o.detail}` : ''}`,
    );
    for (const f of o.false_alarms)
      lines.push(`          false alarm: ${f.source} → ${f.raw} (${f.target}) ${f.from} → ${f.to}: ${f.detail}`);
    for (const f of o.collateral)
      lines.push(`          also (same target): ${f.source} → ${f.raw} ${f.from} → ${f.to}: ${f.detail}`);
  }
  return lines.join('\n');
}

/** A reference a person checked and found really broken in the unmodified repository (broken.tsv). */
export interface KnownBroken {
  doc: string;
  reference: string;
  reason: string;
}

export function readKnownBroken(...dirs: Array<string | undefined>): KnownBroken[] {
  return dirs.flatMap((dir) => {
    const path = dir ? join(dir, 'broken.tsv') : '';
    if (!dir || !existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => {
        const [doc, reference, reason] = line.split('\t');
        return { doc, reference, reason };
      });
  });
}

export interface UnmodifiedResult {
  references: number;
  by_state: Record<DriftState, number>;
  /** Findings other than current on the unmodified tree that no broken.tsv row accounts for. */
  false_alarms: DriftFinding[];
  /** Findings broken.tsv accounts for (really broken in the repository). */
  known: number;
  /** broken.tsv rows (other than `*`) some finding reports as already broken (there before Lore looked). */
  found: number;
  /** The other broken.tsv rows, each with what the scan said of that reference (nothing: not extracted). */
  missed: Array<KnownBroken & { seen: string }>;
  /** References watched as mentions (drift/mention.ts): the lines of a file beside the document using a name. */
  mentions: number;
  seconds: number;
}

/** A full scan of the untouched tree: every reference that is not current is a false alarm unless labelled broken. */
export function scanUnmodified(
  files: string,
  known: KnownBroken[],
  parser?: SymbolParser,
  repositories: readonly string[] = [],
): UnmodifiedResult {
  const started = Date.now();
  const db = new WasmSqlDatabase(':memory:');
  try {
    const engine = new Engine({ db, files: new DiskWorkspaceReader(files, parser), repositories });
    const scan = engine.driftScan();
    // `ambiguous` is the right answer for a name several files match, not an alarm.
    const findings = engine
      .driftFindings({ states: ALL_STATES })
      .filter((f) => f.state !== 'current' && f.state !== 'ambiguous');
    const isKnown = (f: DriftFinding) =>
      known.some((k) => k.doc === f.source.path && (k.reference === f.reference.raw || k.reference === '*'));
    const falseAlarms = findings.filter((f) => !isKnown(f));
    const mentions = db.get<{ n: number }>("SELECT COUNT(*) AS n FROM drift_refs WHERE target_kind = 'mention'");
    const all = engine.driftFindings({ states: ALL_STATES });
    const reported = (k: KnownBroken) =>
      findings.some((f) => f.source.path === k.doc && f.reference.raw === k.reference && f.already_broken);
    const missed = known
      .filter((k) => k.reference !== '*' && !reported(k))
      .map((k) => {
        const same = all.filter((f) => f.source.path === k.doc && f.reference.raw === k.reference);
        const seen = same.map((f) => `${f.reference.form} ${f.state}: ${f.evidence.detail}`).join('; ');
        return { ...k, seen: seen || 'not extracted' };
      });
    return {
      references: scan.references,
      by_state: scan.by_state,
      false_alarms: falseAlarms,
      known: findings.length - falseAlarms.length,
      found: known.filter((k) => k.reference !== '*' && reported(k)).length,
      missed,
      mentions: mentions?.n ?? 0,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    db.close();
  }
}
