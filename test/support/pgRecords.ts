// Records for the PostgreSQL tests, made the engine's way (its content and state digests), and the
// engine's own audit verifier run over what a PostgreSQL store holds: the rows and the chain are
// copied into a fresh SQLite store of the engine's schema and `verifyAudit` (what `lore audit
// verify` runs) judges them, so the chain is checked by the same code as a SQLite store's.

import type { AuditVerdict } from '../../src/engine';
import { contentDigest, type ContentField } from '../../src/engine/record/contentDigest';
import { stateDigest } from '../../src/engine/record/state';
import type { Memory } from '../../src/engine/model/types';
import { MEMORY_COLUMNS, type MemoryRow } from '../../src/engine/record/rows';
import { migrate } from '../../src/engine/store/migrations';
import { verifyAudit } from '../../src/engine/record/audit';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import type { PostgresStore } from '../../src/host/store/postgres/postgresStore';
import type { NewVersion, SaveVersionInput } from '../../src/host/store/postgres/records';

/** The build step of a save: version n+1 of `key` saying `text`, with its audit event. */
export function versionBuilder(key: string, text: string, at: string): SaveVersionInput['build'] {
  return (current) => {
    const version = (current?.version ?? 0) + 1;
    const provenance = { source: 'user' as const, created_at: at, evidence: [] as string[] };
    const content: Pick<Memory, ContentField> = {
      key,
      type: 'decision',
      title: `Decision ${key}`,
      description: text,
      body: `The body of ${key}: ${text}`,
      links: [],
      anchors: [],
      tags: ['pg-test'],
      scope: 'workspace',
      basis: 'declared',
      confidence: null,
      fact_key: null,
      valid_from: at,
      review_after: null,
    };
    const digest = contentDigest(content);
    const row: NewVersion = {
      ...content,
      version,
      links: '[]',
      anchors: '[]',
      tags: JSON.stringify(content.tags),
      status: 'active',
      status_reason: null,
      superseded_by: null,
      supersedes: null,
      provenance: JSON.stringify(provenance),
      valid_until: null,
      recorded_at: at,
      updated_at: at,
      author: null,
      signature: null,
      content_digest: digest,
      origin: null,
      state_signature: null,
      state_signer: null,
      state_sealed: null,
    };
    const digests = {
      content: digest,
      state: stateDigest({ status: 'active', provenance }),
      ...(current ? { previous: current.content_digest } : {}),
    };
    return {
      row,
      audit: { event: current ? 'memory.update' : 'memory.create', key, version, digests },
      event: current ? 'updated' : 'created',
    };
  };
}

/** The engine's audit verdict over a repository of a PostgreSQL store. */
export async function verifyWithEngine(store: PostgresStore, repoId: number): Promise<AuditVerdict> {
  const rows = await store.memoryRows(repoId);
  const { events, head } = await store.auditChain(repoId);
  const db = new WasmSqlDatabase(':memory:');
  try {
    migrate(db, { sealStates: () => {}, sealEverything: () => {} });
    db.transaction(() => {
      const columns = ['id', ...MEMORY_COLUMNS];
      const insert = `INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
      for (const row of rows)
        db.run(
          insert,
          columns.map((c) => row[c as keyof MemoryRow] ?? null),
        );
      for (const e of events)
        db.run(
          'INSERT INTO audit_events (seq, at, event, key_digest, version, actor, digests, prev_hash, hash) ' +
            'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [e.seq, e.at, e.event, e.key_digest, e.version, e.actor, e.digests, e.prev_hash, e.hash],
        );
      if (head !== undefined) db.run("INSERT INTO meta (name, value) VALUES ('audit_head', ?)", [head]);
    });
    return verifyAudit(db);
  } finally {
    db.close();
  }
}
