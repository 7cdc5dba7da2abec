// The SqlDatabase port over node-sqlite3-wasm: cached prepared statements (all finalized on
// close), nested transactions through savepoints, and the pragmas Lore relies on.
// A failure leaves the connection usable: a full disk makes SQLite roll the whole transaction back
// by itself, so the savepoint depth is re-read from SQLite (never counted below zero into a
// `lore_-1` savepoint), and a statement whose step failed is dropped from the cache (its next reset
// would repeat the old error). The error is said in a person's terms (sqliteFaults.ts).

import { dirname, resolve } from 'node:path';
import type { Database, Statement } from 'node-sqlite3-wasm';
import type { RunResult, SqlDatabase, SqlParams } from '../engine';
import { diskFault } from './sqliteFaults';

/** A group of grouped() work commits once it has been open this long (what a kill can lose of an index). */
const GROUP_MS = 1000;

/**
 * The database files whose VFS lock folder (`<db>.lock`) is kept from the first statement to close, not made and
 * removed around every statement (scripts/patchSqliteWasm.mjs, fix 4, reads this set).
 */
export function heldLocks(): Set<string> {
  const key = Symbol.for('lore.sqlite.heldLocks');
  const scope = globalThis as { [key]?: Set<string> };
  return (scope[key] ??= new Set());
}

export class WasmSqlDatabase implements SqlDatabase {
  private readonly db: Database;
  private readonly statements = new Map<string, Statement>();
  private depth = 0;
  /** When the open group (see grouped) began; undefined when none is open. */
  private groupSince: number | undefined;

  /**
   * `readOnly`: a store on a read-only disk, opened to be read (openStore.ts); every write is refused. `holdLock`:
   * this process alone opens the file (it holds the owner lock), so the VFS lock is kept until close.
   */
  constructor(
    readonly path: string,
    readonly readOnly = false,
    private readonly holdLock = false,
  ) {
    // Required here, not imported: loading the module compiles SQLite's WebAssembly, which a
    // command that opens no store (`lore --help`, `--version`) should not pay for.
    const sqlite = require('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm');
    if (holdLock) heldLocks().add(resolve(path));
    try {
      this.db = new sqlite.Database(path, { readOnly, fileMustExist: readOnly });
    } catch (error) {
      if (holdLock) heldLocks().delete(resolve(path));
      throw error;
    }
    // secure_delete zeroes freed pages so forgotten text does not linger in the file.
    this.db.exec(
      readOnly
        ? 'PRAGMA foreign_keys = ON; PRAGMA query_only = ON'
        : 'PRAGMA secure_delete = ON; PRAGMA foreign_keys = ON; ' +
            'PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL',
    );
  }

  /** Runs one call on the connection; a failure drops `sql`'s cached statement and is said in a person's terms. */
  private guard<T>(sql: string | undefined, call: () => T): T {
    try {
      return call();
    } catch (error) {
      if (sql !== undefined) this.forget(sql);
      this.resync();
      throw diskFault(error, dirname(this.path));
    }
  }

  private forget(sql: string): void {
    const statement = this.statements.get(sql);
    if (!statement) return;
    this.statements.delete(sql);
    try {
      statement.finalize();
    } catch {
      // finalize repeats the step's error; the statement is gone either way.
    }
  }

  /** After a failure: when SQLite has rolled the transaction back by itself, no savepoint is left open. */
  private resync(): void {
    if (this.db.isOpen && !this.db.inTransaction) {
      this.depth = 0;
      this.groupSince = undefined;
    }
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
    const result = this.guard(sql, () => this.statement(sql).run(params as never));
    return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
  }

  // `all` runs every statement to completion, so no cached statement is left mid-step holding a lock.
  get<T>(sql: string, params?: SqlParams): T | undefined {
    return this.all<T>(sql, params)[0];
  }

  all<T>(sql: string, params?: SqlParams): T[] {
    return this.guard(sql, () => this.statement(sql).all(params as never) as T[]);
  }

  exec(sql: string): void {
    this.flushForOthers();
    this.guard(undefined, () => this.db.exec(sql));
  }

  transaction<T>(work: () => T): T {
    this.flushForOthers();
    return this.nest(work);
  }

  private nest<T>(work: () => T): T {
    const level = this.depth;
    const savepoint = `lore_${level}`;
    this.guard(undefined, () => this.db.exec(level === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`));
    this.depth = level + 1;
    let result: T;
    try {
      result = work();
      this.db.exec(level === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
    } catch (error) {
      this.undo(level, savepoint);
      throw diskFault(error, dirname(this.path));
    }
    this.depth = level;
    return result;
  }

  /** Undoes the work since `level`'s savepoint (all of it at level 0); never leaves the depth wrong. */
  private undo(level: number, savepoint: string): void {
    try {
      if (this.db.inTransaction) {
        this.db.exec(level === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        this.depth = level;
      }
    } catch {
      // The savepoint is gone (SQLite rolled everything back): nothing of this transaction is kept.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    }
    this.resync();
  }

  grouped<T>(work: () => T): T {
    // Inside a caller's own transaction there is nothing to group: that transaction commits it.
    if (this.groupSince === undefined && this.depth > 0) return this.nest(work);
    if (this.groupSince === undefined) {
      this.guard(undefined, () => this.db.exec('BEGIN IMMEDIATE'));
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
      this.resync();
      throw diskFault(error, dirname(this.path));
    }
  }

  /** A write from outside the open group (the group's own work runs deeper) commits the group first. */
  private flushForOthers(): void {
    if (this.groupSince !== undefined && this.depth === 1) this.flush();
  }

  close(): void {
    try {
      if (this.db.isOpen) this.flush();
    } finally {
      // Closed even when the last commit fails: a held lock must not outlive the connection (the owner lock goes next).
      for (const statement of this.statements.values()) statement.finalize();
      this.statements.clear();
      if (this.db.isOpen) this.db.close();
      if (this.holdLock) heldLocks().delete(resolve(this.path));
    }
  }
}
