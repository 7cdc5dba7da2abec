// What an index holds, per document, as one digest: the document's row (kind, confidence, runner-up,
// signals, title, content hash, size, redactions), its chunks (headings, lines, text) and the drift
// references it makes (target, fingerprint, state, detail, finder). Times and modification times are
// left out. Two stores whose digests are equal indexed the same tree the same way: the check that
// the indexer's speed work (extract once, lazy symbols, batched writes) changed no result.

import { createHash } from 'node:crypto';
import { WasmSqlDatabase } from '../../src/host/sqlite';

const DOC = `SELECT id, path, kind, kind_confidence, kind_runner_up, kind_signals, title, content_hash, size, redactions
  FROM docs ORDER BY path`;
const CHUNKS = 'SELECT doc_id, ord, title, heading, start_line, end_line, text FROM doc_chunks ORDER BY doc_id, ord';
const REFS = `SELECT source, line, raw, form, target_path, target_kind, symbol, fingerprint, base_size, state, old_path,
  new_path, detail, finder, symbol_kind, command, already_broken FROM drift_refs WHERE source_kind = 'doc'
  ORDER BY source, line, raw, target_path, target_kind, symbol`;

export function indexDigest(database: string): Record<string, string> {
  const db = new WasmSqlDatabase(database);
  try {
    const docs = db.all<Record<string, unknown> & { id: number; path: string }>(DOC);
    const chunks = new Map<number, unknown[]>();
    for (const c of db.all<Record<string, unknown> & { doc_id: number }>(CHUNKS)) {
      const { doc_id, ...rest } = c;
      chunks.set(doc_id, [...(chunks.get(doc_id) ?? []), rest]);
    }
    const refs = new Map<string, unknown[]>();
    for (const r of db.all<Record<string, unknown> & { source: string }>(REFS)) {
      const { source, ...rest } = r;
      refs.set(source, [...(refs.get(source) ?? []), rest]);
    }
    const out: Record<string, string> = {};
    for (const { id, path, ...doc } of docs) {
      const whole = JSON.stringify({ doc, chunks: chunks.get(id) ?? [], refs: refs.get(path) ?? [] });
      out[path] = createHash('sha256').update(whole).digest('hex').slice(0, 16);
    }
    // References of sources that are not indexed documents (none expected, but they would show here).
    for (const [source, rows] of refs)
      if (!(source in out)) out[`refs:${source}`] = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
    return out;
  } finally {
    db.close();
  }
}
