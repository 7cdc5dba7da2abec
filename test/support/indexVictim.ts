// The victim of the kill -9 mid-index test (test/e2e/indexCrash.test.ts), run as its own process
// with `node --import tsx test/support/indexVictim.ts '<json options>'`.
//
// It opens the store the way the doors do and indexes the workspace with the real indexer and
// file source, its batches grouped `batchesPerCommit` to a commit. The source it reads through
// stops on the `blockAtRead`-th file read: it prints one JSON line (how many docs were in the
// store at its last commit: batches written since are not on disk yet) and waits there, so the parent's
// SIGKILL lands with committed batches behind it and a batch in flight. It gives up with exit
// code 3 after a generous bound if no kill comes.

import { writeSync } from 'node:fs';
import { openStore } from '../../src/host/openStore';
import { WorkspaceFileSource } from '../../src/host/fileSource';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import type { FileSource } from '../../src/engine';

export interface IndexVictimOptions {
  workspace: string;
  home: string;
  batchSize: number;
  batchesPerCommit: number;
  blockAtRead: number;
}

export interface BlockedSignal {
  event: 'blocked';
  reads: number;
  committedDocs: number;
}

async function main(options: IndexVictimOptions): Promise<never> {
  // Docs in the store as of its last commit (a grouped commit, or one before another write).
  let committedDocs = 0;
  const flush = WasmSqlDatabase.prototype.flush;
  WasmSqlDatabase.prototype.flush = function (this: WasmSqlDatabase) {
    flush.call(this);
    committedDocs = this.get<{ n: number }>('SELECT COUNT(*) AS n FROM docs')!.n;
  };
  const store = openStore({ workspace: options.workspace, home: options.home, door: 'test' });
  const files = new WorkspaceFileSource(options.workspace);
  let reads = 0;
  const source: FileSource = {
    list: () => files.list(),
    read: async (path) => {
      reads++;
      if (reads === options.blockAtRead) {
        const signal: BlockedSignal = { event: 'blocked', reads, committedDocs };
        writeSync(1, JSON.stringify(signal) + '\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
        writeSync(2, 'index victim: no SIGKILL arrived\n');
        process.exit(3);
      }
      return files.read(path);
    },
  };
  const run = store.engine.index(source, { batchSize: options.batchSize, batchesPerCommit: options.batchesPerCommit });
  while (!(await run.next()).done);
  writeSync(2, `index victim: indexing finished before read ${options.blockAtRead}\n`);
  process.exit(4);
}

if (require.main === module) void main(JSON.parse(process.argv[2]) as IndexVictimOptions);
