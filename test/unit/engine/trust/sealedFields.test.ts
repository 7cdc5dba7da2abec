// Tamper, field by field: each (table, column) pair that changes what recall shows or what Lore
// trusts is edited directly in a real SQLite file, and the edit must be reported by `lore doctor`'s
// checks (refused versions, seal problems) or `lore audit verify`, naming the row and, for a
// sealed field, the field with its sealed and found values. Pairs judged harmless, and the pairs
// not sealed yet, are listed below with the reason.

import { strict as assert } from 'node:assert';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, LoreError } from '../../../../src/engine';
import { ephemeralSigner } from '../../../../src/engine/record/integrity';
import { eventHash } from '../../../../src/engine/record/audit';
import { WasmSqlDatabase } from '../../../../src/host/sqlite';
import { WorkspaceFileSource } from '../../../../src/host/fileSource';
import { TestClock, confirmedPerson, memory, person, tempDir } from '../../../support/store';

const KEY = 'decision/use-postgres-for-the-job-queue';
const OLD = 'fact/the-queue-runs-on-redis';
const NEW = 'fact/the-queue-runs-on-postgres';
const DEP = 'decision/retry-jobs-three-times';
const WEB = 'fact/the-queue-handles-10k-jobs';

/** One edit: the SQL, and what the report must name (a row, and for a sealed field the field). */
interface Case {
  table: string;
  column: string;
  sql: string;
  /** Every pattern must match the report. */
  names: RegExp[];
}

const at = (key: string, version?: number) =>
  `(SELECT id FROM memories WHERE key = '${key}'${version ? ` AND version = ${version}` : ' AND is_current = 1'})`;
const row = (key: string, version?: number) => `id = ${at(key, version)}`;
const event = (key: string, kind: string) =>
  `id = (SELECT id FROM memory_events WHERE key = '${key}' AND event = '${kind}' ORDER BY id LIMIT 1)`;
const field = (name: string) => new RegExp(`\\b${name}: `);

const auditValue = (column: string) => (column === 'version' ? '42' : column === 'digests' ? "'{}'" : "'x'");
const ORIGIN = '{"store_id":"x","version":1,"signature":"x","signer":"x","imported_at":"x"}';

