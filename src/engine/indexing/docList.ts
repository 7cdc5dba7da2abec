// Listing indexed documents page by page (the editor's "Runbooks & Docs" view): path, kind, title,
// when indexed. Never the text; a reader asks for a file by its path.

import { DOC_KINDS } from '../model/kinds';
import { LIMITS } from '../model/limits';
import { optionalInteger, requireEnum } from '../model/validate';
import { LoreError } from '../errors';
import type { SqlDatabase } from '../ports';
import type { DocKind } from '../model/kinds';
import type { KindMatcher } from './kindCorrections';

export interface ListDocsInput {
  kinds?: string[];
  /** Only these workspace-relative paths (at most LIMITS.listMax): what kind of doc each one is. */
  paths?: string[];
  offset?: number;
  limit?: number;
}

export interface DocSummary {
  path: string;
  kind: DocKind;
  title: string;
  size: number;
  indexed_at: string;
  /** The kind's probability (1: by definition; null: indexed before the kind model). */
  kind_confidence: number | null;
  /** A close runner-up kind, where the kind was a close call. */
  kind_runner_up: DocKind | null;
  /** The signals that decided the kind, in plain words, '; '-separated. */
  kind_signals: string | null;
  /** The `.lore/kinds` glob that set this document's kind, when a person's rule did. */
  kind_rule?: string;
}

export interface ListDocsResult {
  items: DocSummary[];
  total: number;
  offset: number;
  next_offset: number | null;
}

/** `rules`: the `.lore/kinds` rules the stored kinds reflect, to say which documents a person's rule set. */
export function listDocs(db: SqlDatabase, input: ListDocsInput = {}, rules?: KindMatcher): ListDocsResult {
  const kinds = (input.kinds ?? []).map((k) => requireEnum('kind', k, DOC_KINDS));
  const offset = optionalInteger('offset', input.offset, 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = optionalInteger('limit', input.limit, 1, LIMITS.listMax) ?? LIMITS.listDefault;
  const paths = optionalPaths(input.paths);
  const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
  const where = [
    ...(kinds.length ? [`kind IN (${marks(kinds.length)})`] : []),
    ...(paths ? [`path IN (${marks(paths.length)})`] : []),
  ];
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const params = [...kinds, ...(paths ?? [])];
  const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM docs ${clause}`, params)?.n ?? 0;
  const items = db.all<DocSummary>(
    'SELECT path, kind, title, size, indexed_at, kind_confidence, kind_runner_up, kind_signals ' +
      `FROM docs ${clause} ORDER BY path LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  for (const item of items) {
    const rule = rules?.ruleFor(item.path);
    if (rule && rule.kind === item.kind) item.kind_rule = rule.glob;
  }
  return { items, total, offset, next_offset: offset + items.length < total ? offset + items.length : null };
}

function optionalPaths(value: unknown): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'string')) {
    throw new LoreError('INVALID_INPUT', 'paths must be a list of workspace-relative paths');
  }
  if (value.length > LIMITS.listMax) {
    const message = `paths names ${value.length} files; at most ${LIMITS.listMax} at a time`;
    throw new LoreError('INVALID_INPUT', message, 'ask in parts');
  }
  return value as string[];
}
