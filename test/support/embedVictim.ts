// The victim of the kill -9 mid-embedding test (test/e2e/embedCrash.test.ts), run as its own
// process with `node --import tsx test/support/embedVictim.ts '<json options>'`.
//
// It opens the store the way the doors do, loads the model the environment names (LORE_MODEL_DIR,
// LORE_MODEL…) and indexes the workspace. After the first batch of vectors is committed it prints
// one JSON line (vectors stored so far, and how many chunks were waiting) and blocks there, so
// the parent's SIGKILL lands in the middle of embedding. Exit code 3 if no kill comes.

import { writeSync } from 'node:fs';
import { silentLogger } from '../../src/engine/ports';
import { attachEmbedder } from '../../src/host/embedSettings';
import { openStore } from '../../src/host/openStore';
import { WorkspaceFileSource } from '../../src/host/fileSource';

export interface EmbedVictimOptions {
  workspace: string;
  home: string;
  embedBatchSize: number;
}

export interface EmbeddingSignal {
  event: 'embedding';
  embedded: number;
  total: number;
}

async function main(options: EmbedVictimOptions): Promise<never> {
  const store = openStore({ workspace: options.workspace, home: options.home, door: 'test' });
  await attachEmbedder(store.engine, options.home, silentLogger);
  const run = store.engine.index(new WorkspaceFileSource(options.workspace), {
    embedBatchSize: options.embedBatchSize,
  });
  for (;;) {
    const step = await run.next();
    if (step.done) break;
    if (step.value.phase !== 'embed') continue;
    const signal: EmbeddingSignal = { event: 'embedding', embedded: step.value.done, total: step.value.total };
    writeSync(1, JSON.stringify(signal) + '\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
    writeSync(2, 'embed victim: no SIGKILL arrived\n');
    process.exit(3);
  }
  writeSync(2, 'embed victim: the index finished without embedding anything\n');
  process.exit(4);
}

if (require.main === module) void main(JSON.parse(process.argv[2]) as EmbedVictimOptions);
