// Drift's table: one row per (referring source, reference, target), keyed for the two questions
// asked most — "what refers to this path" (a save) and "what does this record refer to" (recall).
// The fingerprint is the baseline (first seen or last re-verified); the state is the latest check.

import type { SqlDatabase } from '../ports';
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
  /** For a symbol: the finder whose spans the fingerprint covers (`pattern`, `tree-sitter:go`); null: the patterns (finders.ts). */
  finder: string | null;
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
  return byId(inParts(sources, (part) => db.all<RefRow>(`SELECT * FROM drift_refs WHERE source_kind = ? AND source IN (${part.map(() => '?').join(', ')})`, [kind, ...part])));
}

/** References whose target (or the place it moved to) is one of `paths`. */
export function refsTargeting(db: SqlDatabase, paths: readonly string[]): RefRow[] {
  return byId(
    inParts(paths, (part) => {
      const marks = part.map(() => '?').join(', ');
      return db.all<RefRow>(`SELECT * FROM drift_refs WHERE target_path IN (${marks}) OR new_path IN (${marks})`, [...part, ...part]);
    }),
  );
}

export function allRefs(db: SqlDatabase): RefRow[] {
  return db.all<RefRow>('SELECT * FROM drift_refs ORDER BY id');
}

export function insertRef(db: SqlDatabase, row: NewRef): number {
  return db.run(
    `INSERT INTO drift_refs (source_kind, source, line, raw, form, target_path, target_kind, symbol, fingerprint,
       base_size, size, mtime_ms, state, old_path, new_path, detail, detected_at, checked_at, verified_at, verified_by,
       finder)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [row.source_kind, row.source, row.line, row.raw, row.form, row.target_path, row.target_kind, row.symbol, row.fingerprint, row.base_size, row.size, row.mtime_ms, row.state, row.old_path, row.new_path, row.detail, row.detected_at, row.checked_at, row.verified_at, row.verified_by, row.finder ?? null],
  ).lastInsertRowid;
}

export function updateRef(db: SqlDatabase, row: RefRow): void {
  db.run(
    `UPDATE drift_refs SET line = ?, target_path = ?, target_kind = ?, symbol = ?, fingerprint = ?, base_size = ?, size = ?, mtime_ms = ?, state = ?, old_path = ?, new_path = ?, detail = ?, detected_at = ?, checked_at = ?, verified_at = ?, verified_by = ?, finder = ? WHERE id = ?`,
    [row.line, row.target_path, row.target_kind, row.symbol, row.fingerprint, row.base_size, row.size, row.mtime_ms, row.state, row.old_path, row.new_path, row.detail, row.detected_at, row.checked_at, row.verified_at, row.verified_by, row.finder ?? null, row.id],
  );
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
    source: row.source_kind === 'memory' ? { kind: 'memory', key: row.source } : { kind: 'doc', path: row.source, line: row.line },
    reference: { raw: row.raw, form: row.form, target_path: row.target_path, symbol: row.symbol },
    state: row.state,
    evidence: {
      ...(row.old_path ? { old_path: row.old_path } : {}),
      ...(row.new_path ? { new_path: row.new_path } : {}),
      detail: row.detail,
    },
    detected_at: row.detected_at,
  };
}
