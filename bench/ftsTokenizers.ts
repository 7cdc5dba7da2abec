// What the full-text index costs a bulk index, by FTS5 tokenizer: a real store's chunks written
// again into fresh stores that differ only in doc_fts's tokenizer (and one with no FTS table, the
// floor), a hundred chunks a transaction as the indexer commits them; and the same chunks one row
// per INSERT against sixteen. Reported as CPU ms per 1,000 chunks (process.cpuUsage), so a loaded
// machine's figures compare within the run. Measurement only: the store keeps its tokenizer
// (porter unicode61 remove_diacritics 2), which recall's ranking and tests rely on.
//
// npx tsx bench/ftsTokenizers.ts STORE.db [--limit N]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WasmSqlDatabase } from '../src/host/sqlite';

interface Row {
  doc_id: number;
  ord: number;
  title: string;
  heading: string;
  start_line: number;
  end_line: number;
  text: string;
}

const TOKENIZERS: Array<[string, string | null]> = [
  ['none (no FTS table)', null],
  ['porter unicode61 remove_diacritics 2 (the store)', 'porter unicode61 remove_diacritics 2'],
  ['unicode61 remove_diacritics 2', 'unicode61 remove_diacritics 2'],
  ['ascii', 'ascii'],
  ['porter ascii', 'porter ascii'],
  ['trigram', 'trigram'],
];

function schema(tokenizer: string | null): string {
  const chunks = `CREATE TABLE doc_chunks (id INTEGER PRIMARY KEY, doc_id INTEGER NOT NULL, ord INTEGER NOT NULL,
    title TEXT NOT NULL, heading TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    text TEXT NOT NULL);
    CREATE INDEX doc_chunks_doc ON doc_chunks (doc_id, ord);`;
  if (!tokenizer) return chunks;
  return `${chunks}
    CREATE VIRTUAL TABLE doc_fts USING fts5(title, heading, text, content = 'doc_chunks', content_rowid = 'id',
      tokenize = '${tokenizer}');
    CREATE TRIGGER doc_chunks_fts_insert AFTER INSERT ON doc_chunks BEGIN
      INSERT INTO doc_fts (rowid, title, heading, text) VALUES (new.id, new.title, new.heading, new.text);
    END;`;
}

const COLUMNS = 'INSERT INTO doc_chunks (doc_id, ord, title, heading, start_line, end_line, text) VALUES ';
const values = (r: Row) => [r.doc_id, r.ord, r.title, r.heading, r.start_line, r.end_line, r.text];

/** CPU ms to write `rows` into a fresh store, `perInsert` rows an INSERT, 100 rows a transaction. */
function write(dir: string, name: string, tokenizer: string | null, rows: Row[], perInsert: number): number {
  const db = new WasmSqlDatabase(join(dir, `${name}.db`));
  try {
    db.exec(schema(tokenizer));
    const started = process.cpuUsage();
    for (let at = 0; at < rows.length; at += 100) {
      const batch = rows.slice(at, at + 100);
      db.transaction(() => {
        for (let i = 0; i < batch.length; i += perInsert) {
          const group = batch.slice(i, i + perInsert);
          db.run(COLUMNS + group.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', '), group.flatMap(values));
        }
      });
    }
    const { user, system } = process.cpuUsage(started);
    return (user + system) / 1000;
  } finally {
    db.close();
  }
}

function main(): void {
  const { values: args, positionals } = parseArgs({
    options: { limit: { type: 'string' } },
    allowPositionals: true,
  });
  if (!positionals[0]) throw new Error('usage: npx tsx bench/ftsTokenizers.ts STORE.db [--limit N]');
  const source = new WasmSqlDatabase(positionals[0]);
  const rows = source.all<Row>(
    `SELECT doc_id, ord, title, heading, start_line, end_line, text FROM doc_chunks ORDER BY id LIMIT ?`,
    [Number(args.limit ?? 1e9)],
  );
  source.close();
  const dir = mkdtempSync(join(tmpdir(), 'lore-fts-bench-'));
  try {
    const per1000 = (ms: number) => ((ms / rows.length) * 1000).toFixed(0).padStart(6);
    console.log(`${rows.length} chunks; CPU ms per 1,000 chunks (100 a transaction)`);
    for (const [label, tokenizer] of TOKENIZERS)
      console.log(`${per1000(write(dir, label.replace(/\W+/g, '-'), tokenizer, rows, 1))}  ${label}`);
    const store = TOKENIZERS[1][1];
    console.log(`${per1000(write(dir, 'multi', store, rows, 16))}  the store's tokenizer, 16 rows an INSERT`);
    console.log(`${per1000(write(dir, 'single', store, rows, 1))}  the store's tokenizer, 1 row an INSERT (again)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
