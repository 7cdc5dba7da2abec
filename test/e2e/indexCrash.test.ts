// kill -9 in the middle of indexing: the indexer commits groups of batches, so a killed run keeps
// every group it committed, loses only the batches written since, and the next `lore index` finishes the job
// without re-reading what was committed. The victim (test/support/indexVictim.ts) is stopped at a
// known file read, so the kill always lands with a batch half-built.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAndKill } from '../support/killVictim';
import { makeSpace, ok, type CliSpace } from '../support/cli';
import type { BlockedSignal, IndexVictimOptions } from '../support/indexVictim';

const VICTIM = 'test/support/indexVictim.ts';
const FILES = 120;
const BATCH = 20;
const BATCHES_PER_COMMIT = 2;
// Batches committed (a batch closes at BATCH files or at the indexer's chunk bound), then the
// kill lands while the next one is half-read.
const BLOCK_AT_READ = 3 * BATCH + 7;

function writeWorkspace(workspace: string): void {
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      join(workspace, 'docs', `note-${String(i).padStart(3, '0')}.md`),
      `# Note ${i}\n\n## Context\n\nService ${i} keeps its queue in ` +
        `Postgres (marker word quill${i}).\n\n## Steps\n\n1. Drain worker ` +
        `${i}.\n2. Restart it.\n`,
    );
  }
}

describe('kill -9 in the middle of indexing', function () {
  this.timeout(120_000);
  let space: CliSpace;

  before(() => {
    space = makeSpace('lore-index-crash-');
    writeWorkspace(space.workspace);
  });
  after(() => space.cleanup());

  it('keeps committed batches, loses only those written since; the next index redoes just those', async () => {
    const { signal, exitSignal } = await runAndKill<BlockedSignal>(VICTIM, {
      workspace: space.workspace,
      home: space.home,
      batchSize: BATCH,
      batchesPerCommit: BATCHES_PER_COMMIT,
      blockAtRead: BLOCK_AT_READ,
    } satisfies IndexVictimOptions);
    assert.equal(exitSignal, 'SIGKILL');
    const committed = signal.committedDocs;
    assert.ok(
      committed > 0 && committed < BLOCK_AT_READ - 1,
      `batches were committed and one was in flight at the kill (${committed} of ${BLOCK_AT_READ - 1} read)`,
    );

    const afterKill = ok(space.lore('index', '--json'), 'lore index after the kill').json;
    assert.equal(afterKill.summary.files, FILES);
    assert.equal(afterKill.summary.unchanged, committed, 'the committed batches are kept and not re-read');
    assert.equal(afterKill.summary.indexed, FILES - committed, 'the batch in flight and the rest are indexed now');
    assert.equal(afterKill.status.files, FILES);

    // Every note is findable, including one from the batch that was in flight.
    const inFlight = BLOCK_AT_READ - 2;
    const recall = ok(space.lore('recall', `quill${inFlight}`, '--json'), 'lore recall').json;
    assert.ok(
      recall.results.some((r: { path?: string }) => r.path === `docs/note-${String(inFlight).padStart(3, '0')}.md`),
      `a note from the killed batch is indexed after the rerun: ${JSON.stringify(recall.results)}`,
    );
    const audit = ok(space.lore('audit', 'verify', '--json'), 'lore audit verify').json;
    assert.equal(audit.ok, true);
  });
});
