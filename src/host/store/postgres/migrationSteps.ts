// The SQL of each version of the shared PostgreSQL store's schema, in order (migrations.ts applies
// them): one entry per version, never edited once released, so every store reaches the same tables.

export const PG_SCHEMA = 'lore';

export interface PgMigration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'repositories; memories with versions, lifecycle events, audit chain, authors and trust',
    sql: `
      -- One row per repository, keyed by its normalised remote URL (never with credentials).
      -- store_id is what the SQLite store keeps in meta: the id records are signed against.
      CREATE TABLE repositories (
        id BIGSERIAL PRIMARY KEY,
        remote TEXT NOT NULL UNIQUE,
        store_id TEXT NOT NULL UNIQUE,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );

      -- Per repository, as SQLite's meta: the audit head, signing_from_id, store settings.
      CREATE TABLE meta (
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (repo_id, name)
      );

      -- The row a save of a key locks (SELECT … FOR UPDATE), present from the key's first save, so
      -- two writers creating the same key queue on it like two writers updating it.
      CREATE TABLE memory_keys (
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        PRIMARY KEY (repo_id, key)
      );

      -- Every version of every memory, column for column as in SQLite (timestamps stay the ISO
      -- text the engine signs). is_current = 1 marks the live version: at most one per key.
      CREATE TABLE memories (
        id BIGSERIAL PRIMARY KEY,
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        version INTEGER NOT NULL CHECK (version > 0),
        is_current SMALLINT NOT NULL CHECK (is_current IN (0, 1)),
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
        confidence DOUBLE PRECISION,
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
        origin TEXT,
        state_signature TEXT,
        state_signer TEXT,
        -- The client's id of the write that made this version (records.ts): a retry finds it.
        write_id TEXT,
        -- Lexical recall: title, description, body and tags weighted as SQLite's bm25 weights them.
        search_vector TSVECTOR GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') ||
          setweight(to_tsvector('english', description), 'B') ||
          setweight(to_tsvector('simple', tags), 'B') ||
          setweight(to_tsvector('english', body), 'C')
        ) STORED,
        UNIQUE (repo_id, key, version),
        UNIQUE (repo_id, write_id)
      );
      CREATE UNIQUE INDEX memories_one_current ON memories (repo_id, key) WHERE is_current = 1;
      CREATE INDEX memories_current ON memories (repo_id, is_current, status, type);
      CREATE INDEX memories_fact_key ON memories (repo_id, fact_key) WHERE fact_key IS NOT NULL;
      CREATE INDEX memories_search ON memories USING GIN (search_vector);

      CREATE TABLE memory_vectors (
        memory_id BIGINT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        vector BYTEA NOT NULL,
        code BYTEA,
        PRIMARY KEY (memory_id, model)
      );

      CREATE TABLE memory_events (
        id BIGSERIAL PRIMARY KEY,
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        version INTEGER NOT NULL,
        event TEXT NOT NULL,
        reason TEXT,
        related_key TEXT,
        valid_at TEXT,
        at TEXT NOT NULL,
        actor TEXT NOT NULL
      );
      CREATE INDEX memory_events_key ON memory_events (repo_id, key, id);

      -- The audit chain, one per repository: digests only, never content (as in SQLite).
      -- hash = sha256(prev_hash || canonical event). Appends hold the repository's advisory lock;
      -- the unique prev_hash makes a fork impossible even for a writer that skipped the lock.
      CREATE TABLE audit_events (
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        seq BIGINT NOT NULL CHECK (seq > 0),
        at TEXT NOT NULL,
        event TEXT NOT NULL,
        key_digest TEXT,
        version INTEGER,
        actor TEXT NOT NULL,
        digests TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (repo_id, seq),
        UNIQUE (repo_id, prev_hash)
      );

      -- Authors' public keys; trusted = 1 when a person said so (lore trust add).
      CREATE TABLE authors (
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        key_id TEXT NOT NULL,
        public_key TEXT NOT NULL,
        label TEXT,
        added_at TEXT NOT NULL,
        trusted SMALLINT NOT NULL DEFAULT 0,
        PRIMARY KEY (repo_id, key_id)
      );
    `,
  },
  {
    version: 2,
    description: 'the steward Inbox, drift references and dismissals, the docs index',
    sql: `
      CREATE TABLE inbox_items (
        id BIGSERIAL PRIMARY KEY,
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        fingerprint TEXT NOT NULL,
        kind TEXT NOT NULL,
        keys TEXT NOT NULL,
        summary TEXT NOT NULL,
        evidence TEXT NOT NULL,
        risk TEXT NOT NULL,
        actions TEXT NOT NULL,
        proposal TEXT,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        resolution TEXT,
        resolved_by TEXT,
        resolved_at TEXT,
        note TEXT
      );
      CREATE INDEX inbox_items_state ON inbox_items (repo_id, state, id);
      CREATE INDEX inbox_items_fingerprint ON inbox_items (repo_id, fingerprint);

      CREATE TABLE drift_refs (
        id BIGSERIAL PRIMARY KEY,
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        source_kind TEXT NOT NULL,
        source TEXT NOT NULL,
        line INTEGER NOT NULL,
        raw TEXT NOT NULL,
        form TEXT NOT NULL,
        target_path TEXT,
        target_kind TEXT NOT NULL,
        symbol TEXT,
        fingerprint TEXT,
        base_size BIGINT,
        size BIGINT,
        mtime_ms BIGINT,
        state TEXT NOT NULL,
        old_path TEXT,
        new_path TEXT,
        detail TEXT NOT NULL,
        detected_at TEXT NOT NULL,
        checked_at TEXT NOT NULL,
        verified_at TEXT,
        verified_by TEXT,
        finder TEXT,
        symbol_kind TEXT,
        command TEXT,
        already_broken SMALLINT NOT NULL DEFAULT 0
      );
      CREATE INDEX drift_refs_source ON drift_refs (repo_id, source_kind, source);
      CREATE INDEX drift_refs_target ON drift_refs (repo_id, target_path);
      CREATE INDEX drift_refs_new_path ON drift_refs (repo_id, new_path) WHERE new_path IS NOT NULL;

      CREATE TABLE drift_dismissals (
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        raw TEXT NOT NULL,
        target_path TEXT NOT NULL,
        dismissed_at TEXT NOT NULL,
        dismissed_by TEXT NOT NULL,
        PRIMARY KEY (repo_id, source, raw, target_path)
      );

      -- The docs index of each repository's working tree.
      CREATE TABLE docs (
        id BIGSERIAL PRIMARY KEY,
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        size BIGINT NOT NULL,
        mtime_ms BIGINT NOT NULL,
        redactions INTEGER NOT NULL,
        indexed_at TEXT NOT NULL,
        kind_confidence DOUBLE PRECISION,
        kind_runner_up TEXT,
        kind_signals TEXT,
        UNIQUE (repo_id, path)
      );
      CREATE INDEX docs_hash ON docs (repo_id, content_hash);

      CREATE TABLE doc_chunks (
        id BIGSERIAL PRIMARY KEY,
        doc_id BIGINT NOT NULL REFERENCES docs (id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        title TEXT NOT NULL,
        heading TEXT NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        text TEXT NOT NULL,
        search_vector TSVECTOR GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') ||
          setweight(to_tsvector('english', heading), 'B') ||
          setweight(to_tsvector('english', text), 'C')
        ) STORED
      );
      CREATE INDEX doc_chunks_doc ON doc_chunks (doc_id, ord);
      CREATE INDEX doc_chunks_search ON doc_chunks USING GIN (search_vector);

      CREATE TABLE chunk_vectors (
        chunk_id BIGINT NOT NULL REFERENCES doc_chunks (id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        vector BYTEA NOT NULL,
        code BYTEA,
        PRIMARY KEY (chunk_id, model)
      );
    `,
  },
  {
    version: 3,
    description: "sealed fields: a version's whole state kept beside its state signature",
    sql: `
      -- engine/record/seal.ts: the sealed copy of a version's state (status, reason, provenance, successor,
      -- predecessor, valid_until, is_current, times, origin); state_signature covers it. Versions written
      -- before it are sealed once by the first engine that opens the store (their status and provenance
      -- must still hold their signature).
      ALTER TABLE memories ADD COLUMN state_sealed TEXT;
    `,
  },
  {
    version: 4,
    description: 'recall: memories stemmed without stop words, tags stemmed, as SQLite FTS5 indexes them',
    sql: `
      -- Snowball's English stemmer with no stop-word list: SQLite's porter tokenizer keeps every
      -- word, so "how" or "only" in a query counts on both stores.
      CREATE TEXT SEARCH DICTIONARY english_all (TEMPLATE = pg_catalog.snowball, LANGUAGE = english);
      CREATE TEXT SEARCH CONFIGURATION english (COPY = pg_catalog.english);
      ALTER TEXT SEARCH CONFIGURATION english ALTER MAPPING REPLACE english_stem WITH english_all;

      -- Title A, description and tags B, body C: recall ranks them 4, 2, 2, 1 (ts_rank weights).
      DROP INDEX memories_search;
      ALTER TABLE memories DROP COLUMN search_vector;
      ALTER TABLE memories ADD COLUMN search_vector TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('lore.english'::regconfig, title), 'A') ||
        setweight(to_tsvector('lore.english'::regconfig, description), 'B') ||
        setweight(to_tsvector('lore.english'::regconfig, tags), 'B') ||
        setweight(to_tsvector('lore.english'::regconfig, body), 'C')
      ) STORED;
      CREATE INDEX memories_search ON memories USING GIN (search_vector);
    `,
  },
  {
    version: 5,
    description: "memory vectors: each model's centre for sign codes, and each vector's seal",
    sql: `
      -- The centre a model's sign codes are taken around (engine/record/vectors.ts), one per model
      -- for the whole store, so codes compare across repositories: fixed by the first vectors stored.
      CREATE TABLE vector_centres (
        model TEXT PRIMARY KEY,
        dims INTEGER NOT NULL,
        centre BYTEA NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      -- As SQLite's (its schema 15): model, dimensions and the vector's digest, by the writer's key.
      ALTER TABLE memory_vectors ADD COLUMN sealed TEXT;
      ALTER TABLE memory_vectors ADD COLUMN seal_signature TEXT;
      ALTER TABLE memory_vectors ADD COLUMN seal_signer TEXT;
      CREATE INDEX memory_vectors_model ON memory_vectors (model, memory_id);
    `,
  },
  {
    version: 6,
    description: "write receipts: a transaction's write id, so a retry after a lost commit finds it landed",
    sql: `
      -- Written in the engine's transaction just before it commits: after a connection lost while
      -- committing, the client asks whether its write id is here (it landed: done) or not (retry).
      -- Kept a day (pruned when a client opens the store): retries last seconds.
      CREATE TABLE write_receipts (
        write_id TEXT PRIMARY KEY,
        repo_id BIGINT NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
        at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX write_receipts_at ON write_receipts (at);
    `,
  },
];
