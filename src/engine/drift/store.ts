// Drift's table: one row per (referring source, reference, target), keyed for the two questions
// asked most — "what refers to this path" (a save) and "what does this record refer to" (recall).
// The fingerprint is the baseline (first seen or last re-verified); the state is the latest check.

import { LIVE_STATUSES } from '../model/types';
import type { SqlDatabase } from '../ports';
import type { DocKind } from '../model/kinds';
import type { DriftFinding, DriftState, TargetKind } from './types';

export interface RefRow {
  id: number;
  source_kind: 'memory' | 'doc';
  source: string;
  line: number;
  raw: string;
  form: string;
  target_path: string | null;
  target_kind: TargetKind;
  symbol: string | null;
  fingerprint: string | null;
  /** Size of the target when its fingerprint was taken: a moved file is looked for among files of this size. */
  base_size: number | null;
  /** The target's stat at the last check: unchanged, the file is not read again. */
  size: number | null;
  mtime_ms: number | null;
  state: DriftState;
  old_path: string | null;
  new_path: string | null;
  detail: string;
  detected_at: string;
  checked_at: string;
  verified_at: string | null;
  verified_by: string | null;
  /**
   * For a symbol: the finder whose spans the fingerprint covers (`pattern`, `tree-sitter:go`); null: the patterns
   * (finders.ts).
   */
  finder: string | null;
  /**
   * For a symbol: the kinds of its definitions when fingerprinted (`terraform variable`, `key`...), so it
   * relocates only to a definition of the same kind; null: not known (rows of an older store, until checked).
   */
  symbol_kind: string | null;
  /** For a flag: the program its command line runs, as written (one reference per flag and program). */
  command: string | null;
  /** 1: already broken when first seen, in a document not written since drift started (not drift caused since). */
  already_broken: number;
}

export type NewRef = Omit<RefRow, 'id'>;

export function refsOfSource(db: SqlDatabase, kind: 'memory' | 'doc', source: string): RefRow[] {
  return db.all<RefRow>('SELECT * FROM drift_refs WHERE source_kind = ? AND source = ? ORDER BY id', [kind, source]);
}

/** SQLite caps the parameters of one statement: long lists (a branch switch's paths) are asked in parts. */
const PART = 500;

export function inParts<T>(values: readonly string[], query: (part: string[]) => T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += PART) out.push(...query(values.slice(i, i + PART)));
  return out;
}

function byId(rows: RefRow[]): RefRow[] {
  const seen = new Set<number>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id)).sort((a, b) => a.id - b.id);
}

export function refsOfSources(db: SqlDatabase, kind: 'memory' | 'doc', sources: readonly string[]): RefRow[] {
  return byId(
    inParts(sources, (part) =>
      db.all<RefRow>(
        `SELECT * FROM drift_refs WHERE source_kind = ? AND source IN (${part.map(() => '?').join(', ')})`,
        [kind, ...part],
      ),
    ),
  );
}

/** References whose target (or the place it moved to) is one of `paths`. */
export function refsTargeting(db: SqlDatabase, paths: readonly string[]): RefRow[] {
  return byId(
    inParts(paths, (part) => {
      const marks = part.map(() => '?').join(', ');
      return db.all<RefRow>(`SELECT * FROM drift_refs WHERE target_path IN (${marks}) OR new_path IN (${marks})`, [
        ...part,
        ...part,
      ]);
    }),
  );
}

export function allRefs(db: SqlDatabase): RefRow[] {
  return db.all<RefRow>('SELECT * FROM drift_refs ORDER BY id');
}

/** The columns a check rewrites; a reference's source, text and form are fixed when it is extracted. */
const CHECKED_COLUMNS = [
  'line',
  'target_path',
  'target_kind',
  'symbol',
  'fingerprint',
  'base_size',
  'size',
  'mtime_ms',
  'state',
  'old_path',
  'new_path',
  'detail',
  'detected_at',
  'checked_at',
  'verified_at',
  'verified_by',
  'finder',
  'symbol_kind',
  'already_broken',
] as const satisfies readonly (keyof RefRow)[];
const INSERTED_COLUMNS = ['source_kind', 'source', 'raw', 'form', 'command', ...CHECKED_COLUMNS] as const;