const CASES: Case[] = [
  // The content a version says: its author's signature covers its digest.
  ...(
    [
      ['title', "'Use MySQL'"],
      ['description', "'changed'"],
      ['body', "'changed'"],
      ['tags', `'["x"]'`],
      ['links', `'["https://example.com"]'`],
      ['anchors', `'["src/other.ts"]'`],
      ['type', "'fact'"],
      ['scope', "'personal'"],
      ['basis', "'verified'"],
      ['confidence', '0.99'],
      ['fact_key', "'queue.other'"],
      ['valid_from', "'2000-01-01T00:00:00.000Z'"],
      ['review_after', "'2099-01-01T00:00:00.000Z'"],
    ] as const
  ).map(([column, value]) => ({
    table: 'memories',
    column,
    sql: `UPDATE memories SET ${column} = ${value} WHERE ${row(KEY)}`,
    names: [new RegExp(`${KEY} v2`), /content was changed after it was signed/],
  })),
  // The state: sealed by this store's machine, the field named with its sealed and found values.
  {
    table: 'memories',
    column: 'status',
    sql: `UPDATE memories SET status = 'active' WHERE ${row(WEB)}`,
    names: [new RegExp(WEB), /status: "quarantined" → "active"/],
  },
  {
    table: 'memories',
    column: 'status_reason',
    sql: `UPDATE memories SET status_reason = 'fine' WHERE ${row(DEP)}`,
    names: [new RegExp(DEP), /status_reason: "older" → "fine"/],
  },
  {
    table: 'memories',
    column: 'provenance',
    sql: `UPDATE memories SET provenance = json_set(provenance, '$.source', 'user') WHERE ${row(WEB)}`,
    names: [new RegExp(WEB), field('provenance')],
  },
  {
    table: 'memories',
    column: 'valid_until',
    sql: `UPDATE memories SET valid_until = '2000-01-01T00:00:00.000Z' WHERE ${row(KEY)}`,
    names: [new RegExp(`${KEY} v2`), /valid_until: null → "2000-01-01/],
  },
  {
    table: 'memories',
    column: 'valid_until (archived)',
    sql: `UPDATE memories SET valid_until = NULL WHERE ${row(KEY, 1)}`,
    names: [new RegExp(`${KEY} v1`), field('valid_until')],
  },
  {
    table: 'memories',
    column: 'superseded_by',
    sql: `UPDATE memories SET superseded_by = 'decision/other' WHERE ${row(OLD)}`,
    names: [new RegExp(OLD), /superseded_by: "fact\/the-queue-runs-on-postgres" → "decision\/other"/],
  },
  {
    table: 'memories',
    column: 'supersedes',
    sql: `UPDATE memories SET supersedes = NULL WHERE ${row(NEW)}`,
    names: [new RegExp(NEW), field('supersedes')],
  },
  {
    table: 'memories',
    column: 'is_current',
    sql: `UPDATE memories SET is_current = 0 WHERE ${row(DEP)}`,
    names: [new RegExp(DEP), /is_current: 1 → 0/],
  },
  {
    table: 'memories',
    column: 'recorded_at',
    sql: `UPDATE memories SET recorded_at = '2000-01-01T00:00:00.000Z' WHERE ${row(KEY)}`,
    names: [new RegExp(KEY), field('recorded_at')],
  },
  {
    table: 'memories',
    column: 'updated_at',
    sql: `UPDATE memories SET updated_at = '2099-01-01T00:00:00.000Z' WHERE ${row(KEY)}`,
    names: [new RegExp(KEY), field('updated_at')],
  },
  {
    table: 'memories',
    column: 'origin',
    sql: `UPDATE memories SET origin = '${ORIGIN}' WHERE ${row(KEY)}`,
    names: [new RegExp(KEY)],
  },
  // The seal and signatures themselves.
  {
    table: 'memories',
    column: 'state_sealed',
    sql: `UPDATE memories SET state_sealed = replace(state_sealed, '"quarantined"', '"active"') WHERE ${row(WEB)}`,
    names: [new RegExp(WEB), /seal was edited/],
  },
  {
    table: 'memories',
    column: 'state_signature',
    sql:
      `UPDATE memories SET state_signature = (SELECT state_signature FROM memories WHERE ${row(DEP)}) ` +
      `WHERE ${row(KEY)}`,
    names: [new RegExp(KEY)],
  },
  {
    table: 'memories',
    column: 'state_signer',
    sql: `UPDATE memories SET state_signer = 'ed25519:0000000000000000' WHERE ${row(KEY)}`,
    names: [new RegExp(KEY), /not a known key/],
  },
  {
    table: 'memories',
    column: 'signature',
    sql: `UPDATE memories SET signature = (SELECT signature FROM memories WHERE ${row(DEP)}) WHERE ${row(KEY)}`,
    names: [new RegExp(KEY)],
  },
  {
    table: 'memories',
    column: 'author',
    sql: `UPDATE memories SET author = 'ed25519:0000000000000000' WHERE ${row(KEY)}`,
    names: [new RegExp(KEY)],
  },
  {
    table: 'memories',
    column: 'content_digest',
    sql: `UPDATE memories SET content_digest = 'x' WHERE ${row(KEY)}`,
    names: [new RegExp(KEY)],
  },
  {
    table: 'memories',
    column: 'key',
    sql: `UPDATE memories SET key = 'decision/moved' WHERE ${row(DEP)}`,
    names: [/decision\/moved|retry-jobs/],
  },
  {
    table: 'memories',
    column: 'version',
    sql: `UPDATE memories SET version = 9 WHERE ${row(DEP)}`,
    names: [new RegExp(DEP)],
  },
  // The history: each event sealed whole (the actor is who the history says acted).
  {
    table: 'memory_events',
    column: 'actor',
    sql: `UPDATE memory_events SET actor = 'cli:mallory' WHERE ${event(DEP, 'deprecated')}`,
    names: [/history event \d+/, /actor: "test:alice" → "cli:mallory"/],
  },
  {
    table: 'memory_events',
    column: 'reason',
    sql: `UPDATE memory_events SET reason = 'a person said so' WHERE ${event(DEP, 'deprecated')}`,
    names: [/history event/, field('reason')],
  },
  {
    table: 'memory_events',
    column: 'event',
    sql: `UPDATE memory_events SET event = 'promoted' WHERE ${event(WEB, 'quarantined')}`,
    names: [/history event/, /event: "quarantined" → "promoted"/],
  },
  {
    table: 'memory_events',
    column: 'at',
    sql: `UPDATE memory_events SET at = '2000-01-01T00:00:00.000Z' WHERE ${event(KEY, 'created')}`,
    names: [/history event/, field('at')],
  },
  {
    table: 'memory_events',
    column: 'related_key',
    sql: `UPDATE memory_events SET related_key = 'decision/other' WHERE ${event(OLD, 'superseded')}`,
    names: [/history event/, field('related_key')],
  },
  {
    table: 'memory_events',
    column: 'valid_at',
    sql: `UPDATE memory_events SET valid_at = '2099-01-01T00:00:00.000Z' WHERE ${event(KEY, 'created')}`,
    names: [/history event/, field('valid_at')],
  },
  {
    table: 'memory_events',
    column: 'key',
    sql: `UPDATE memory_events SET key = 'decision/other' WHERE ${event(DEP, 'deprecated')}`,
    names: [/history event/, field('key')],
  },
  {
    table: 'memory_events',
    column: 'version',
    sql: `UPDATE memory_events SET version = 7 WHERE ${event(DEP, 'deprecated')}`,
    names: [/history event/, field('version')],
  },
  {
    table: 'memory_events',
    column: 'sealed',
    sql:
      `UPDATE memory_events SET sealed = replace(sealed, 'test:alice', 'cli:mallory') ` +
      `WHERE ${event(DEP, 'deprecated')}`,
    names: [/history event/, /seal was edited/],
  },
  // Authors: trust, key and label sealed; trust is read from the seal only.
  {
    table: 'authors',
    column: 'trusted',
    sql: "UPDATE authors SET trusted = 1 WHERE label = 'carol'",
    names: [/author ed25519:/, /trusted: 0 → 1/],
  },
  {
    table: 'authors',
    column: 'trusted (withdrawn)',
    sql: "UPDATE authors SET trusted = 0 WHERE label = 'bob'",
    names: [/author ed25519:/, /trusted: 1 → 0/],
  },
  {
    table: 'authors',
    column: 'label',
    sql: "UPDATE authors SET label = 'this machine' WHERE label = 'bob'",
    names: [/author ed25519:/, /label: "bob" → "this machine"/],
  },
  {
    table: 'authors',
    column: 'public_key',
    sql: "UPDATE authors SET public_key = (SELECT public_key FROM authors WHERE label = 'carol') WHERE label = 'bob'",
    names: [/author ed25519:/, field('public_key')],
  },
  {
    table: 'authors',
    column: 'added_at',
    sql: "UPDATE authors SET added_at = '2000-01-01T00:00:00.000Z' WHERE label = 'bob'",
    names: [/author ed25519:/, field('added_at')],
  },
  {
    table: 'authors',
    column: 'sealed',
    sql:
      'UPDATE authors SET sealed = replace(sealed, \'"trusted":0\', \'"trusted":1\'), trusted = 1 ' +
      "WHERE label = 'carol'",
    names: [/author ed25519:/, /seal was edited/],
  },
  // The audit chain: every event hashed into the next.
  ...(['at', 'event', 'actor', 'digests', 'key_digest', 'version', 'prev_hash', 'hash'] as const).map((column) => ({
    table: 'audit_events',
    column,
    sql: `UPDATE audit_events SET ${column} = ${auditValue(column)} WHERE seq = 3`,
    names: [/event 3|expected event|do not match|does not follow/],
  })),
  {
    table: 'meta',
    column: 'audit_head',
    sql: "UPDATE meta SET value = '1:x' WHERE name = 'audit_head'",
    names: [/recorded head/],
  },
];

/**
 * Judged harmless alone, with why (each is still edited below, and nothing may break):
 * - meta.signing_from_id: a version with a signature is verified whatever it says; it only lets rows
 *   written before signing existed (which have none) read as unattributed.
 * - memories.id: rows are found by key and version, and every signature and seal names those.
 */
const HARMLESS: Case[] = [
  {
    table: 'meta',
    column: 'signing_from_id',
    sql: "UPDATE meta SET value = '1000' WHERE name = 'signing_from_id'",
    names: [],
  },
];

/**
 * Not sealed: the workspace index (docs, doc_chunks, chunk_vectors, vector_code_pages) holds no
 * memory; it is derived from the files and rebuilt by `lore index --full`. Memory vectors are sealed
 * (the describe below).
 */

describe(`sealed fields: each of ${CASES.length} database edits is reported, by row and field`, function () {
  this.timeout(600_000);
  const signer = ephemeralSigner();
  const carolSigner = ephemeralSigner();
  const clock = new TestClock();
  const dir = tempDir();
  const base = join(dir, 'base.db');

  const open = (path: string) => {
    const db = new WasmSqlDatabase(path);
    return { db, engine: new Engine({ db, clock, signer }) };
  };

  /** Everything doctor and audit verify say about the store, one line each. */
  const report = (engine: Engine): string[] => [
    ...engine.verifyRecords().refused.map((r) => `refused ${r.key} v${r.version}: ${r.reason}`),
    ...engine.verifyAudit().problems.map((p) => `audit: ${p.problem}`),
    ...engine.sealProblems().map((p) => `seal ${p.row}: ${p.reason}`),
  ];

  before(() => {
    const { db, engine } = open(base);
    engine.remember(person, memory());
    engine.remember(person, memory({ description: 'Jobs go through Postgres, with a retry table' }));
    engine.remember(
      person,
      memory({ type: 'fact', title: 'The queue runs on Redis', description: 'Redis lists', fact_key: 'queue.engine' }),
    );
    engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'The queue runs on Postgres',
        description: 'SKIP LOCKED',
        fact_key: 'queue.engine',
      }),
    );
    engine.remember(person, memory({ title: 'Retry jobs three times', description: 'Then dead-letter them' }));
    engine.setStatus(person, DEP, 'deprecated', 'older');
    engine.remember(
      person,
      memory({
        type: 'fact',
        title: 'The queue handles 10k jobs',
        description: 'Read on a blog',
        provenance: { source: 'webpage' },
      }),
    );
    engine.trustAuthor(confirmedPerson, ephemeralSigner().publicKey, 'bob');
    const carol = new Engine({ db: new WasmSqlDatabase(':memory:'), clock, signer: carolSigner });
    carol.remember(person, memory({ title: 'Carol writes down her queue', description: 'In a bundle' }));
    engine.importBundle(person, carol.exportBundle({}, { label: 'carol' }));
    assert.equal(engine.get(OLD).memory.superseded_by, NEW);
    assert.equal(engine.get(WEB).memory.status, 'quarantined');
    assert.deepEqual(report(engine), [], 'the fixture verifies before any edit');
    db.close();
  });

  it(`covers at least 32 (table, column) pairs across memories, versions, history, audit and authors`, () => {
    const pairs = new Set(CASES.map((c) => `${c.table}.${c.column}`));
    assert.ok(pairs.size >= 32, `${pairs.size} pairs`);
    for (const table of ['memories', 'memory_events', 'authors', 'audit_events'])
      assert.ok(
        CASES.some((c) => c.table === table),
        table,
      );
  });

  for (const c of CASES) {
    it(`${c.table}.${c.column}: reported`, () => {
      const path = join(dir, `${c.table}.${c.column}.db`.replace(/[^\w.]+/g, '_'));
      copyFileSync(base, path);
      const raw = new WasmSqlDatabase(path);
      const changed = raw.run(c.sql).changes;
      raw.close();
      assert.ok(changed > 0, `the edit changed a row: ${c.sql}`);
      const { db, engine } = open(path);
      try {
        const lines = report(engine);
        assert.ok(lines.length > 0, `${c.table}.${c.column} went unreported`);
        const text = lines.join('\n');
        for (const name of c.names) assert.match(text, name);
      } finally {
        db.close();
      }
    });
  }

  for (const c of HARMLESS) {
    it(`${c.table}.${c.column}: judged harmless, and nothing reads differently`, () => {
      const path = join(dir, `harmless.${c.column}.db`);
      copyFileSync(base, path);
      const { db, engine } = open(path);
      try {
        const before = engine.list().items.map((i) => `${i.key}:${i.status}`);
        db.run(c.sql);
        assert.deepEqual(
          engine.list().items.map((i) => `${i.key}:${i.status}`),
          before,
        );
        assert.deepEqual(report(engine), []);
      } finally {
        db.close();
      }
    });
  }

  it('a rewritten chain (hashes and head recomputed) is caught by a checkpoint kept outside the store', () => {
    const path = join(dir, 'checkpoint.db');
    copyFileSync(base, path);
    const { db, engine } = open(path);
    try {
      const checkpoint = engine.auditCheckpoint();
      const events = db.all<Record<string, string | number | null>>('SELECT * FROM audit_events ORDER BY seq');
      let prev = '0'.repeat(64);
      for (const e of events) {
        const edited: Record<string, unknown> = { ...e, actor: e.seq === 3 ? 'cli:mallory' : e.actor, prev_hash: prev };
        delete edited.hash;
        const hash = eventHash(edited as never);
        db.run('UPDATE audit_events SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?', [
          edited.actor as string,
          prev,
          hash,
          e.seq,
        ]);
        prev = hash;
      }
      db.run("UPDATE meta SET value = ? WHERE name = 'audit_head'", [`${events[events.length - 1].seq}:${prev}`]);
      assert.equal(engine.verifyAudit().ok, true, 'without a checkpoint the rewrite is self-consistent');
      const problems = engine.verifyAudit([checkpoint]).problems.map((p) => p.problem);
      assert.ok(
        problems.some((p) => /differs from its checkpoint/.test(p)),
        problems.join('\n'),
      );
    } finally {
      db.close();
    }
  });

  it("a flipped authors.trusted does not let that author's next bundle arrive active", () => {
    const path = join(dir, 'trust.db');
    copyFileSync(base, path);
    const { db, engine } = open(path);
    try {
      const carolKey = db.get<{ key_id: string }>("SELECT key_id FROM authors WHERE label = 'carol'")!.key_id;
      db.run('UPDATE authors SET trusted = 1 WHERE key_id = ?', [carolKey]);
      assert.equal(engine.trustedKeys().authors.find((a) => a.key_id === carolKey)!.trusted, false);
      // Carol's next bundle (her own store, her own key) still lands quarantined.
      const carol = new Engine({ db: new WasmSqlDatabase(':memory:'), clock, signer: carolSigner });
      carol.remember(person, memory({ title: 'Carol again', description: 'Another one' }));
      const result = engine.importBundle(person, carol.exportBundle({}, { label: 'carol' }));
      assert.ok(result.quarantined.includes('decision/carol-again'), JSON.stringify(result));
      // And trusting her on top of the edit is refused: Lore does not sign the edited row again.
      assert.throws(
        () => engine.trustAuthor(confirmedPerson, carolKey),
        (e: unknown) => e instanceof LoreError && e.code === 'INTEGRITY',
      );
    } finally {
      db.close();
    }
  });
});

