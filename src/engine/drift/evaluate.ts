// Classifying one reference against the workspace now: `current` (its fingerprint still holds),
// `changed` (the target is there, its text is not what it was), `relocated` (gone from its path
// but found again — same content, or the same symbol — elsewhere), `gone`. A mention (mention.ts)
// whose lines left their file unchanged for one neighbour is followed there, not reported: the
// document names the name, not the file. A file whose stat is
// the one last checked is not read again, which keeps a per-save check to the files it names.

import { sha256 } from '../model/digest';
import { PATTERN_FINDER } from './finders';
import type { RefRow } from './store';
import { declaredVerdict } from './ansibleVars';
import { isCodeSource } from './sources';
import { chartOf } from './helmValues';
import { mentionCandidates } from './mention';
import { definitionKind, kindsOf } from './symbols';
import {
  definitionsIn,
  EMPTY_PRINT,
  legacyDirHash,
  legacyHeadingHash,
  lineRange,
  POD_ORDINAL,
  renamedSection,
  targetHash,
  type Target,
} from './target';
import type { DriftState, FileStat } from './types';
import { parentsOf, type Workspace } from './workspace';
import { baseName } from '../text/paths';

export interface RefVerdict {
  state: DriftState;
  new_path: string | null;
  detail: string;
  size: number | null;
  mtime_ms: number | null;
  /** A new baseline, when the finder that locates a symbol changed and the symbol did not (finders.ts). */
  fingerprint?: string;
  finder?: string | null;
  /** The kinds of the symbol's definitions, when the row had none recorded (an older store's) or a finder changed. */
  symbol_kind?: string | null;
  /** A mention followed to the file its lines moved to (the reference's target from now on). */
  target_path?: string;
}

export interface Search {
  /** Paths a moved target may have gone to (a save's or watcher event's paths). */
  candidates: readonly string[];
  /** Look anywhere in the workspace (a full scan). */
  wide: boolean;
  /** Targets the same reference already watches elsewhere (a symbol defined in two files): never "where it moved". */
  siblings?: (row: RefRow) => readonly string[];
}

function describe(target: Target): string {
  if (target.kind === 'symbol') return `${target.symbol} in ${target.path}`;
  if (target.kind === 'heading') return `section #${target.symbol} of ${target.path}`;
  if (target.kind === 'lines') return `lines ${target.symbol} of ${target.path}`;
  if (target.kind === 'dir') return `folder ${target.path}`;
  if (target.kind === 'mention') return `the lines of ${target.path} that use ${target.symbol}`;
  if (target.kind === 'declared') return `${target.symbol}, declared in ${target.path}`;
  return target.path;
}

function relocationCandidates(ws: Workspace, row: RefRow, target: Target, search: Search): string[] {
  // Same content has the same size: a whole file is looked for only among files of its size.
  const fits = (p: string) =>
    target.kind === 'file' && row.base_size !== null ? ws.stat(p)?.size === row.base_size : ws.isFile(p);
  const out = new Set<string>(search.candidates.filter((p) => p !== target.path && fits(p)));
  if (row.new_path && ws.isFile(row.new_path)) out.add(row.new_path);
  if (search.wide) {
    if (target.kind === 'mention') for (const path of mentionCandidates(ws, target.path)) out.add(path);
    else if (target.kind === 'symbol') {
      for (const site of ws.sitesOf(target.symbol!)) out.add(site.path);
      const pod = POD_ORDINAL.exec(target.symbol!);
      if (pod) for (const site of ws.sitesOf(pod[1])) out.add(site.path);
    } else if (target.kind === 'file' && row.base_size !== null) {
      // A target a check already found gone did not move into a file nobody has written since: that is
      // a copy that was there all along (a page not yet translated in another locale, a template's copy).
      const goneAt = row.state === 'gone' ? Date.parse(row.detected_at) : NaN;
      const since = (p: string) => Number.isNaN(goneAt) || (ws.stat(p)?.mtimeMs ?? 0) > goneAt;
      for (const path of ws.allFiles()) if (ws.stat(path)?.size === row.base_size && since(path)) out.add(path);
    }
  }
  out.delete(target.path);
  for (const sibling of search.siblings?.(row) ?? []) out.delete(sibling);
  return [...out].sort();
}

