// The audit chain: every write appends an event (type, key digest, actor, digests, time) whose
// hash covers the previous event's hash, so an edited, deleted or reordered event breaks the
// chain. Raw content never enters the chain, not even the key (keys are made from titles), so
// forget leaves only digests behind; sha256(key) lets anyone who knows a key find its events.
// Verifying also compares the memory rows with what the chain recorded (chainRecords.ts).

import type { Actor, SqlDatabase } from '../ports';
import { chainRows, compareRowsWithChain, historyKeys, type ChainRow } from './chainRecords';
import { canonicalJson, sha256 } from '../model/digest';
import type { AuditCheckpoint, AuditEvent, AuditEventInput, AuditProblem, AuditVerdict } from './auditTypes';

export type { AuditCheckpoint, AuditEvent, AuditEventInput, AuditProblem, AuditVerdict } from './auditTypes';

export const GENESIS_HASH = '0'.repeat(64);

export function actorLabel(actor: Actor): string {
  return `${actor.door}:${actor.name}`;
}

/** The hashed form of an event: the same fields an independent verifier recomputes. */
export function eventHash(event: Omit<AuditEvent, 'hash'>): string {
  const { prev_hash, ...fields } = event;
  return sha256(`${prev_hash}\n${canonicalJson(fields)}`);
}

/** The event that follows `last` on a chain: the one rule for an event's fields and hash, in every store. */
export function nextAuditEvent(
  last: { seq: number; hash: string } | undefined,
  actor: Actor,
  at: string,
  input: AuditEventInput,
): AuditEvent {
  const unhashed = {
    seq: (last?.seq ?? 0) + 1,
    at,
    event: input.event,
    key_digest: input.key ? sha256(input.key) : null,
    version: input.version ?? null,
    actor: actorLabel(actor),
    digests: canonicalJson(input.digests ?? {}),
    prev_hash: last?.hash ?? GENESIS_HASH,
  };
  return { ...unhashed, hash: eventHash(unhashed) };
}

export function appendAudit(db: SqlDatabase, actor: Actor, at: string, input: AuditEventInput): AuditEvent {
  const last = db.get<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1');
  const event = nextAuditEvent(last, actor, at, input);
  db.run(
    'INSERT INTO audit_events (seq, at, event, key_digest, version, ' +
      'actor, digests, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ' +
      '?)',
    [
      event.seq,
      event.at,
      event.event,
      event.key_digest,
      event.version,
      event.actor,
      event.digests,
      event.prev_hash,
      event.hash,
    ],
  );
  // The head is kept apart from the rows so that deleting the newest events is noticed too.
  db.run(
    "INSERT INTO meta (name, value) VALUES ('audit_head', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    [`${event.seq}:${event.hash}`],
  );
  return event;
}

export function auditHead(db: SqlDatabase): { seq: number; hash: string } {
  const last = db.get<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1');
  return last ?? { seq: 0, hash: GENESIS_HASH };
}

export function verifyAudit(db: SqlDatabase, checkpoints: AuditCheckpoint[] = []): AuditVerdict {
  return verifyChain(readChain(db), checkpoints);
}

/** What a verifier reads from a store: the chain, its recorded head, the memory rows and the keys in their history. */
export interface ChainSnapshot {
  events: AuditEvent[];
  /** meta's audit_head: `seq:hash`. */
  head: string | undefined;
  rows: ChainRow[];
  /** The keys the lifecycle history still names (read only when a row is missing). */
  eventKeys(): string[];
}

/** The SQLite store's chain, head and rows. */
export function readChain(db: SqlDatabase): ChainSnapshot {
  return {
    events: db.all<AuditEvent>('SELECT * FROM audit_events ORDER BY seq'),
    head: db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'audit_head'")?.value,
    rows: chainRows(db),
    eventKeys: () => historyKeys(db),
  };
}

/** The one verifier of a chain, whichever store it was read from. */
export function verifyChain(snapshot: ChainSnapshot, checkpoints: AuditCheckpoint[] = []): AuditVerdict {
  const { events, head } = snapshot;
  const problems: AuditProblem[] = [];
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  for (const event of events) {
    if (event.seq !== expectedSeq)
      problems.push({
        seq: event.seq,
        problem: `expected event ${expectedSeq} here: events are missing or out of order`,
      });
    if (event.prev_hash !== prev)
      problems.push({
        seq: event.seq,
        problem: 'does not follow the event before it (an event was deleted, inserted or reordered)',
      });
    const { hash, ...unhashed } = event;
    if (eventHash(unhashed) !== hash)
      problems.push({ seq: event.seq, problem: 'its contents do not match its hash (the event was edited)' });
    prev = hash;
    expectedSeq = event.seq + 1;
  }
  const last = events[events.length - 1];
  const actualHead = last ? `${last.seq}:${last.hash}` : undefined;
  if (head !== actualHead) {
    problems.push({
      seq: last?.seq ?? 0,
      problem:
        `the chain ends at ${actualHead ?? 'nothing'} but its recorded ` +
        `head is ${head ?? 'missing'} (events were removed from the end ` +
        `or the chain was rewritten)`,
    });
  }
  const bySeq = new Map(events.map((e) => [e.seq, e.hash]));
  // The live rows must be what the chain says was written, forgotten and changed.
  problems.push(...compareRowsWithChain(snapshot.rows, events, snapshot.eventKeys));
  for (const checkpoint of checkpoints) {
    if (checkpoint.seq === 0) continue;
    const hash = bySeq.get(checkpoint.seq);
    if (hash === undefined)
      problems.push({
        seq: checkpoint.seq,
        problem: `a checkpoint records event ${checkpoint.seq}, which the chain no longer has (it was truncated)`,
      });
    else if (hash !== checkpoint.hash)
      problems.push({
        seq: checkpoint.seq,
        problem: `event ${checkpoint.seq} differs from its checkpoint (the chain was rewritten)`,
      });
  }
  return { ok: problems.length === 0, events: events.length, head: last?.hash ?? GENESIS_HASH, problems };
}

export function auditEventCount(db: SqlDatabase): number {
  return db.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_events')?.n ?? 0;
}
