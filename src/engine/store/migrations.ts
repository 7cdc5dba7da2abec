// Versioned schema migrations, applied in order inside one transaction each. PRAGMA user_version
// holds the applied version; a store written by a newer Lore is refused rather than guessed at.

import { LoreError } from '../errors';
import type { SqlDatabase } from '../ports';

interface Migration {
  version: number;
  description: string;
  sql: string;
  /** Work the SQL cannot do (signing needs the machine's key), run in the migration's transaction. */
  upgrade?: keyof MigrationHooks;
}

/** What the engine does for a migration that needs more than SQL. */
export interface MigrationHooks {
  /** Signs the state (status, provenance) of every row as it stands when the store is upgraded. */
  sealStates(db: SqlDatabase): void;
  /** Seals each version's whole state (if its status holds its signature), the history, authors and vectors. */
  sealEverything(db: SqlDatabase): void;
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
        INSERT INTO doc_fts (doc_fts, rowid, title, heading, text)
          VALUES ('delete', old.id, old.title, old.heading, old.text);
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
  {
    version: 4,
    description: 'the steward inbox: findings and session-close proposals waiting for a person',
    sql: `
      -- One row per finding or queued proposal. fingerprint names what was found (kind, records,
      -- versions), so a rerun does not queue it twice and a dismissed finding stays dismissed until
      -- one of its records changes. keys lists every memory key the item names, so forget can
      -- remove items that mention a forgotten record.
      CREATE TABLE inbox_items (
        id INTEGER PRIMARY KEY,
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
      CREATE INDEX inbox_items_state ON inbox_items (state, id);
      CREATE INDEX inbox_items_fingerprint ON inbox_items (fingerprint);
    `,
  },
  {
    version: 5,
    description: 'team sharing: trusted author keys and the original signature of imported records',
    sql: `
      -- A key is trusted when a person said so (lore trust add) or it wrote records here before
      -- imports existed; imports from any other key land quarantined.
      ALTER TABLE authors ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0;
      UPDATE authors SET trusted = 1;
      -- An imported version keeps its author's own signature (made in the store it was written in)
      -- as JSON {store_id, version, signature, signer, imported_at}; signature is this store's.
      ALTER TABLE memories ADD COLUMN origin TEXT;
    `,
  },
  {
    version: 6,
    description: 'drift: the references documents and memories make, their baselines and latest states',
    sql: `
      -- One row per (source, reference, target). fingerprint is the baseline (first seen or last
      -- re-verified): a file's hash, or the hash of a symbol's own text; size/mtime_ms are the
      -- target's stat at the last check, so an unchanged file is not read again.
      CREATE TABLE drift_refs (
        id INTEGER PRIMARY KEY,
        source_kind TEXT NOT NULL,
        source TEXT NOT NULL,
        line INTEGER NOT NULL,
        raw TEXT NOT NULL,
        form TEXT NOT NULL,
        target_path TEXT,
        target_kind TEXT NOT NULL,
        symbol TEXT,
        fingerprint TEXT,
        base_size INTEGER,
        size INTEGER,
        mtime_ms INTEGER,
        state TEXT NOT NULL,
        old_path TEXT,
        new_path TEXT,
        detail TEXT NOT NULL,
        detected_at TEXT NOT NULL,
        checked_at TEXT NOT NULL,
        verified_at TEXT,
        verified_by TEXT
      );
      CREATE INDEX drift_refs_source ON drift_refs (source_kind, source);
      CREATE INDEX drift_refs_target ON drift_refs (target_path);
      CREATE INDEX drift_refs_new_path ON drift_refs (new_path) WHERE new_path IS NOT NULL;
    `,
  },
  {
    version: 7,
    description: 'drift: which finder (a parser or the patterns) located a symbol reference',
    sql: `
      -- A symbol's fingerprint is re-checked only with the finder that took it, so a parser that
      -- is not loaded yet (or newly is) never makes a difference in spans look like drift. NULL:
      -- the patterns (every row written before this column).
      ALTER TABLE drift_refs ADD COLUMN finder TEXT;
    `,
  },
  {
    version: 8,
    description: "signed state: each version's status and provenance signed by this store's machine",
    sql: `
      -- record/state.ts: state_signature covers store id, key, version, content digest, status and
      -- provenance. The rows already here are signed as they stand by the upgrade itself (in this
      -- migration's transaction), so after it a row without a state signature is refused.
      ALTER TABLE memories ADD COLUMN state_signature TEXT;
      ALTER TABLE memories ADD COLUMN state_signer TEXT;
    `,
    upgrade: 'sealStates',
  },
  {
    version: 9,
    description: 'vector search: a sign code beside each vector, so a search holds codes rather than every vector',
    sql: `
      -- search/vectors.ts: one bit a dimension of the vector minus its model's centre. Vectors
      -- stored before this get theirs the first time the model's vectors are searched.
      ALTER TABLE chunk_vectors ADD COLUMN code BLOB;
      ALTER TABLE memory_vectors ADD COLUMN code BLOB;
    `,
  },
  {
    version: 10,
    description: "drift: the kind of a symbol reference's definition (a Terraform variable, an output, a YAML key)",
    sql: `
      -- A symbol relocates only to a definition of the kind it had (drift/evaluate.ts). NULL: not known
      -- yet (rows written before this column get it the first time a check finds them unchanged).
      ALTER TABLE drift_refs ADD COLUMN symbol_kind TEXT;
    `,
  },
  {
    version: 11,
    description: "vector search: a model's sign codes packed in pages, so a one-shot search reads no vector rows",
    sql: `
      -- search/vectors.ts: derived from the code columns, written by the first search after a
      -- change. Any write to a model's vectors drops its pages (the triggers), so pages that
      -- exist are current, and a forgotten record's code does not outlive its vector.
      CREATE TABLE vector_code_pages (
        model TEXT NOT NULL,
        page INTEGER NOT NULL,
        ids BLOB NOT NULL,
        tables BLOB NOT NULL,
        codes BLOB NOT NULL,
        PRIMARY KEY (model, page)
      );
      CREATE TRIGGER chunk_vectors_pages_insert AFTER INSERT ON chunk_vectors BEGIN
        DELETE FROM vector_code_pages WHERE model = new.model;
      END;
      CREATE TRIGGER chunk_vectors_pages_update AFTER UPDATE ON chunk_vectors BEGIN
        DELETE FROM vector_code_pages WHERE model IN (old.model, new.model);
      END;
      CREATE TRIGGER chunk_vectors_pages_delete AFTER DELETE ON chunk_vectors BEGIN
        DELETE FROM vector_code_pages WHERE model = old.model;
      END;
      CREATE TRIGGER memory_vectors_pages_insert AFTER INSERT ON memory_vectors BEGIN
        DELETE FROM vector_code_pages WHERE model = new.model;
      END;
      CREATE TRIGGER memory_vectors_pages_update AFTER UPDATE ON memory_vectors BEGIN
        DELETE FROM vector_code_pages WHERE model IN (old.model, new.model);
      END;
      CREATE TRIGGER memory_vectors_pages_delete AFTER DELETE ON memory_vectors BEGIN
        DELETE FROM vector_code_pages WHERE model = old.model;
      END;
    `,
  },
  {
    version: 12,
    description: "kinds: the kind model's confidence in a document's kind, and a close runner-up kind",
    sql: `
      -- indexing/kindModel.ts: the probability of the kind (1 for a kind by definition) and the
      -- runner-up kind where it is close (CLOSE_RUNNER_UP), which recall's kind filter also takes,
      -- ranked after the documents of that kind. NULL: indexed before the model (judged again when
      -- the file changes or on a full index).
      ALTER TABLE docs ADD COLUMN kind_confidence REAL;
      ALTER TABLE docs ADD COLUMN kind_runner_up TEXT;
      -- The signals that decided the kind, in plain words, '; '-separated (the tree's tooltip).
      ALTER TABLE docs ADD COLUMN kind_signals TEXT;
    `,
  },
  {
    version: 13,
    description: 'drift: a flag tied to the program its line runs, breakage found at the first index, dismissed ties',
    sql: `
      -- drift/extract.ts: the program a flag's command line runs, as written: a flag is a reference of that
      -- program only (the same flag after another program is another reference). NULL for other forms.
      ALTER TABLE drift_refs ADD COLUMN command TEXT;
      -- 1: broken when Lore first saw it in a document nobody had written since Lore started (already
      -- broken, drift/service.ts), shown apart from drift caused since; cleared once the reference is current.
      ALTER TABLE drift_refs ADD COLUMN already_broken INTEGER NOT NULL DEFAULT 0;
      -- "Not about this file": a document's reference (as written) that a person said is not about a
      -- target; never tied to it again while the dismissal stands, whatever resolution finds.
      CREATE TABLE drift_dismissals (
        source TEXT NOT NULL,
        raw TEXT NOT NULL,
        target_path TEXT NOT NULL,
        dismissed_at TEXT NOT NULL,
        dismissed_by TEXT NOT NULL,
        PRIMARY KEY (source, raw, target_path)
      );
    `,
  },
  {
    version: 14,
    description: "kinds: a document's own reading, which the kinds' second pass weighs with its siblings'",
    sql: `
      -- indexing/kindSiblings.ts: the kind model's reading of the page's own text (its top kinds and
      -- probabilities, the signals), JSON. The second pass decides kind, kind_confidence and
      -- kind_runner_up from it and the siblings' readings without reading their files again. NULL: a
      -- kind by definition or a person's rule, or indexed before (judged again when the file changes).
      ALTER TABLE docs ADD COLUMN kind_own TEXT;
    `,
  },
  {
    version: 15,
    description: 'sealed fields: every field that hides, ranks or re-labels a record, the history and author trust',
    sql: `
      -- record/seal.ts: a row's sealed fields kept as canonical JSON beside it and signed by this
      -- store's machine. memories: status, reason, provenance, successor, predecessor, valid_until,
      -- is_current, times and origin (state_signature now covers this copy); memory_events: the whole
      -- event (actor included); authors: the key, label, trust and when added; memory_vectors (below).
      -- The upgrade seals the rows already here (a memory version only if its status and provenance
      -- still hold their signature).
      ALTER TABLE memories ADD COLUMN state_sealed TEXT;
      ALTER TABLE memory_events ADD COLUMN sealed TEXT;
      ALTER TABLE memory_events ADD COLUMN seal_signature TEXT;
      ALTER TABLE memory_events ADD COLUMN seal_signer TEXT;
      ALTER TABLE authors ADD COLUMN sealed TEXT;
      ALTER TABLE authors ADD COLUMN seal_signature TEXT;
      ALTER TABLE authors ADD COLUMN seal_signer TEXT;
      -- memory_vectors: model, dimensions and the vector's digest (a vector ranks its record in recall).
      ALTER TABLE memory_vectors ADD COLUMN sealed TEXT;
      ALTER TABLE memory_vectors ADD COLUMN seal_signature TEXT;
      ALTER TABLE memory_vectors ADD COLUMN seal_signer TEXT;
    `,
    upgrade: 'sealEverything',
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

export function currentSchemaVersion(db: SqlDatabase): number {
  return db.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
}

/** Brings the schema up to date. Returns the versions applied. */
export function migrate(db: SqlDatabase, hooks: MigrationHooks): number[] {
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
      if (migration.upgrade) hooks[migration.upgrade](db);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    });
    applied.push(migration.version);
  }
  return applied;
}
