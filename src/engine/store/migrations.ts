// Versioned schema migrations, applied in order inside one transaction each. PRAGMA user_version
// holds the applied version; a store written by a newer Lore is refused rather than guessed at.

import { LoreError } from '../errors';
import type { SqlDatabase } from '../ports';

interface Migration {
  version: number;
  description: string;
  sql: string;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'memories with versions, full-text index, vectors, events, audit chain',
    sql: `
      CREATE TABLE meta (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      -- Every version of every memory. is_current marks the live one per key; the others are the
      -- archive (at most five per key, outside recall except for as_of queries).
      CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        version INTEGER NOT NULL,
        is_current INTEGER NOT NULL,
        type TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        body TEXT NOT NULL,
        links TEXT NOT NULL,
        anchors TEXT NOT NULL,
        tags TEXT NOT NULL,
        scope TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        superseded_by TEXT,
        supersedes TEXT,
        basis TEXT NOT NULL,
        confidence REAL,
        provenance TEXT NOT NULL,
        valid_from TEXT NOT NULL,
        valid_until TEXT,
        recorded_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        review_after TEXT,
        fact_key TEXT,
        author TEXT,
        signature TEXT,
        content_digest TEXT NOT NULL,
        UNIQUE (key, version)
      );
      CREATE INDEX memories_current ON memories (is_current, status, type);
      CREATE INDEX memories_key_current ON memories (key, is_current);
      CREATE INDEX memories_fact_key ON memories (fact_key) WHERE fact_key IS NOT NULL;

      -- External-content FTS5 over title, description, body: it stores terms, not text, and the
      -- triggers keep it exact, so forgetting a memory's rows forgets its terms.
      CREATE VIRTUAL TABLE memory_fts USING fts5(
        title, description, body, tags,
        content = 'memories', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memory_fts (rowid, title, description, body, tags)
        VALUES (new.id, new.title, new.description, new.body, new.tags);
      END;
      CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, title, description, body, tags)
        VALUES ('delete', old.id, old.title, old.description, old.body, old.tags);
      END;
      CREATE TRIGGER memories_fts_update AFTER UPDATE OF title, description, body, tags ON memories BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, title, description, body, tags)
        VALUES ('delete', old.id, old.title, old.description, old.body, old.tags);
        INSERT INTO memory_fts (rowid, title, description, body, tags)
        VALUES (new.id, new.title, new.description, new.body, new.tags);
      END;

      -- Embeddings of memory versions, tagged with the model that made them (never compared across models).
      CREATE TABLE memory_vectors (
        memory_id INTEGER NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (memory_id, model)
      );

      -- Lifecycle history per key: creations, updates, status changes, supersessions, tombstones.
      CREATE TABLE memory_events (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        version INTEGER NOT NULL,
        event TEXT NOT NULL,
        reason TEXT,
        related_key TEXT,
        valid_at TEXT,
        at TEXT NOT NULL,
        actor TEXT NOT NULL
      );
      CREATE INDEX memory_events_key ON memory_events (key, id);

      -- The audit chain: digests only, never content. Even the key is kept as a digest, because
      -- keys are made from titles and forget must leave no text behind.
      -- hash = sha256(prev_hash || canonical event).
      CREATE TABLE audit_events (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        event TEXT NOT NULL,
        key_digest TEXT,
        version INTEGER,
        actor TEXT NOT NULL,
        digests TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'workspace index: documents, chunks, their full-text index and vectors',
    sql: `
      CREATE TABLE docs (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        redactions INTEGER NOT NULL,
        indexed_at TEXT NOT NULL
      );
      CREATE INDEX docs_hash ON docs (content_hash);

      CREATE TABLE doc_chunks (
        id INTEGER PRIMARY KEY,
        doc_id INTEGER NOT NULL REFERENCES docs (id),
        ord INTEGER NOT NULL,
        title TEXT NOT NULL,
        heading TEXT NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        text TEXT NOT NULL
      );
      CREATE INDEX doc_chunks_doc ON doc_chunks (doc_id, ord);

      CREATE VIRTUAL TABLE doc_fts USING fts5(
        title, heading, text,
        content = 'doc_chunks', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER doc_chunks_fts_insert AFTER INSERT ON doc_chunks BEGIN
        INSERT INTO doc_fts (rowid, title, heading, text) VALUES (new.id, new.title, new.heading, new.text);
      END;
      CREATE TRIGGER doc_chunks_fts_delete AFTER DELETE ON doc_chunks BEGIN
        INSERT INTO doc_fts (doc_fts, rowid, title, heading, text) VALUES ('delete', old.id, old.title, old.heading, old.text);
      END;

      -- Vectors of chunks, tagged with the model that made them; only the current model's are used.
      CREATE TABLE chunk_vectors (
        chunk_id INTEGER NOT NULL REFERENCES doc_chunks (id),
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (chunk_id, model)
      );
    `,
  },
  {
    version: 3,
    description: 'signed records: the public keys of authors',
    sql: `
      CREATE TABLE authors (
        key_id TEXT PRIMARY KEY,
        public_key TEXT NOT NULL,
        label TEXT,
        added_at TEXT NOT NULL
      );
      -- Rows written before signing existed read as unattributed; every later row must verify.
      INSERT INTO meta (name, value) SELECT 'signing_from_id', COALESCE(MAX(id), 0) + 1 FROM memories;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

export function currentSchemaVersion(db: SqlDatabase): number {
  return db.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
}

/** Brings the schema up to date. Returns the versions applied. */
export function migrate(db: SqlDatabase): number[] {
  const from = currentSchemaVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new LoreError(
      'STORE_TOO_NEW',
      `this store has schema version ${from}, newer than this Lore understands (${SCHEMA_VERSION})`,
      'upgrade Lore; the store was left untouched',
    );
  }
  const applied: number[] = [];
  for (const migration of MIGRATIONS.filter((m) => m.version > from)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
    applied.push(migration.version);
  }
  return applied;
}