/**
 * Memory vectors: sealed as stored. The embedder here is a fixed function of the text (the seal is
 * over whatever vector was stored, so which model made it does not matter to this test).
 */
describe('sealed fields: memory vectors', function () {
  this.timeout(120_000);
  const dims = 16;
  const embedder = {
    modelId: 'test/hash-embedder',
    dims,
    embed: async (texts: string[]) =>
      texts.map((text) => {
        const v = new Float32Array(dims);
        for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) * 7 + i) % dims] += 1;
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      }),
    close: async () => {},
  };
  const VECTOR_CASES: Array<[string, string]> = [
    ['vector', 'UPDATE memory_vectors SET vector = zeroblob(length(vector))'],
    ['dims', 'UPDATE memory_vectors SET dims = 8'],
    ['code', "UPDATE memory_vectors SET code = x'ffffffff'"],
    ['model', "UPDATE memory_vectors SET model = 'test/other'"],
    ['sealed', 'UPDATE memory_vectors SET sealed = replace(sealed, \'"dims":16\', \'"dims":8\'), dims = 8'],
  ];

  for (const [column, sql] of VECTOR_CASES) {
    it(`memory_vectors.${column}: reported, and a person's repair drops the vector for the next index`, async () => {
      const dir = tempDir();
      const db = new WasmSqlDatabase(join(dir, 'lore.db'));
      const engine = new Engine({ db, clock: new TestClock(), signer: ephemeralSigner(), embedder });
      try {
        engine.remember(person, memory());
        const run = engine.index(new WorkspaceFileSource(tempDir('lore-empty-')));
        while (!(await run.next()).done);
        assert.equal(db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_vectors')!.n, 1);
        assert.deepEqual(engine.sealProblems(), []);
        assert.ok(db.run(sql).changes > 0);
        const [problem] = engine.sealProblems();
        assert.equal(problem.table, 'memory_vectors');
        assert.match(problem.row, new RegExp(`vector of ${KEY} v1`));
        assert.ok(engine.verifyAudit().problems.some((p) => /vector of/.test(p.problem)));
        engine.repairSeals(confirmedPerson);
        assert.equal(db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_vectors')!.n, 0);
        assert.deepEqual(engine.sealProblems(), []);
      } finally {
        db.close();
      }
    });
  }
});
