// What is anchored to one workspace file, for the editor's lens and hover: the live memories whose
// anchors point into it and the ADRs that refer to it, each with the symbol it names (null: the
// whole file) and that reference's drift state. Composed here, above the features: drift knows the
// references (indexed by target path), memory the records, indexing the documents.

import type { DriftFinding, DriftState } from './drift/types';
import type { DocSummary } from './indexing/docList';
import type { MemorySummary, Status } from './model/types';

export interface AnchoredRecord {
  source: 'memory' | 'doc';
  /** The memory's key, or the document's workspace-relative path. */
  id: string;
  /** A memory's type (`dead_end`) or a document's kind (`adr`). */
  kind: string;
  title: string;
  description: string;
  /** A memory's status; a document's is `active`. */
  status: Status;
  /** The symbol or heading in the file the reference names; null for the file as a whole. */
  symbol: string | null;
  /** The reference's drift state, and its finding id (for re-verifying a document's reference). */
  state: DriftState;
  finding: string;
  /** What drift found, when the state is not current. */
  detail: string;
}

/** The document kinds shown where their references point (a README mentioning a file is not). */
export const ANCHORED_DOC_KINDS: readonly string[] = ['adr'];

/**
 * One record per (source, symbol) among `findings` (the references into `path`): a memory's anchors
 * only (not its links), a document's references of any form. The worst state wins for a pair.
 */
export function anchoredRecords(
  path: string,
  findings: readonly DriftFinding[],
  memories: readonly MemorySummary[],
  docs: readonly DocSummary[],
): AnchoredRecord[] {
  const memoryByKey = new Map(memories.map((m) => [m.key, m]));
  const docByPath = new Map(docs.filter((d) => ANCHORED_DOC_KINDS.includes(d.kind)).map((d) => [d.path, d]));
  const out = new Map<string, AnchoredRecord>();
  for (const f of findings) {
    const here = f.reference.target_path === path || f.evidence.new_path === path;
    if (!here) continue;
    const symbol = f.reference.target_path === path ? (f.reference.symbol ?? null) : null;
    let record: AnchoredRecord | undefined;
    if (f.source.kind === 'memory') {
      const m = f.reference.form === 'anchor' ? memoryByKey.get(f.source.key ?? '') : undefined;
      if (m)
        record = {
          source: 'memory',
          id: m.key,
          kind: m.type,
          title: m.title,
          description: m.description,
          status: m.status,
          symbol,
          state: f.state,
          finding: f.id,
          detail: f.evidence.detail,
        };
    } else {
      const d = docByPath.get(f.source.path ?? '');
      if (d && d.path !== path)
        record = {
          source: 'doc',
          id: d.path,
          kind: d.kind,
          title: d.title,
          description: '',
          status: 'active',
          symbol,
          state: f.state,
          finding: f.id,
          detail: f.evidence.detail,
        };
    }
    if (!record) continue;
    const at = `${record.source}\0${record.id}\0${symbol ?? ''}`;
    const before = out.get(at);
    if (!before || (before.state === 'current' && record.state !== 'current')) out.set(at, record);
  }
  return [...out.values()];
}

/** The sources of `findings` that are memories and documents, to look up in one read each. */
export function sourcesOf(findings: readonly DriftFinding[]): { keys: string[]; docs: string[] } {
  const keys = new Set<string>();
  const docs = new Set<string>();
  for (const f of findings) {
    if (f.source.kind === 'memory' && f.source.key) keys.add(f.source.key);
    if (f.source.kind === 'doc' && f.source.path) docs.add(f.source.path);
  }
  return { keys: [...keys], docs: [...docs] };
}
