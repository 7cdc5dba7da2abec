// The victim of the kill -9 test (test/e2e/crash.test.ts), run as its own process with
// `node --import tsx test/support/crashWriter.ts '<json options>'`.
//
// It opens the store the way the doors do (openStore: owner.json, owner lock, WasmSqlDatabase,
// Engine), commits `committed` memories one by one, then opens one big transaction
// (engine.batch) and keeps calling remember in it. Once at least `signalAfter` rows are pending
// AND SQLite has spilled uncommitted pages into the database file (the file has grown past its
// committed size, so only the hot journal can undo them), it prints one JSON line on stdout and
// keeps writing until the parent's SIGKILL lands. It never commits the big transaction: if no
// kill comes it stops writing and waits inside the transaction, so a late kill still finds the
// transaction open, and gives up with exit code 3 after a generous bound.

import { existsSync, statSync, writeSync } from 'node:fs';
import { openStore } from '../../src/host/openStore';
import type { Actor, RememberInput } from '../../src/engine';

export interface CrashWriterOptions {
  workspace: string;
  home: string;
  /** Memories committed (each its own transaction) before the big one. */
  committed: number;
  /** Rows pending in the big transaction before the signal line is printed. */
  signalAfter: number;
}

/** The line the writer prints mid-transaction. */
export interface MidTransactionSignal {
  event: 'mid-transaction';
  pid: number;
  committed: number;
  pending: number;
  committedFileSize: number;
  fileSize: number;
  journalSize: number;
}

/** A word that appears only in the killed transaction's rows. */
export const KILLED_ONLY_TERM = 'zanzibar';
export const KILLED_KEY_PREFIX = 'runbook/killed-batch-';
export const COMMITTED_KEY_PREFIX = 'decision/committed-';

const actor: Actor = { door: 'test', name: 'crash-writer' };

export function committedMemory(i: number): RememberInput {
  return {
    type: 'decision',
    title: `Committed ${i}: keep the job queue in Postgres`,
    description: `Decision ${i}: background jobs use SKIP LOCKED instead of a separate broker`,
    body: `Record ${i}. We already operate Postgres; one fewer system to run. `.repeat(8),
    tags: ['queue', 'postgres'],
    provenance: { source: 'user', client: 'crash-writer' },
  };
}

export function killedMemory(i: number): RememberInput {
  return {
    type: 'runbook',
    title: `Killed batch ${i}: rotate the ${KILLED_ONLY_TERM} certificates`,
    description: `Step ${i} of the ${KILLED_ONLY_TERM} rotation for the deploy pipeline`,
    body: `Run the rotation job ${i}, then restart the ingress and watch the error rate. `.repeat(10),
    tags: ['certificates', KILLED_ONLY_TERM],
    provenance: { source: 'user', client: 'crash-writer' },
  };
}

function size(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

function main(options: CrashWriterOptions): never {
  const store = openStore({ workspace: options.workspace, home: options.home, door: 'test' });
  for (let i = 0; i < options.committed; i++) store.engine.remember(actor, committedMemory(i));
  const database = store.paths.database;
  const committedFileSize = size(database);

  store.engine.batch(() => {
    let signalled = false;
    const cap = options.signalAfter * 10;
    for (let i = 0; i < cap; i++) {
      store.engine.remember(actor, killedMemory(i));
      const fileSize = size(database);
      if (!signalled && i + 1 >= options.signalAfter && fileSize > committedFileSize) {
        const signal: MidTransactionSignal = {
          event: 'mid-transaction',
          pid: process.pid,
          committed: options.committed,
          pending: i + 1,
          committedFileSize,
          fileSize,
          journalSize: size(`${database}-journal`),
        };
        // writeSync: the loop never yields, so an asynchronous stdout write might never flush.
        writeSync(1, JSON.stringify(signal) + '\n');
        signalled = true;
      }
    }
    // No kill yet: wait inside the open transaction (a blocking wait, not a timer), then give up
    // without committing.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
    writeSync(
      2,
      signalled ? 'crash writer: no SIGKILL arrived\n' : 'crash writer: the database file never grew mid-transaction\n',
    );
    process.exit(3);
  });
  process.exit(4);
}

if (require.main === module) main(JSON.parse(process.argv[2]) as CrashWriterOptions);