const valuesOf = (row: NewRef, columns: readonly (keyof NewRef)[]) => columns.map((c) => row[c] ?? null);

export function insertRef(db: SqlDatabase, row: NewRef): number {
  const marks = INSERTED_COLUMNS.map(() => '?').join(', ');
  return db.run(
    `INSERT INTO drift_refs (${INSERTED_COLUMNS.join(', ')}) VALUES (${marks})`,
    valuesOf(row, INSERTED_COLUMNS),
  ).lastInsertRowid;
}

export function updateRef(db: SqlDatabase, row: RefRow): void {
  const sets = CHECKED_COLUMNS.map((c) => `${c} = ?`).join(', ');
  db.run(`UPDATE drift_refs SET ${sets} WHERE id = ?`, [...valuesOf(row, CHECKED_COLUMNS), row.id]);
}

export function deleteRefs(db: SqlDatabase, ids: readonly number[]): void {
  for (let i = 0; i < ids.length; i += PART) {
    const part = ids.slice(i, i + PART);
    db.run(`DELETE FROM drift_refs WHERE id IN (${part.map(() => '?').join(', ')})`, [...part]);
  }
}

export function deleteSource(db: SqlDatabase, kind: 'memory' | 'doc', source: string): void {
  db.run('DELETE FROM drift_refs WHERE source_kind = ? AND source = ?', [kind, source]);
}

export function toFinding(row: RefRow): DriftFinding {
  return {
    id: `ref-${row.id}`,
    source:
      row.source_kind === 'memory'
        ? { kind: 'memory', key: row.source }
        : { kind: 'doc', path: row.source, line: row.line },
    reference: { raw: row.raw, form: row.form, target_path: row.target_path, symbol: row.symbol },
    state: row.state,
    evidence: {
      ...(row.old_path ? { old_path: row.old_path } : {}),
      ...(row.new_path ? { new_path: row.new_path } : {}),
      detail: row.detail,
    },
    detected_at: row.detected_at,
    ...(row.already_broken ? { already_broken: true } : {}),
  };
}

/** "Not about this file": the reference `raw` of document `source` is never tied to `target` again. */
export function dismissTie(db: SqlDatabase, source: string, raw: string, target: string, at: string, by: string): void {
  db.run(
    'INSERT INTO drift_dismissals (source, raw, target_path, dismissed_at, dismissed_by) VALUES (?, ?, ?, ?, ?) ' +
      'ON CONFLICT (source, raw, target_path) DO NOTHING',
    [source, raw, target, at, by],
  );
}

/** The targets each reference of a document was dismissed from, as `raw\u0000target`. */
export function dismissedTies(db: SqlDatabase, source: string): Set<string> {
  return new Set(
    db
      .all<{ raw: string; target_path: string }>('SELECT raw, target_path FROM drift_dismissals WHERE source = ?', [
        source,
      ])
      .map((r) => `${r.raw}\u0000${r.target_path}`),
  );
}

/** When drift first stored anything here: a document not written since holds what was already there. */
export function driftSince(db: SqlDatabase, now: string): string {
  const known = db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'drift.since'")?.value;
  if (known) return known;
  db.run("INSERT INTO meta (name, value) VALUES ('drift.since', ?)", [now]);
  return now;
}