function folderCandidates(ws: Workspace, path: string, row: RefRow, search: Search): string[] {
  const out = new Set<string>();
  for (const p of search.candidates) for (const dir of parentsOf(p)) out.add(dir);
  if (row.new_path && ws.isDir(row.new_path)) out.add(row.new_path);
  out.delete(path);
  return [...out].filter((d) => !path.startsWith(`${d}/`) && !d.startsWith(`${path}/`)).sort();
}

/** Whether a definition in `candidate` is what the row's symbol was: same language and chart, and a kind it had. */
function sameKind(ws: Workspace, row: RefRow, target: Target, candidate: string): boolean {
  if (languageOf(candidate) !== languageOf(target.path)) return false;
  // A chart's value is that chart's: the same key or template line in another chart is a namesake, not where it
  // went — unless the chart itself is gone (renamed).
  const chart = chartOf(ws, target.path);
  if (chart !== null && ws.isFile(`${chart}/Chart.yaml`) && chartOf(ws, candidate) !== chart) return false;
  const defs = definitionsIn(ws, candidate, target.symbol!, target.finder);
  // A row of an older store (no kind recorded) was fingerprinted before template reads were watched.
  if (row.symbol_kind === null) return defs.some((d) => d.kind !== 'value');
  const had = new Set(row.symbol_kind.split(','));
  return defs.some((d) => had.has(definitionKind(d)));
}

function findLines(ws: Workspace, target: Target, fingerprint: string): string | null {
  const range = lineRange(target.symbol ?? '');
  const text = ws.text(target.path);
  if (!range || text === null) return null;
  const lines = text.split(/\r?\n/);
  const size = range[1] - range[0] + 1;
  for (let start = 0; start + size <= lines.length; start++) {
    if (sha256(lines.slice(start, start + size).join('\n')) === fingerprint)
      return size === 1 ? `L${start + 1}` : `L${start + 1}-L${start + size}`;
  }
  return null;
}

/** The language a definition is written in, by extension family (`.tf`/`.tf.json`, `.yaml`/`.yml`...). */
function languageOf(path: string): string {
  const name = baseName(path).toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  const families: Record<string, string> = {
    yml: 'yaml',
    tsx: 'ts',
    jsx: 'js',
    mjs: 'js',
    cjs: 'js',
    hcl: 'tf',
    tfvars: 'tf',
    bash: 'sh',
    mk: 'makefile',
    gnumakefile: 'makefile',
  };
  return families[ext] ?? ext;
}

