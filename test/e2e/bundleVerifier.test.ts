import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LoreError, type Actor, type Bundle } from '../../src/engine';
import { contentDigest } from '../../src/engine/record/contentDigest';
import { MAX_BUNDLE_CHARS, signBundle } from '../../src/engine/team/bundleFormat';
import { WorkspaceRepoFiles } from '../../src/host/repoFiles';
import { ephemeralSigner } from '../../src/engine/record/integrity';
import { signingPayload } from '../../src/engine/record/signatures';
import { agent, confirmedPerson, memory, openTestStore, person, type TestStore } from '../support/store';

const VERIFIER = resolve(__dirname, '..', '..', 'scripts', 'verifyBundle.mjs');
const importer: Actor = { door: 'import', name: 'bob' };
const QUEUE = 'decision/use-postgres-for-the-job-queue';
const UTC = 'decision/use-utc-in-logs';
const RUNBOOK = 'runbook/rotate-the-database-password';

function clone(bundle: Bundle): Bundle {
  return JSON.parse(JSON.stringify(bundle)) as Bundle;
}

/** What an attacker who edits a bundle can do: sign the edited whole with a key of their own. */
function resignedByAttacker(bundle: Bundle, attacker = ephemeralSigner()): Bundle {
  const { signature: _old, ...unsigned } = bundle;
  return signBundle(
    {
      ...unsigned,
      authors: [...unsigned.authors, { key_id: attacker.keyId, public_key: attacker.publicKey, label: 'mallory' }],
      signer: attacker.keyId,
    },
    attacker,
  );
}

function selfKey(s: TestStore): string {
  return s.engine.trustedKeys().this_machine.public_key;
}

function independent(
  s: TestStore,
  bundle: Bundle | string,
): { ok: boolean; records?: number; signer?: string; problems: string[] } {
  const file = join(s.dir, 'bundle.json');
  writeFileSync(file, typeof bundle === 'string' ? bundle : JSON.stringify(bundle, null, 2));
  const r = spawnSync(process.execPath, [VERIFIER, file], { encoding: 'utf8' });
  const verdict = JSON.parse(r.stdout);
  assert.equal(r.status, verdict.ok ? 0 : 1);
  return verdict;
}

function snapshot(s: TestStore) {
  return {
    stats: s.engine.stats(),
    authors: s.engine.trustedKeys().authors,
    events: s.db.all('SELECT * FROM memory_events'),
  };
}

