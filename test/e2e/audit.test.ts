// Audit chain tampering, caught by `lore audit verify` (with and without checkpoints) and by the
// independent verifier script, which must always reach the same verdict.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { storePaths } from '../../src/host/dataDir';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { eventHash, type AuditEvent } from '../../src/engine/trust/audit';
import { CLI, sandbox, type Sandbox } from '../support/processes';

const VERIFIER = resolve(__dirname, '..', '..', 'scripts', 'verifyAudit.mjs');

function lore(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], { env: box.env, encoding: 'utf8' });
  return { code: r.status, json: JSON.parse(r.stdout || '{}'), stderr: r.stderr };
}

function independent(box: Sandbox, checkpoints?: string) {
  const db = storePaths(box.workspace, box.home).database;
  const r = spawnSync(process.execPath, [VERIFIER, db, ...(checkpoints ? ['--checkpoints', checkpoints] : [])], { encoding: 'utf8' });
  return { code: r.status, json: JSON.parse(r.stdout) };
}

function tamper(box: Sandbox, work: (db: WasmSqlDatabase) => void): void {
  const db = new WasmSqlDatabase(storePaths(box.workspace, box.home).database);
  try {
    work(db);
  } finally {
    db.close();
  }
}

function agree(box: Sandbox, expectOk: boolean, checkpoints?: string): void {
  const builtIn = lore(box, ['audit', 'verify', ...(checkpoints ? ['--checkpoints', checkpoints] : [])]);
  const script = independent(box, checkpoints);
  assert.equal(builtIn.json.ok, expectOk, JSON.stringify(builtIn.json));
  assert.equal(script.json.ok, expectOk, JSON.stringify(script.json));
  assert.equal(builtIn.code, expectOk ? 0 : 1);
  assert.equal(script.code, expectOk ? 0 : 1);
  assert.equal(script.json.events, builtIn.json.events);
  assert.deepEqual(script.json.problems.map((p: { seq: number }) => p.seq), builtIn.json.problems.map((p: { seq: number }) => p.seq));
}

describe('audit chain tampering', () => {
  let box: Sandbox;
  let checkpoints: string;
  beforeEach(() => {
    box = sandbox();
    checkpoints = join(box.home, '..', 'checkpoints.jsonl');
    for (const title of ['First decision', 'Second decision', 'Third decision', 'Fourth decision']) {
      assert.equal(lore(box, ['remember', '--type', 'decision', '--title', title, '--description', `${title} described`]).code, 0);
    }
    lore(box, ['deprecate', 'decision/second-decision', '--reason', 'replaced']);
    assert.equal(lore(box, ['audit', 'checkpoint', checkpoints]).json.seq, 5);
  });

  it('an intact chain passes both verifiers, with checkpoints', () => agree(box, true, checkpoints));

  it('an edited event', () => {
    tamper(box, (db) => db.run("UPDATE audit_events SET actor = 'cli:mallory' WHERE seq = 2"));
    agree(box, false);
  });

  it('a deleted event', () => {
    tamper(box, (db) => db.run('DELETE FROM audit_events WHERE seq = 3'));
    agree(box, false);
  });

  it('reordered events', () => {
    tamper(box, (db) => db.transaction(() => {
      db.run('UPDATE audit_events SET seq = -1 WHERE seq = 2');
      db.run('UPDATE audit_events SET seq = 2 WHERE seq = 3');
      db.run('UPDATE audit_events SET seq = 3 WHERE seq = -1');
    }));
    agree(box, false);
  });

  it('a truncated chain with its head moved back: only checkpoints notice', () => {
    tamper(box, (db) => {
      const fourth = db.get<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_events WHERE seq = 4')!;
      db.run('DELETE FROM audit_events WHERE seq = 5');
      db.run("UPDATE meta SET value = ? WHERE name = 'audit_head'", [`${fourth.seq}:${fourth.hash}`]);
    });
    agree(box, true);
    agree(box, false, checkpoints);
  });

  it('a whole chain rewritten with a fresh head: only checkpoints notice', () => {
    tamper(box, (db) => {
      const events = db.all<AuditEvent>('SELECT * FROM audit_events ORDER BY seq');
      let prev = '0'.repeat(64);
      for (const e of events) {
        const rewritten = { ...e, actor: e.seq === 1 ? 'cli:mallory' : e.actor, prev_hash: prev };
        const { hash: _old, ...unhashed } = rewritten;
        const hash = eventHash(unhashed);
        db.run('UPDATE audit_events SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?', [rewritten.actor, prev, hash, e.seq]);
        prev = hash;
      }
      db.run("UPDATE meta SET value = ? WHERE name = 'audit_head'", [`${events.length}:${prev}`]);
    });
    agree(box, true);
    agree(box, false, checkpoints);
  });
});
