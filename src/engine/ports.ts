// The small interfaces the engine needs from its host: a SQL database, a clock, a logger and the
// machine's signing key.
// Hosts (CLI, MCP server, VS Code) implement them; the engine never touches process I/O itself.

export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlParams = SqlValue[] | Record<string, SqlValue>;

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/** A synchronous SQLite connection. `transaction` nests (savepoints) and rolls back on throw. */
export interface SqlDatabase {
  run(sql: string, params?: SqlParams): RunResult;
  get<T>(sql: string, params?: SqlParams): T | undefined;
  all<T>(sql: string, params?: SqlParams): T[];
  exec(sql: string): void;
  transaction<T>(work: () => T): T;
  /**
   * Like transaction, but consecutive grouped calls may share one commit (a bulk index's batches:
   * each commit costs fsyncs). Any other write commits the group first, so only grouped work ever
   * waits for durability; a kill loses at most the uncommitted group.
   */
  grouped?<T>(work: () => T): T;
  /** Commits an open group now. */
  flush?(): void;
  close(): void;
}

export interface Clock {
  now(): Date;
}

/** Mirrors VS Code's LogOutputChannel so every host can pass its own sink. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const systemClock: Clock = { now: () => new Date() };

export const silentLogger: Logger = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** Who performs a write: the door it came through and a name. Only a door that confirmed with a person sets `human`. */
export interface Actor {
  door: 'cli' | 'mcp' | 'ui' | 'steward' | 'import' | 'test';
  name: string;
  human?: boolean;
}

/** This machine's signing key (Ed25519): each record version it writes is signed with it (record/signatures.ts). */
export interface Signer {
  keyId: string;
  /** Base64 SPKI DER of the public key. */
  publicKey: string;
  sign(message: string): string;
}