/** The memories whose references drift tracks: the live ones and those waiting in quarantine. */
export const TRACKED_STATUSES: readonly string[] = [...LIVE_STATUSES, 'quarantined'];
const TRACKED_SQL = `(${TRACKED_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** A memory's anchors and links as stored (JSON arrays), with its status. */
export interface MemoryAnchors {
  anchors: string;
  links: string;
}

/** The remotes same-repository URLs were last resolved with (JSON), if recorded. */
export function knownRemotes(db: SqlDatabase): string | undefined {
  return db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'drift.remotes'")?.value;
}

export function saveRemotes(db: SqlDatabase, remotes: string): void {
  db.run(
    "INSERT INTO meta (name, value) VALUES ('drift.remotes', ?) ON " +
      'CONFLICT (name) DO UPDATE SET value = excluded.value',
    [remotes],
  );
}

/** Documents' URL references, oldest first. */
export function docUrlRefs(db: SqlDatabase): RefRow[] {
  return db.all<RefRow>("SELECT * FROM drift_refs WHERE form = 'url' AND source_kind = 'doc' ORDER BY id");
}

/** Every source (document path or memory key) that has references of this kind. */
export function sourcesOf(db: SqlDatabase, kind: 'memory' | 'doc'): string[] {
  return db
    .all<{ source: string }>('SELECT DISTINCT source FROM drift_refs WHERE source_kind = ?', [kind])
    .map((r) => r.source);
}

/** The current memories drift tracks, with their anchors and links. */
export function trackedMemories(db: SqlDatabase): (MemoryAnchors & { key: string })[] {
  return db.all<MemoryAnchors & { key: string }>(
    `SELECT key, anchors, links FROM memories WHERE is_current = 1 AND status IN ${TRACKED_SQL}`,
  );
}

/** One tracked memory's anchors and links, or undefined when it is not current and tracked. */
export function trackedMemory(db: SqlDatabase, key: string): MemoryAnchors | undefined {
  return db.get<MemoryAnchors>(
    `SELECT anchors, links FROM memories WHERE key = ? AND is_current = 1 AND status IN ${TRACKED_SQL}`,
    [key],
  );
}

/** A current memory's anchors, links and status, whatever the status. */
export function currentMemoryAnchors(db: SqlDatabase, key: string): (MemoryAnchors & { status: string }) | undefined {
  return db.get<MemoryAnchors & { status: string }>(
    'SELECT anchors, links, status FROM memories WHERE key = ? AND is_current = 1',
    [key],
  );
}

/** References found broken, by source. */
export function brokenRefs(db: SqlDatabase): { source_kind: 'memory' | 'doc'; source: string; raw: string }[] {
  return db.all("SELECT source_kind, source, raw FROM drift_refs WHERE state = 'broken'");
}

/** Where else the same written reference of the same source points (a name several files match). */
export function siblingTargets(db: SqlDatabase, row: RefRow): string[] {
  return db
    .all<{ target_path: string }>(
      'SELECT target_path FROM drift_refs WHERE source_kind = ? AND ' +
        'source = ? AND raw = ? AND id <> ? AND target_path IS NOT NULL',
      [row.source_kind, row.source, row.raw, row.id],
    )
    .map((r) => r.target_path);
}

/** The kind the index stored for a document (a person's `.lore/kinds` rule included), if it is indexed. */
export function storedDocKind(db: SqlDatabase, path: string): DocKind | undefined {
  return db.get<{ kind: DocKind }>('SELECT kind FROM docs WHERE path = ?', [path])?.kind;
}

/** Indexed files whose content hash is one of `hashes` (the index knows every file's hash). */
export function docsWithContent(db: SqlDatabase, hashes: string[]): string[] {
  return inParts(hashes, (part) =>
    db.all<{ path: string }>(`SELECT path FROM docs WHERE content_hash IN (${part.map(() => '?').join(', ')})`, part),
  ).map((d) => d.path);
}

/** References of a memory key and/or about a path, in the given states, in source order. */
export function refsMatching(
  db: SqlDatabase,
  filter: { key?: string; path?: string; states: readonly DriftState[]; fresh?: boolean },
): RefRow[] {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.key) {
    where.push("source_kind = 'memory' AND source = ?");
    params.push(filter.key);
  }
  if (filter.path) {
    where.push("((source_kind = 'doc' AND source = ?) OR target_path = ? OR new_path = ?)");
    params.push(filter.path, filter.path, filter.path);
  }
  where.push(`state IN (${filter.states.map(() => '?').join(', ')})`);
  params.push(...filter.states);
  if (filter.fresh) where.push('already_broken = 0');
  // Drift caused since Lore started comes first, then what was already broken.
  return db.all<RefRow>(
    `SELECT * FROM drift_refs WHERE ${where.join(' AND ')} ORDER BY already_broken, source_kind, source, line, id`,
    params,
  );
}

export function refById(db: SqlDatabase, id: number): RefRow | undefined {
  return db.get<RefRow>('SELECT * FROM drift_refs WHERE id = ?', [id]);
}
