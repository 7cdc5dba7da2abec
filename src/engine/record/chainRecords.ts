// The memory rows against the audit chain. Replaying the chain gives, per key digest, the version
// and content last written, the state (status and provenance digest) last recorded, and whether
// the key was forgotten; a row the chain does not account for — deleted, re-inserted after a
// forget, inserted outside Lore, or with another version, content or state — is a problem.
// docs/audit-log.md states the rules, and scripts/verifyAudit.mjs applies the same ones.

import { stateDigest } from './state';
import type { SqlDatabase } from '../ports';
import type { AuditEvent, AuditProblem } from './audit';
import { sha256 } from '../model/digest';

/** Events that write a new version of a record: its version and digests.content are what the row must hold. */
export const WRITE_EVENTS: readonly string[] = ['memory.create', 'memory.update', 'memory.import'];

interface Written {
  seq: number;
  version: number;
  content: string;
  state: string | null;
  stateSeq: number;
  /** Every version written since the key was last forgotten, with its content digest. */
  versions: Map<number, string>;
}

interface ChainView {
  written: Map<string, Written>;
  forgotten: Map<string, number>;
}

function parseDigests(event: Pick<AuditEvent, 'digests'>): Record<string, unknown> {
  try {
    const value = JSON.parse(event.digests) as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function replay(events: AuditEvent[]): ChainView {
  const written = new Map<string, Written>();
  const forgotten = new Map<string, number>();
  for (const event of events) {
    const k = event.key_digest;
    if (!k) continue;
    const digests = parseDigests(event);
    const state = typeof digests.state === 'string' ? digests.state : null;
    if (event.event === 'memory.forget') {
      written.delete(k);
      forgotten.set(k, event.seq);
    } else if (WRITE_EVENTS.includes(event.event) && event.version !== null && typeof digests.content === 'string') {
      const versions = written.get(k)?.versions ?? new Map<number, string>();
      versions.set(event.version, digests.content);
      const { seq, version } = event;
      written.set(k, { seq, version, content: digests.content, state, stateSeq: seq, versions });
      forgotten.delete(k);
    } else if (state !== null) {
      const w = written.get(k);
      // A status change of the current version (deprecate, supersede, promote, reverify, …).
      if (w && event.version === w.version) Object.assign(w, { state, stateSeq: event.seq });
    }
  }
  return { written, forgotten };
}

export interface ChainRow {
  key: string;
  version: number;
  is_current: number;
  content_digest: string;
  status: string;
  provenance: string;
}

function rowStateDigest(row: ChainRow): string | null {
  try {
    return stateDigest({ status: row.status, provenance: JSON.parse(row.provenance) });
  } catch {
    return null;
  }
}

/** Problems between the memory rows and the chain, in chain order (rows the chain never saw first). */
export function compareRowsWithChain(
  rows: readonly ChainRow[],
  events: AuditEvent[],
  historyKeys: () => string[],
): AuditProblem[] {
  const { written, forgotten } = replay(events);
  const problems: AuditProblem[] = [];
  const live = new Set<string>();
  // Key text for a digest whose rows are gone, from whatever trace of the key is left.
  const named = new Map<string, string>();
  for (const row of rows) {
    const k = sha256(row.key);
    named.set(k, row.key);
    const w = written.get(k);
    const name = `${row.key} v${row.version}`;
    const report = (seq: number, problem: string) =>
      problems.push({ seq, key: row.key, problem: `${name} ${problem}` });
    if (!w) {
      const at = forgotten.get(k);
      if (at !== undefined) report(at, `was forgotten at event ${at}, but its row is back (re-inserted outside Lore)`);
      else report(0, 'is in no event of the audit chain (its row was inserted outside Lore)');
      continue;
    }
    if (row.is_current !== 1) {
      if (w.versions.get(row.version) !== row.content_digest) {
        report(
          w.seq,
          'is archived but is not a version the chain records (its row was inserted or edited outside Lore)',
        );
      }
      continue;
    }
    if (live.has(k)) {
      report(w.seq, `is a second current version of ${row.key} (its row was edited outside Lore)`);
      continue;
    }
    live.add(k);
    if (row.version !== w.version || row.content_digest !== w.content) {
      report(w.seq, `is not the version event ${w.seq} wrote (v${w.version}); its row was replaced outside Lore`);
    } else if (w.state !== null && rowStateDigest(row) !== w.state) {
      const what = `reads ${row.status}, but its status or provenance is not what event ${w.stateSeq} recorded`;
      report(w.stateSeq, `${what} (changed outside Lore)`);
    }
  }
  let eventKeys: Map<string, string> | undefined;
  for (const [k, w] of written) {
    if (live.has(k)) continue;
    eventKeys ??= new Map(historyKeys().map((key) => [sha256(key), key]));
    const key = named.get(k) ?? eventKeys.get(k);
    const name = key ? `${key} v${w.version}` : `the record with key digest ${k.slice(0, 16)}… (v${w.version})`;
    const problem = `${name}, written at event ${w.seq}, has no current row (deleted outside Lore)`;
    problems.push({ seq: w.seq, key: key ?? null, problem });
  }
  return problems.sort((a, b) => a.seq - b.seq);
}

/** The SQLite store's rows as the chain is compared with them (key, version order). */
export function chainRows(db: SqlDatabase): ChainRow[] {
  return db.all<ChainRow>(
    'SELECT key, version, is_current, content_digest, status, provenance FROM memories ORDER BY key, version',
  );
}

/** The keys the SQLite store's lifecycle history names. */
export function historyKeys(db: SqlDatabase): string[] {
  return db.all<{ key: string }>('SELECT DISTINCT key FROM memory_events').map((e) => e.key);
}