export function evaluate(ws: Workspace, row: RefRow, search: Search): RefVerdict | null {
  if (!row.target_path || !row.fingerprint) return null;
  const target: Target = { path: row.target_path, kind: row.target_kind, symbol: row.symbol, finder: row.finder };
  const stat = target.kind === 'dir' ? null : ws.stat(target.path);
  if (
    stat &&
    stat.size === row.size &&
    stat.mtimeMs === row.mtime_ms &&
    row.state !== 'relocated' &&
    row.state !== 'gone'
  )
    return null;
  const keep = { size: stat?.size ?? null, mtime_ms: stat?.mtimeMs ?? null };
  if (target.kind === 'declared') return declaredVerdict(ws, target, keep);
  const hash = targetHash(ws, target);
  if (
    hash === row.fingerprint ||
    (target.kind === 'dir' && legacyDirHash(ws, target) === row.fingerprint) ||
    (target.kind === 'heading' && legacyHeadingHash(ws, target) === row.fingerprint)
  ) {
    return { state: 'current', new_path: null, detail: 'unchanged since it was fingerprinted', ...keep };
  }
  if (hash !== null && target.kind === 'lines') {
    // Lines named by number (`#L70`) shift when code above them changes: the same lines elsewhere in the file have
    // moved.
    const moved = findLines(ws, target, row.fingerprint);
    if (moved)
      return {
        state: 'relocated',
        new_path: `${target.path}#${moved}`,
        detail: `${describe(target)} moved to ${moved}`,
        ...keep,
      };
  }
  // A code comment says where a file is, not what it says: an edit of the file it names leaves the
  // comment true (only a move or a deletion makes it untrue), so an edit is never drift there.
  if (hash !== null && isCodeSource(row.source))
    // Its baseline follows the edit, so a later move is still found by what the file holds then.
    return {
      state: 'current',
      new_path: null,
      detail: 'still there (a code comment names it)',
      fingerprint: hash,
      ...keep,
    };
  if (hash !== null) {
    return {
      state: 'changed',
      new_path: null,
      detail: `${describe(target)} changed since ${target.kind === 'mention' ? 'they were' : 'it was'} fingerprinted`,
      ...keep,
    };
  }
  // A heading renamed: its section, unchanged below it, is on the page under another id (the fix offers it).
  if (hash === null && target.kind === 'heading' && ws.isFile(target.path)) {
    const id = renamedSection(ws, target.path, row.fingerprint);
    if (id && id !== target.symbol)
      return {
        state: 'relocated',
        new_path: `${target.path}#${id}`,
        detail: `heading #${target.symbol} of ${target.path} was renamed: its section is #${id} now`,
        ...keep,
      };
  }
  // Not at its place any more: look for it elsewhere, and say where only when one place fits —
  // copies of the same content (empty files, boilerplate) or a name defined in several files are
  // reported, never guessed.
  const exact: string[] = [];
  const namesakes: string[] = [];
  // A folder renamed holds the same names: it is looked for among the folders of the event's paths
  // only (modules of one monorepo hold the same names, so a scan-wide match would be a guess).
  if (target.kind === 'dir') {
    for (const candidate of folderCandidates(ws, target.path, row, search)) {
      if (targetHash(ws, { ...target, path: candidate }) === row.fingerprint) exact.push(candidate);
    }
  } else {
    for (const candidate of relocationCandidates(ws, row, target, search)) {
      // A symbol moves only to a definition of its own kind: a Terraform variable never becomes a YAML key,
      // nor an output of the same name.
      if (target.kind === 'symbol' && !sameKind(ws, row, target, candidate)) continue;
      const movedHash = targetHash(ws, { ...target, path: candidate });
      if (movedHash === row.fingerprint && row.fingerprint !== EMPTY_PRINT) exact.push(candidate);
      else if (movedHash !== null && target.kind === 'symbol' && definitionsIn(ws, candidate, target.symbol!).length)
        namesakes.push(candidate);
    }
  }
  if (target.kind === 'mention') return mentionGone(ws, target, exact, keep);
  // Where a check already saw it go stays the answer while it holds the same content (a copy elsewhere is no rival).
  if (row.state === 'relocated' && row.new_path && exact.includes(row.new_path))
    exact.splice(0, exact.length, row.new_path);
  if (exact.length === 1)
    return { state: 'relocated', new_path: exact[0], detail: `${describe(target)} moved to ${exact[0]}`, ...keep };
  if (!exact.length && namesakes.length === 1)
    return {
      state: 'relocated',
      new_path: namesakes[0],
      detail: `${describe(target)} moved to ${namesakes[0]}, and its text changed`,
      ...keep,
    };
  // A file a check saw move, edited at its new place since: it still moved there (its fix still holds).
  if (!exact.length && row.state === 'relocated' && row.new_path && target.kind === 'file' && ws.isFile(row.new_path))
    return {
      state: 'relocated',
      new_path: row.new_path,
      detail: `${describe(target)} moved to ${row.new_path}, and was edited there since`,
      ...keep,
    };
  const ambiguous = exact.length ? exact : namesakes;
  const elsewhere = ambiguous.length
    ? `; ${ambiguous.length} files ` +
      `${exact.length ? 'now hold the same content' : `define ${target.symbol}`} ` +
      `(${ambiguous.slice(0, 5).join(', ')}${ambiguous.length > 5 ? ', …' : ''}), ` +
      `so where it went is not guessed`
    : '';
  const fileThere = target.kind !== 'dir' && ws.isFile(target.path);
  const detail = fileThere
    ? target.kind === 'symbol'
      ? `${target.symbol} is no longer defined in ${target.path}`
      : `${describe(target)} is no longer there`
    : `${target.path} was ` +
      `deleted${ambiguous.length ? '' : search.wide || search.candidates.length ? ' and was not found elsewhere' : ''}`;
  return { state: 'gone', new_path: null, detail: detail + elsewhere, ...keep };
}

/**
 * A mention whose lines are no longer in its file: followed when one other file now holds exactly
 * those lines (the file renamed; the document's sentence holds), else gone — the name is no longer used there.
 */
