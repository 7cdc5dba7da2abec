#!/usr/bin/env node
// An independent verifier of a Lore store's audit chain, and of its memory rows against the chain.
// It imports nothing from Lore — only node:crypto and the SQLite library needed to read the file —
// and follows docs/audit-log.md.
//
//   node scripts/verifyAudit.mjs PATH/TO/lore.db [--checkpoints FILE]
//
// Prints {"ok","events","head","problems"} and exits 0 when the chain is intact, 1 when not.
// Run it on a copy, or while no Lore process owns the store.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Database } = require('node-sqlite3-wasm');

const GENESIS = '0'.repeat(64);

function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

const WRITES = ['memory.create', 'memory.update', 'memory.import'];

function digestsOf(e) {
  try {
    const value = JSON.parse(e.digests);
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

// The memory rows against the chain (docs/audit-log.md, "Rows against the chain").
function compareRows(db, events) {
  const written = new Map();
  const forgotten = new Map();
  for (const e of events) {
    const k = e.key_digest;
    if (!k) continue;
    const d = digestsOf(e);
    const state = typeof d.state === 'string' ? d.state : null;
    if (e.event === 'memory.forget') {
      written.delete(k);
      forgotten.set(k, e.seq);
    } else if (WRITES.includes(e.event) && e.version !== null && typeof d.content === 'string') {
      const versions = written.get(k)?.versions ?? new Map();
      versions.set(e.version, d.content);
      written.set(k, { seq: e.seq, version: e.version, content: d.content, state, stateSeq: e.seq, versions });
      forgotten.delete(k);
    } else if (state !== null) {
      const w = written.get(k);
      if (w && e.version === w.version) Object.assign(w, { state, stateSeq: e.seq });
    }
  }
  const rows = db.all(
    'SELECT key, version, is_current, content_digest, status, provenance FROM memories ORDER BY key, version',
  );
  const problems = [];
  const live = new Set();
  const named = new Map();
  for (const r of rows) {
    const k = sha256(r.key);
    named.set(k, r.key);
    const w = written.get(k);
    const name = `${r.key} v${r.version}`;
    const report = (seq, problem) => problems.push({ seq, key: r.key, problem: `${name} ${problem}` });
    if (!w) {
      const at = forgotten.get(k);
      if (at !== undefined) report(at, 'was forgotten, but its row is back');
      else report(0, 'is in no event');
      continue;
    }
    if (r.is_current !== 1) {
      if (w.versions.get(r.version) !== r.content_digest)
        report(w.seq, 'is archived but not a version the chain records');
      continue;
    }
    if (live.has(k)) {
      report(w.seq, 'is a second current version');
      continue;
    }
    live.add(k);
    let state = null;
    try {
      state = sha256(canonical({ status: r.status, provenance: JSON.parse(r.provenance) }));
    } catch {
      // unreadable provenance: differs from any recorded state
    }
    if (r.version !== w.version || r.content_digest !== w.content)
      report(w.seq, `is not the version event ${w.seq} wrote`);
    else if (w.state !== null && state !== w.state)
      report(w.stateSeq, `has a status or provenance other than event ${w.stateSeq}'s`);
  }
  const eventKeys = new Map(db.all('SELECT DISTINCT key FROM memory_events').map((e) => [sha256(e.key), e.key]));
  for (const [k, w] of written) {
    if (live.has(k)) continue;
    const key = named.get(k) ?? eventKeys.get(k) ?? null;
    const name = key ?? `key digest ${k.slice(0, 16)}…`;
    problems.push({ seq: w.seq, key, problem: `${name} v${w.version}, written at event ${w.seq}, has no current row` });
  }
  return problems.sort((a, b) => a.seq - b.seq);
}

function verify(dbPath, checkpoints) {
  const db = new Database(dbPath, { fileMustExist: true, readOnly: true });
  try {
    const events = db.all(
      'SELECT seq, at, event, key_digest, version, actor, digests, prev_hash, hash FROM audit_events ORDER BY seq',
    );
    const head = db.get("SELECT value FROM meta WHERE name = 'audit_head'")?.value;
    const problems = [];
    let prev = GENESIS;
    let expected = 1;
    for (const e of events) {
      if (e.seq !== expected) problems.push({ seq: e.seq, problem: `expected event ${expected} here` });
      if (e.prev_hash !== prev) problems.push({ seq: e.seq, problem: 'does not follow the event before it' });
      const fields = {
        seq: e.seq,
        at: e.at,
        event: e.event,
        key_digest: e.key_digest,
        version: e.version,
        actor: e.actor,
        digests: e.digests,
      };
      if (sha256(`${e.prev_hash}\n${canonical(fields)}`) !== e.hash)
        problems.push({ seq: e.seq, problem: 'contents do not match its hash' });
      prev = e.hash;
      expected = e.seq + 1;
    }
    const last = events[events.length - 1];
    const actual = last ? `${last.seq}:${last.hash}` : undefined;
    if (head !== actual)
      problems.push({
        seq: last?.seq ?? 0,
        problem: `chain ends at ${actual ?? 'nothing'} but its recorded head is ${head ?? 'missing'}`,
      });
    const bySeq = new Map(events.map((e) => [e.seq, e.hash]));
    problems.push(...compareRows(db, events));
    for (const c of checkpoints) {
      if (c.seq === 0) continue;
      if (!bySeq.has(c.seq))
        problems.push({ seq: c.seq, problem: `checkpointed event ${c.seq} is missing (truncated)` });
      else if (bySeq.get(c.seq) !== c.hash)
        problems.push({ seq: c.seq, problem: `event ${c.seq} differs from its checkpoint (rewritten)` });
    }
    return { ok: problems.length === 0, events: events.length, head: last?.hash ?? GENESIS, problems };
  } finally {
    db.close();
  }
}

const args = process.argv.slice(2);
const dbPath = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--checkpoints');
const checkpointFile = args.includes('--checkpoints') ? args[args.indexOf('--checkpoints') + 1] : undefined;
if (!dbPath) {
  console.error('usage: node scripts/verifyAudit.mjs PATH/TO/lore.db [--checkpoints FILE]');
  process.exit(2);
}
const checkpoints = checkpointFile
  ? readFileSync(checkpointFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l))
  : [];
const verdict = verify(dbPath, checkpoints);
console.log(JSON.stringify(verdict, null, 2));
process.exit(verdict.ok ? 0 : 1);
