// Each table's SQL lives in its owner's store module: one file per table may name it in SQL (and
// the schema, store/migrations.ts, names them all). This is the seam a second database adapter
// implements. Files that still name another owner's table are listed below, and the list may only
// shrink: a new one fails, and so does an entry that no longer occurs (delete it).

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ENGINE = join(__dirname, '..', '..', 'src', 'engine');
const SCHEMA = 'store/migrations.ts';

/** Table → the one engine file allowed to name it in SQL. */
const TABLE_OWNERS: Record<string, string> = {
  memories: 'record/rows.ts',
  memory_events: 'record/events.ts',
  audit_events: 'record/audit.ts',
  authors: 'record/integrity.ts',
  meta: SCHEMA,
  memory_fts: 'search/recall.ts',
  memory_vectors: 'record/vectors.ts',
  docs: 'indexing/docStore.ts',
  doc_chunks: 'indexing/docStore.ts',
  chunk_vectors: 'indexing/docStore.ts',
  doc_fts: 'search/docs.ts',
  inbox_items: 'steward/inbox.ts',
  drift_refs: 'drift/store.ts',
  drift_dismissals: 'drift/store.ts',
  vector_code_pages: 'record/vectors.ts',
};

/** "table file": SQL naming a table outside its owner, still to move into the owner's named queries. */
const KNOWN_OUTSIDE_OWNER = new Set([
  'meta drift/store.ts',
  'meta engine.ts',
  'meta indexing/docStore.ts',
  'meta indexing/indexer.ts',
  'meta record/audit.ts',
  'meta record/integrity.ts',
  'meta record/vectors.ts',
  'meta search/bm25.ts',
  'memories drift/store.ts',
  'memories indexing/docStore.ts',
  'memories memory/anchored.ts',
  'memories record/chainRecords.ts',
  'memories record/deadEnds.ts',
  'memories record/state.ts',
  'memories search/bm25.ts',
  'memories search/contradictions.ts',
  'memories search/recall.ts',
  'memories search/verification.ts',
  'memories steward/resolve.ts',
  'memories steward/run.ts',
  'memories steward/sessionClose.ts',
  'memories team/bundle.ts',
  'memories team/trustedKeys.ts',
  'memory_fts memory/forget.ts',
  'memory_fts search/contradictions.ts',
  'memory_fts steward/sessionClose.ts',
  'memory_vectors indexing/docStore.ts',
  'memory_events record/chainRecords.ts',
  'audit_events steward/run.ts',
  'docs drift/store.ts',
  'docs engine.ts',
  'docs indexing/docList.ts',
  'docs search/docs.ts',
  'docs team/canonicalize.ts',
  'doc_chunks search/bm25.ts',
  'doc_chunks search/docs.ts',
  'doc_fts search/recall.ts',
  'authors team/bundle.ts',
  'authors team/trustedKeys.ts',
  'inbox_items search/conflicts.ts',
  'inbox_items search/verification.ts',
  'inbox_items steward/run.ts',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** SQL naming a table: after FROM, JOIN, INTO, UPDATE or TABLE (not a folder: "built from docs/"). */
const namesInSql = (table: string) => new RegExp(String.raw`\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+${table}(?![\w/])`, 'i');

describe('each table is named in SQL by its owner only', () => {
  const files = sourceFiles(ENGINE).map((path) => ({ name: relative(ENGINE, path), text: readFileSync(path, 'utf8') }));
  const schema = files.find((f) => f.name === SCHEMA)!.text;
  const tables = [
    ...new Set([...schema.matchAll(/CREATE (?:VIRTUAL )?TABLE(?: IF NOT EXISTS)? ([a-z_]+)/g)].map((m) => m[1])),
  ];

  it('every table the schema creates has an owner that exists', () => {
    assert.ok(tables.length > 10, `found only ${tables.length} tables`);
    assert.deepEqual(
      tables.filter((t) => !(t in TABLE_OWNERS)),
      [],
      'add these tables to TABLE_OWNERS',
    );
    for (const owner of Object.values(TABLE_OWNERS))
      assert.ok(
        files.some((f) => f.name === owner),
        owner,
      );
  });

  it('recognises a table named in SQL and leaves a look-alike alone', () => {
    assert.ok(namesInSql('memories').test('SELECT key FROM memories WHERE id = ?'));
    assert.ok(namesInSql('memories').test('UPDATE memories SET x = 1'));
    assert.ok(!namesInSql('memories').test('the memories of a store'));
    assert.ok(!namesInSql('memories').test('SELECT * FROM memories_old'));
    assert.ok(!namesInSql('docs').test('// Hugo sites often build content/ from docs/.'));
  });

  it('no file outside the owner names a table in SQL, beyond the list that only shrinks', () => {
    const found = new Set<string>();
    for (const table of tables) {
      for (const f of files) {
        if (f.name === SCHEMA || f.name === TABLE_OWNERS[table]) continue;
        if (namesInSql(table).test(f.text)) found.add(`${table} ${f.name}`);
      }
    }
    const fresh = [...found].filter((pair) => !KNOWN_OUTSIDE_OWNER.has(pair)).sort();
    assert.deepEqual(fresh, [], "SQL naming another owner's table: add a named query to the owner's module");
    const gone = [...KNOWN_OUTSIDE_OWNER].filter((pair) => !found.has(pair));
    assert.deepEqual(gone, [], 'moved to the owner: delete these from KNOWN_OUTSIDE_OWNER');
  });
});