function mentionGone(
  ws: Workspace,
  target: Target,
  exact: readonly string[],
  keep: { size: number | null; mtime_ms: number | null },
): RefVerdict {
  if (exact.length === 1) {
    const stat = ws.stat(exact[0]);
    return {
      state: 'current',
      new_path: null,
      target_path: exact[0],
      detail: `followed to ${exact[0]}: the lines that use ${target.symbol} moved there unchanged`,
      size: stat?.size ?? null,
      mtime_ms: stat?.mtimeMs ?? null,
    };
  }
  const detail = ws.isFile(target.path)
    ? `${target.symbol} is no longer used in ${target.path}`
    : `${target.path} was deleted, and no file beside it holds its lines that used ${target.symbol}`;
  const elsewhere = exact.length ? `; ${exact.length} files now hold them (${exact.slice(0, 5).join(', ')})` : '';
  return { state: 'gone', new_path: null, detail: detail + elsewhere, ...keep };
}

/** The symbol is unchanged and `finder` fingerprinted it again: its span becomes the baseline. */
function rebaselined(ws: Workspace, target: Target, finder: string, stat: FileStat, fingerprint: string): RefVerdict {
  return {
    state: 'current',
    new_path: null,
    detail: `fingerprinted again by ${finder}; unchanged`,
    size: stat.size,
    mtime_ms: stat.mtimeMs,
    fingerprint,
    finder,
    symbol_kind: kindsOf(definitionsIn(ws, target.path, target.symbol!, finder)),
  };
}

/**
 * A row written before kinds were recorded gets them once its symbol is found current: the definitions
 * there now are the ones it was fingerprinted from.
 */
function withKinds(ws: Workspace, row: RefRow, verdict: RefVerdict | null): RefVerdict | null {
  if (row.target_kind !== 'symbol' || row.symbol_kind !== null || !row.target_path || !row.symbol) return verdict;
  if ((verdict?.state ?? row.state) !== 'current') return verdict;
  const kinds = kindsOf(definitionsIn(ws, row.target_path, row.symbol, row.finder));
  if (!kinds) return verdict;
  const kept = { state: row.state, new_path: row.new_path, detail: row.detail, size: row.size, mtime_ms: row.mtime_ms };
  return { ...(verdict ?? kept), symbol_kind: kinds };
}

/**
 * Classifies a row with the finder that fingerprinted it (the rules: the header of finders.ts).
 * With `rebaseline`, a row may move to the finder available now; without it (a recall's read-only
 * look) it never does.
 */
export function evaluateWithFinder(ws: Workspace, row: RefRow, search: Search, rebaseline: boolean): RefVerdict | null {
  if (row.target_kind !== 'symbol' || !row.target_path || !row.fingerprint || !row.symbol)
    return evaluate(ws, row, search);
  const recorded = row.finder ?? PATTERN_FINDER;
  const available = ws.parserFinder(row.target_path);
  const stat = ws.stat(row.target_path);
  const target: Target = { path: row.target_path, kind: 'symbol', symbol: row.symbol };
  if (recorded !== PATTERN_FINDER && recorded !== available) {
    // The file as it was when last found current, and a finder that locates the symbol: nothing
    // changed, so the new finder's span becomes the baseline.
    const unchanged =
      row.state === 'current' && stat !== null && stat.size === row.size && stat.mtimeMs === row.mtime_ms;
    if (rebaseline && unchanged && available) {
      const fingerprint = targetHash(ws, { ...target, finder: available });
      if (fingerprint) return rebaselined(ws, target, available, stat, fingerprint);
    }
    const note = available ? `${available} is loaded, not ${recorded}` : `${recorded} is not loaded yet`;
    return {
      state: row.state,
      new_path: row.new_path,
      detail: row.state === 'current' ? `not re-checked: ${note}` : row.detail,
      size: row.size,
      mtime_ms: row.mtime_ms,
    };
  }
  if (rebaseline && recorded === PATTERN_FINDER && available && row.state === 'current' && stat) {
    const unchanged = targetHash(ws, { ...target, finder: PATTERN_FINDER }) === row.fingerprint;
    const fingerprint = unchanged ? targetHash(ws, { ...target, finder: available }) : null;
    if (fingerprint) return rebaselined(ws, target, available, stat, fingerprint);
  }
  const verdict = evaluate(ws, row, search);
  return rebaseline ? withKinds(ws, row, verdict) : verdict;
}
