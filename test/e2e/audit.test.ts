// Audit chain tampering, caught by `lore audit verify` (with and without checkpoints) and by the
// independent verifier script, which must always reach the same verdict.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { storePaths } from '../../src/host/dataDir';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { eventHash, type AuditEvent } from '../../src/engine/record/audit';
import { CLI, sandbox, type Sandbox } from '../support/processes';

const VERIFIER = resolve(__dirname, '..', '..', 'scripts', 'verifyAudit.mjs');

function lore(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', ...args], {
    env: box.env,
    encoding: 'utf8',
  });
  return { code: r.status, json: JSON.parse(r.stdout || '{}'), stderr: r.stderr };
}

function independent(box: Sandbox, checkpoints?: string) {
  const db = storePaths(box.workspace, box.home).database;
  const r = spawnSync(process.execPath, [VERIFIER, db, ...(checkpoints ? ['--checkpoints', checkpoints] : [])], {
    encoding: 'utf8',
  });
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
  assert.deepEqual(
    script.json.problems.map((p: { seq: number }) => p.seq),
    builtIn.json.problems.map((p: { seq: number }) => p.seq),
  );
  assert.deepEqual(
    script.json.problems.map((p: { key?: string }) => p.key ?? null),
    builtIn.json.problems.map((p: { key?: string }) => p.key ?? null),
  );
}

describe('audit chain tampering', () => {
  let box: Sandbox;
  let checkpoints: string;
  beforeEach(() => {
    box = sandbox();
    checkpoints = join(box.home, '..', 'checkpoints.jsonl');
    for (const title of ['First decision', 'Second decision', 'Third decision', 'Fourth decision']) {
      assert.equal(
        lore(box, ['remember', '--type', 'decision', '--title', title, '--description', `${title} described`]).code,
        0,
      );
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
    tamper(box, (db) =>
      db.transaction(() => {
        db.run('UPDATE audit_events SET seq = -1 WHERE seq = 2');
        db.run('UPDATE audit_events SET seq = 2 WHERE seq = 3');
        db.run('UPDATE audit_events SET seq = 3 WHERE seq = -1');
      }),
    );
    agree(box, false);
  });

  it('a truncated chain with its head moved back: the rows and the checkpoints notice', () => {
    tamper(box, (db) => {
      const fourth = db.get<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_events WHERE seq = 4')!;
      db.run('DELETE FROM audit_events WHERE seq = 5');
      db.run("UPDATE meta SET value = ? WHERE name = 'audit_head'", [`${fourth.seq}:${fourth.hash}`]);
    });
    // The deprecation the removed event recorded is still in the row, so it no longer matches the chain.
    agree(box, false);
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
        db.run('UPDATE audit_events SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?', [
          rewritten.actor,
          prev,
          hash,
          e.seq,
        ]);
        prev = hash;
      }
      db.run("UPDATE meta SET value = ? WHERE name = 'audit_head'", [`${events.length}:${prev}`]);
    });
    agree(box, true);
    agree(box, false, checkpoints);
  });
});

describe('memory rows edited in the file, against the chain', () => {
  let box: Sandbox;
  const WEB = 'fact/the-queue-handles-10k-jobs';
  beforeEach(() => {
    box = sandbox();
    assert.equal(
      lore(box, ['remember', '--type', 'decision', '--title', 'First decision', '--description', 'First described'])
        .code,
      0,
    );
    const web = lore(box, [
      'remember',
      '--type',
      'fact',
      '--title',
      'The queue handles 10k jobs',
      '--description',
      'Read on a blog',
      '--source',
      'webpage',
    ]);
    assert.equal(web.json.status, 'quarantined');
  });

  function doctor(): { code: number | null; checks: { name: string; ok: boolean; detail: string }[] } {
    const r = lore(box, ['doctor']);
    return { code: r.code, checks: r.json.checks };
  }

  it('an intact store: both verifiers and lore doctor pass', () => {
    agree(box, true);
    const d = doctor();
    assert.equal(d.code, 0, JSON.stringify(d.checks));
  });

  it('a quarantined web page turned into an active user record', () => {
    tamper(box, (db) =>
      db.run(
        `UPDATE memories SET status = 'active', provenance = json_set(provenance, '$.source', 'user') WHERE key = ?`,
        [WEB],
      ),
    );
    agree(box, false);
    assert.match(
      lore(box, ['audit', 'verify']).json.problems[0].problem,
      /reads active, but its status or provenance is not what event 2 recorded/,
    );
    const d = doctor();
    assert.equal(d.code, 1);
    const records = d.checks.find((c) => c.name === 'records')!;
    assert.equal(records.ok, false);
    assert.match(
      records.detail,
      /1 of 2 versions refused as tampered: fact\/the-queue-handles-10k-jobs v1 \(changed outside Lore: provenance: .*status: "quarantined" → "active"/,
    );
    // Refused, not returned: recall and list name it instead.
    assert.equal(lore(box, ['get', WEB]).code, 1);
  });

  it("a record's rows deleted", () => {
    tamper(box, (db) => db.run("DELETE FROM memories WHERE key = 'decision/first-decision'"));
    agree(box, false);
    assert.match(
      lore(box, ['audit', 'verify']).json.problems[0].problem,
      /decision\/first-decision v1, written at event 1, has no current row/,
    );
    assert.equal(doctor().code, 1);
  });

  it('a forgotten record re-inserted', () => {
    let saved: Record<string, string | number | null> = {};
    tamper(box, (db) => {
      saved = db.get<Record<string, string | number | null>>(
        "SELECT * FROM memories WHERE key = 'decision/first-decision'",
      )!;
    });
    assert.equal(lore(box, ['forget', 'decision/first-decision']).code, 0, 'forget');
    agree(box, true);
    tamper(box, (db) => {
      const { id: _id, ...columns } = saved;
      const names = Object.keys(columns);
      db.run(
        `INSERT INTO memories (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        names.map((n) => columns[n]),
      );
    });
    agree(box, false);
    assert.match(
      lore(box, ['audit', 'verify']).json.problems[0].problem,
      /was forgotten at event 3, but its row is back/,
    );
    assert.equal(doctor().code, 1);
  });
});