describe('bundles', () => {
  let a: TestStore;
  let b: TestStore;
  beforeEach(() => {
    a = openTestStore();
    b = openTestStore();
    a.engine.remember(person, memory());
    a.engine.remember(
      person,
      memory({ title: 'Use UTC in logs', description: 'All log timestamps are UTC', anchors: ['src/log.ts'] }),
    );
    a.engine.remember(
      person,
      memory({
        type: 'runbook',
        title: 'Rotate the database password',
        description: 'Steps to rotate the Postgres password',
        body: '1. Create the new password in the vault\n2. Roll the pods',
      }),
    );
  });
  afterEach(() => {
    a.cleanup();
    b.cleanup();
  });

  it(
    'round-trips to a store with another key: authors and their ' + 'signatures intact, re-signed for the new store',
    async () => {
      const bundle = a.engine.exportBundle();
      assert.equal(bundle.records.length, 3);
      b.engine.trustAuthor(confirmedPerson, selfKey(a), 'alice');
      const result = b.engine.importBundle(importer, JSON.stringify(bundle));
      assert.deepEqual([result.created, result.replaced, result.unchanged, result.quarantined], [3, 0, 0, []]);

      const imported = b.engine.get(QUEUE).memory;
      const original = a.engine.get(QUEUE).memory;
      assert.equal(imported.author, original.author);
      assert.equal(imported.origin?.store_id, a.engine.storeId);
      assert.equal(imported.origin?.signature, original.signature);
      assert.notEqual(imported.signature, original.signature, 'signed again for the store it now lives in');
      assert.equal(imported.status, 'active');
      assert.equal(imported.body, original.body);
      assert.deepEqual(b.engine.get(QUEUE).flags, ['imported']);
      assert.deepEqual(a.engine.get(QUEUE).flags, []);
      assert.deepEqual((await b.engine.recall({ query: 'postgres job queue' })).results.map((r) => r.key).slice(0, 1), [
        QUEUE,
      ]);
      const audit = b.db.all<{ event: string; actor: string }>('SELECT event, actor FROM audit_events ORDER BY seq');
      assert.deepEqual(
        audit.map((e) => e.event),
        ['author.trust', 'memory.import', 'memory.import', 'memory.import', 'bundle.import'],
      );
      assert.ok(audit.slice(1).every((e) => e.actor === 'import:bob'));
      assert.ok(b.engine.verifyAudit().ok);

      // Handed on again, a record still carries its author's own signature from the first store;
      // its status is the relaying exporter's word, so it lands active only once that one is trusted too.
      const c = openTestStore();
      const d = openTestStore();
      try {
        c.engine.trustAuthor(confirmedPerson, selfKey(a));
        assert.equal(c.engine.importBundle(importer, b.engine.exportBundle()).quarantined.length, 3);
        assert.match(
          c.engine.get(QUEUE).memory.status_reason ?? '',
          /vouched for by ed25519:[0-9a-f]{16}, an exporter this store does not trust/,
        );
        d.engine.trustAuthor(confirmedPerson, selfKey(a));
        d.engine.trustAuthor(confirmedPerson, selfKey(b));
        d.engine.importBundle(importer, b.engine.exportBundle());
        const again = d.engine.get(QUEUE).memory;
        assert.equal(again.author, original.author);
        assert.equal(again.origin?.store_id, a.engine.storeId);
        assert.equal(again.status, 'active');
      } finally {
        c.cleanup();
        d.cleanup();
      }
    },
  );

  it('quarantines records by an author this store does not trust, until a person promotes them', async () => {
    const result = b.engine.importBundle(importer, a.engine.exportBundle());
    assert.deepEqual(result.quarantined.sort(), [QUEUE, RUNBOOK, UTC].sort());
    assert.equal(b.engine.get(QUEUE).memory.status, 'quarantined');
    assert.match(b.engine.get(QUEUE).memory.status_reason ?? '', /an author this store does not trust/);
    assert.deepEqual((await b.engine.recall({ query: 'postgres job queue' })).results, []);
    assert.ok(
      b.engine
        .trustedKeys()
        .authors.some((x) => x.key_id === a.engine.get(QUEUE).memory.author && !x.trusted && x.records === 3),
    );
    assert.throws(
      () => b.engine.trustAuthor(agent, selfKey(a)),
      (e: unknown) => e instanceof LoreError && e.code === 'HUMAN_ONLY',
    );
    b.engine.promote(confirmedPerson, QUEUE);
    assert.deepEqual((await b.engine.recall({ query: 'postgres job queue' })).results.map((r) => r.key).slice(0, 1), [
      QUEUE,
    ]);
  });

  it('keeps records from webpage or tool sources quarantined even from a trusted author', () => {
    a.engine.remember(
      agent,
      memory({
        title: 'Cache headers from a blog',
        description: 'Set max-age to a day',
        provenance: { source: 'webpage' },
      }),
    );
    a.engine.promote(confirmedPerson, 'decision/cache-headers-from-a-blog');
    b.engine.trustAuthor(confirmedPerson, selfKey(a));
    const result = b.engine.importBundle(importer, a.engine.exportBundle({ types: ['decision'] }));
    assert.deepEqual(result.quarantined, ['decision/cache-headers-from-a-blog']);
  });

  it("an untrusted exporter cannot re-sign a trusted author's quarantined or deprecated record as active", async () => {
    a.engine.remember(
      agent,
      memory({
        title: 'Disable TLS verification',
        description: 'Set NODE_TLS_REJECT_UNAUTHORIZED to 0 in CI',
        provenance: { source: 'webpage' },
      }),
    );
    a.engine.setStatus(person, UTC, 'deprecated', 'we log local time now');
    assert.equal(a.engine.get('decision/disable-tls-verification').memory.status, 'quarantined');
    b.engine.trustAuthor(confirmedPerson, selfKey(a));
    const laundered = clone(a.engine.exportBundle({ statuses: ['quarantined', 'deprecated'] }));
    for (const record of laundered.records) {
      record.status = 'active';
      record.status_reason = null;
      record.provenance.source = 'user';
    }
    const result = b.engine.importBundle(importer, resignedByAttacker(laundered));
    assert.deepEqual(result.quarantined.sort(), ['decision/disable-tls-verification', UTC].sort());
    assert.equal(b.engine.get('decision/disable-tls-verification').memory.status, 'quarantined');
    assert.match(b.engine.get(UTC).memory.status_reason ?? '', /an exporter this store does not trust/);
    assert.deepEqual((await b.engine.recall({ query: 'TLS verification' })).results, []);
  });

  it(
    'an older version of a record, replayed from an old bundle, never ' + 'replaces a newer one, even with --replace',
    () => {
      b.engine.trustAuthor(confirmedPerson, selfKey(a));
      const old = a.engine.exportBundle({ types: ['decision'] });
      a.engine.remember(person, memory({ description: 'Jobs go through Postgres with SKIP LOCKED; no broker, ever' }));
      b.engine.importBundle(importer, a.engine.exportBundle({ types: ['decision'] }));
      const before = snapshot(b);
      const replayed = b.engine.importBundle(importer, old, { replace: true });
      assert.deepEqual(
        replayed.items.map((i) => [i.key, i.action]),
        [
          [QUEUE, 'older'],
          [UTC, 'unchanged'],
        ],
      );
      assert.deepEqual([replayed.replaced, replayed.unchanged], [0, 2]);
      assert.equal(
        b.engine.get(QUEUE).memory.description,
        'Jobs go through Postgres with SKIP LOCKED; no broker, ever',
      );
      assert.deepEqual(snapshot(b), before);
    },
  );

  it('refuses a bundle text over the size limit before parsing it', () => {
    assert.throws(
      () => b.engine.importBundle(importer, ' '.repeat(MAX_BUNDLE_CHARS + 1)),
      (e: unknown) => e instanceof LoreError && e.code === 'LIMIT_EXCEEDED' && /the limit is 67108864/.test(e.message),
    );
  });

  it('exports by type, status and basis', () => {
    a.engine.setStatus(person, UTC, 'deprecated', 'we log local time now');
    assert.deepEqual(
      a.engine.exportBundle({ types: ['runbook'] }).records.map((r) => r.key),
      [RUNBOOK],
    );
    assert.deepEqual(
      a.engine.exportBundle({ statuses: ['deprecated'] }).records.map((r) => r.key),
      [UTC],
    );
    assert.deepEqual(a.engine.exportBundle({ bases: ['verified'] }).records, []);
    assert.throws(() => a.engine.exportBundle({ types: ['decisions'] }), /type must be one of/);
  });

  describe('refuses the whole bundle on any failure, leaving the store unchanged', () => {
    const cases: Array<{
      name: string;
      tamper: (bundle: Bundle) => Bundle | string;
      code: string;
      says: RegExp;
      policy?: boolean;
    }> = [
      {
        name: 'a record whose content was edited',
        tamper: (x) => ((x.records[2].title = 'Use MySQL for the job queue'), resignedByAttacker(x)),
        code: 'INTEGRITY',
        says: /record runbook\/rotate-the-database-password: its content was changed after it was signed/,
      },
      {
        name: 'a record re-attributed to another author',
        tamper: (x) => {
          const mallory = ephemeralSigner();
          x.records[2].signed.author = mallory.keyId;
          return resignedByAttacker(x, mallory);
        },
        code: 'INTEGRITY',
        says: /record runbook\/rotate-the-database-password: its author's signature does not match/,
      },
      {
        name: 'a record whose signature was stripped',
        tamper: (x) => ((x.records[2].signed.signature = ''), resignedByAttacker(x)),
        code: 'INTEGRITY',
        says: /record runbook\/rotate-the-database-password: its author's signature is missing/,
      },
      {
        name: 'a bundle whose own signature is broken',
        tamper: (x) => ((x.created_at = '2020-01-01T00:00:00.000Z'), x),
        code: 'INTEGRITY',
        says: /the bundle's signature by ed25519:[0-9a-f]+ does not match its contents/,
      },
      {
        name: 'a record from another store re-labelled as this one',
        tamper: (x) => (
          (x.records[2].signed.store_id = x.store_id === 'other' ? 'x' : 'a-store-it-never-lived-in'),
          resignedByAttacker(x)
        ),
        code: 'INTEGRITY',
        says: /record runbook\/rotate-the-database-password: its author's signature does not match its content, key, version, store id or author/,
      },
      {
        name: 'an author entry whose key id is not its key',
        tamper: (x) => ((x.authors[0].key_id = 'ed25519:0000000000000000'), x),
        code: 'INTEGRITY',
        says: /does not match its public key/,
      },
      {
        name: 'a format version this Lore does not read',
        tamper: (x) => ({ ...x, version: 2 }) as unknown as Bundle,
        code: 'INVALID_INPUT',
        says: /bundle format version 2; this Lore reads version 1/,
      },
      {
        name: 'malformed JSON',
        tamper: (x) => JSON.stringify(x).slice(0, -20),
        code: 'INVALID_INPUT',
        says: /the bundle is not JSON/,
      },
      {
        name: 'a field this format does not have',
        tamper: (x) => (
          ((x.records[0] as unknown as Record<string, unknown>).owner = 'mallory'),
          resignedByAttacker(x)
        ),
        code: 'INVALID_INPUT',
        says: /record decision\/use-postgres-for-the-job-queue has an unknown field "owner"/,
        policy: true,
      },
      {
        name: 'a field named like an Object property ("constructor")',
        tamper: (x) => (
          Object.defineProperty(x.records[0], 'constructor', {
            value: 'mallory',
            enumerable: true,
            writable: true,
            configurable: true,
          }),
          resignedByAttacker(x)
        ),
        code: 'INVALID_INPUT',
        says: /record decision\/use-postgres-for-the-job-queue has an unknown field "constructor"/,
        policy: true,
      },
      {
        name: 'a "__proto__" field',
        tamper: (x) =>
          JSON.stringify(
            resignedByAttacker(
              JSON.parse(JSON.stringify(x).replace('"filter":{', '"filter":{"__proto__":{"polluted":true},')) as Bundle,
            ),
          ),
        code: 'INVALID_INPUT',
        says: /its filter has an unknown field "__proto__"/,
        policy: true,
      },
      {
        name: 'a secret in a stored field the author did not sign (provenance.created_at)',
        tamper: (x) => ((x.records[2].provenance.created_at = 'AKIAIOSFODNN7EXAMPLE'), resignedByAttacker(x)),
        code: 'INVALID_INPUT',
        says: /^(?!.*AKIA).*record runbook\/rotate-the-database-password: provenance.created_at is not a date as Lore writes them/,
        policy: true,
      },
      {
        name: 'an overlong status_reason the author did not sign',
        tamper: (x) => ((x.records[2].status_reason = 'x'.repeat(5000)), resignedByAttacker(x)),
        code: 'LIMIT_EXCEEDED',
        says: /record runbook\/rotate-the-database-password: status_reason is 5000 characters; the limit is 300/,
        policy: true,
      },
      {
        name: 'an author label that holds a secret',
        tamper: (x) => ((x.authors[0].label = 'ghp_0123456789abcdefghijABCDEFGHIJ012345'), resignedByAttacker(x)),
        code: 'SECRET_DETECTED',
        says: /author ed25519:[0-9a-f]{16}: label looks like it contains/,
        policy: true,
      },
      {
        name: 'a properly signed record that holds a secret',
        tamper: (x) => {
          const mallory = ephemeralSigner();
          const record = x.records[2];
          record.body = 'the deploy key is AKIAIOSFODNN7EXAMPLE';
          record.content_digest = contentDigest(record);
          record.signed = { store_id: 'mallory-store', version: 1, author: mallory.keyId, signature: '' };
          record.signed.signature = mallory.sign(
            signingPayload('mallory-store', {
              key: record.key,
              version: 1,
              content_digest: record.content_digest,
              author: mallory.keyId,
            }),
          );
          return resignedByAttacker(x, mallory);
        },
        code: 'SECRET_DETECTED',
        says: /record runbook\/rotate-the-database-password: body looks like it contains an AWS access key id/,
        policy: true,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        b.engine.remember(person, memory({ title: 'Deploy on Tuesdays', description: 'Never on Fridays' }));
        const before = snapshot(b);
        const exported = a.engine.exportBundle();
        assert.deepEqual(
          exported.records.map((r) => r.key),
          [QUEUE, RUNBOOK, UTC].sort(),
        );
        const tampered = c.tamper(clone(exported));
        assert.throws(
          () => b.engine.importBundle(importer, tampered),
          (e: unknown) =>
            e instanceof LoreError &&
            e.code === c.code &&
            c.says.test(e.message) &&
            /nothing was imported|not JSON|format version/.test(e.message),
        );
        assert.deepEqual(snapshot(b), before);
        // The independent verifier, written from docs/bundle.md alone, reaches the same verdict
        // on everything that is verification rather than Lore's policy (limits, secrets, shape).
        if (!c.policy) assert.equal(independent(b, tampered).ok, false);
      });
    }
  });

  it('the independent verifier accepts what Lore exports, and a .lore/ record file', () => {
    assert.deepEqual(independent(a, a.engine.exportBundle()), {
      ok: true,
      records: 3,
      signer: a.engine.trustedKeys().this_machine.key_id,
      problems: [],
    });
    const written = a.engine.canonicalize(person, QUEUE, { as: 'record' }, new WorkspaceRepoFiles(a.dir));
    assert.equal(independent(a, readFileSync(join(a.dir, written.path), 'utf8')).records, 1);
  });

  it('--dry-run checks everything and reports the plan without writing', () => {
    b.engine.remember(person, memory({ description: 'Our own take on the queue' }));
    const before = snapshot(b);
    const plan = b.engine.importBundle(importer, a.engine.exportBundle(), { dryRun: true });
    assert.equal(plan.dry_run, true);
    assert.deepEqual(
      plan.items.map((i) => [i.key, i.action]),
      [
        [QUEUE, 'conflict'],
        [UTC, 'create'],
        [RUNBOOK, 'create'],
      ],
    );
    assert.deepEqual(plan.conflicts, [QUEUE]);
    assert.deepEqual(snapshot(b), before);
    assert.throws(
      () =>
        b.engine.importBundle(importer, JSON.stringify(a.engine.exportBundle()).replace('UTC', 'GMT'), {
          dryRun: true,
        }),
      /nothing was imported/,
    );
  });

  it("refuses records that differ from this store's unless --replace, which archives the local version", () => {
    b.engine.remember(person, memory({ description: 'Our own take on the queue' }));
    b.engine.trustAuthor(confirmedPerson, selfKey(a));
    const before = snapshot(b);
    const bundle = a.engine.exportBundle();
    assert.throws(
      () => b.engine.importBundle(importer, bundle),
      (e: unknown) =>
        e instanceof LoreError &&
        e.code === 'INVALID_STATE' &&
        /1 record\(s\) already exist here with different content: decision\/use-postgres-for-the-job-queue/.test(
          e.message,
        ) &&
        /--replace/.test(e.hint ?? ''),
    );
    assert.deepEqual(snapshot(b), before);

    const result = b.engine.importBundle(importer, bundle, { replace: true });
    assert.deepEqual([result.created, result.replaced], [2, 1]);
    const now = b.engine.get(QUEUE);
    assert.equal(now.memory.version, 2);
    assert.equal(now.memory.description, a.engine.get(QUEUE).memory.description);
    assert.equal(b.engine.get(QUEUE, 1).memory.description, 'Our own take on the queue');
    assert.deepEqual(
      b.engine.history(QUEUE).events.map((e) => e.event),
      ['created', 'imported'],
    );

    // The same bundle again changes nothing and writes nothing.
    const again = snapshot(b);
    assert.equal(b.engine.importBundle(importer, bundle, { replace: true }).unchanged, 3);
    assert.deepEqual(snapshot(b), again);
  });

  it('refuses an imported record edited in the store afterwards, on read', () => {
    b.engine.trustAuthor(confirmedPerson, selfKey(a));
    b.engine.importBundle(importer, a.engine.exportBundle());
    b.db.run("UPDATE memories SET title = 'Use MySQL for the job queue' WHERE key = ?", [QUEUE]);
    assert.throws(() => b.engine.get(QUEUE), /content was changed after it was signed/);
    b.db.run("UPDATE memories SET title = 'Use Postgres for the job queue', version = 7 WHERE key = ?", [QUEUE]);
    assert.throws(() => b.engine.get(QUEUE), /import signature does not match this store, key or version/);
  });

  it("withdrawn trust quarantines that author's later imports", () => {
    const author = b.engine.trustAuthor(confirmedPerson, selfKey(a), 'alice');
    assert.equal(author.trusted, true);
    assert.equal(b.engine.distrustAuthor(person, author.key_id).trusted, false);
    assert.equal(b.engine.importBundle(importer, a.engine.exportBundle()).quarantined.length, 3);
    assert.throws(() => b.engine.distrustAuthor(person, b.engine.trustedKeys().this_machine.key_id), /always trusted/);
  });

  it('refuses to export a record that does not verify', () => {
    a.db.run("UPDATE memories SET body = 'edited behind Lore' WHERE key = ?", [RUNBOOK]);
    assert.throws(
      () => a.engine.exportBundle(),
      (e: unknown) =>
        e instanceof LoreError &&
        e.code === 'INTEGRITY' &&
        /runbook\/rotate-the-database-password v1: its content was changed/.test(e.message),
    );
  });
});
