// The SqlDatabase port over node-sqlite3-wasm: cached prepared statements (all finalized on
// close), nested transactions through savepoints, and the pragmas Lore relies on.

import type { Database, Statement } from 'node-sqlite3-wasm';
import type { RunResult, SqlDatabase, SqlParams } from '../engine';

/** A group of grouped() work commits once it has been open this long (what a kill can lose of an index). */
const GROUP_MS = 1000;

export class WasmSqlDatabase implements SqlDatabase {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();
  private depth = 0;
  /** When the open group (see grouped) began; undefined when none is open. */
  private groupSince: number | undefined;

  constructor(readonly path: string) {
    // Required here, not imported: loading the module compiles SQLite's WebAssembly, which a
    // command that opens no store (`lore --help`, `--version`) should not pay for.
    const sqlite = require('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
    this.db = new sqlite.Database(path);
    // secure_delete zeroes freed pages so forgotten text does not linger in the file.
    this.db.exec(
      'PRAGMA secure_delete = ON; PRAGMA foreign_keys = ON; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL',
    );
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  run(sql: string, params?: SqlParams): RunResult {
    this.flushForOthers();
    const result = this.statement(sql).run(params as never);
    return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
  }

  // `all` runs every statement to completion, so no cached statement is left mid-step holding a lock.
  get<T>(sql: string, params?: SqlParams): T | undefined {
    return this.all<T>(sql, params)[0];
  }

  all<T>(sql: string, params?: SqlParams): T[] {
    return this.statement(sql).all(params as never) as T[];
  }

  exec(sql: string): void {
    this.flushForOthers();
    this.db.exec(sql);
  }

  transaction<T>(work: () => T): T {
    this.flushForOthers();
    return this.nest(work);
  }

  private nest<T>(work: () => T): T {
    const savepoint = `lore_${this.depth}`;
    this.db.exec(this.depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
    this.depth++;
    try {
      const result = work();
      this.depth--;
      this.db.exec(this.depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      this.depth--;
      this.db.exec(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      throw error;
    }
  }

  grouped<T>(work: () => T): T {
    // Inside a caller's own transaction there is nothing to group: that transaction commits it.
    if (this.groupSince === undefined && this.depth > 0) return this.nest(work);
    if (this.groupSince === undefined) {
      this.db.exec('BEGIN IMMEDIATE');
      this.depth++;
      this.groupSince = Date.now();
    }
    // Each piece of grouped work is its own savepoint: one that throws is undone alone.
    const result = this.nest(work);
    if (Date.now() - this.groupSince >= GROUP_MS) this.flush();
    return result;
  }

  flush(): void {
    if (this.groupSince === undefined) return;
    this.groupSince = undefined;
    this.depth--;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      // A failed commit leaves nothing half-written: the group is undone.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** A write from outside the open group (the group's own work runs deeper) commits the group first. */
  private flushForOthers(): void {
    if (this.groupSince !== undefined && this.depth === 1) this.flush();
  }

  close(): void {
    if (this.db.isOpen) this.flush();
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
    if (this.db.isOpen) this.db.close();
  }
}
