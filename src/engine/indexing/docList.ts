// Listing indexed documents page by page (the editor's "Runbooks & Docs" view): path, kind, title,
// when indexed. Never the text; a reader asks for a file by its path.

import { DOC_KINDS } from './kinds';
import { LIMITS } from '../model/limits';
import { optionalInteger, requireEnum } from '../model/validate';
import type { SqlDatabase } from '../ports';
import type { DocKind } from './kinds';

export interface ListDocsInput {
  kinds?: string[];
  offset?: number;
  limit?: number;
}

export interface DocSummary {
  path: string;
  kind: DocKind;
  title: string;
  size: number;
  indexed_at: string;
}

export interface ListDocsResult {
  items: DocSummary[];
  total: number;
  offset: number;
  next_offset: number | null;
}

export function listDocs(db: SqlDatabase, input: ListDocsInput = {}): ListDocsResult {
  const kinds = (input.kinds ?? []).map((k) => requireEnum('kind', k, DOC_KINDS));
  const offset = optionalInteger('offset', input.offset, 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = optionalInteger('limit', input.limit, 1, LIMITS.listMax) ?? LIMITS.listDefault;
  const clause = kinds.length ? `WHERE kind IN (${kinds.map(() => '?').join(', ')})` : '';
  const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM docs ${clause}`, kinds)?.n ?? 0;
  const items = db.all<DocSummary>(`SELECT path, kind, title, size, indexed_at FROM docs ${clause} ORDER BY path LIMIT ? OFFSET ?`, [...kinds, limit, offset]);
  return { items, total, offset, next_offset: offset + items.length < total ? offset + items.length : null };
}
