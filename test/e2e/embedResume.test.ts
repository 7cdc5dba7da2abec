// Embedding during an index is paused by the run's signal and resumes where it stopped after a
// restart: a new process (store reopened, model loaded again) embeds only what has no vector yet
// and leaves the vectors already stored untouched. Real store, real generated model.

import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { Engine } from '../../src/engine/engine';
import { WorkspaceFileSource } from '../../src/host/fileSource';
import {
  createTransformersEmbedder,
  isEmbedderUnavailable,
  type TransformersEmbedder,
} from '../../src/host/embed/transformersEmbedder';
import { openTestStore, tempDir } from '../support/store';

const FIXTURE = join(__dirname, '..', 'fixtures', 'workspace');

describe('embedding pauses and resumes across a restart', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = tempDir('lore-resume-');
    makeTinyModel(dir, { dtypes: ['fp32'] });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function load(): Promise<TransformersEmbedder> {
    const e = await createTransformersEmbedder({ modelDir: dir, modelName: 'tiny-bert', dtype: 'fp32', threads: 1 });
    if (isEmbedderUnavailable(e)) throw new Error(e.reason);
    return e;
  }

  it('stops between batches when paused, and the next run embeds only the rest', async () => {
    let s = openTestStore();
    let e = await load();
    const pause = new AbortController();
    const first = new Engine({ db: s.db, clock: s.clock, embedder: e });
    const run = first.index(new WorkspaceFileSource(FIXTURE), { signal: pause.signal, embedBatchSize: 5 });
    let summary;
    for (;;) {
      const step = await run.next();
      if (step.done) {
        summary = step.value;
        break;
      }
      if (step.value.phase === 'embed') pause.abort();
    }
    assert.equal(summary.cancelled, true);
    const total = first.indexStatus().chunks;
    const done = s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM chunk_vectors')!.n;
    assert.ok(done > 0 && done < total, `part of the chunks have vectors (${done} of ${total})`);
    const kept = s.db.all<{ id: number; vector: Uint8Array }>(
      'SELECT chunk_id AS id, vector FROM chunk_vectors ORDER BY chunk_id',
    );
    // Lexical recall answers while embedding is unfinished.
    const lexical = await first.recall({ query: 'restart stuck workers' });
    assert.ok(lexical.results.length > 0);
    await e.close();

    // A restart: the store reopened by a new engine, the model loaded again.
    s = s.reopen();
    e = await load();
    try {
      const second = new Engine({ db: s.db, clock: s.clock, embedder: e });
      const rerun = second.index(new WorkspaceFileSource(FIXTURE));
      let step = await rerun.next();
      while (!step.done) step = await rerun.next();
      assert.equal(step.value.cancelled, false);
      assert.equal(step.value.embedded, total - done, 'only the chunks without a vector are embedded');
      assert.equal(second.indexStatus().pending, 0);
      for (const row of kept) {
        const now = s.db.get<{ vector: Uint8Array }>('SELECT vector FROM chunk_vectors WHERE chunk_id = ?', [row.id])!;
        assert.deepEqual(now.vector, row.vector, `chunk ${row.id}'s vector is kept, not recomputed`);
      }
    } finally {
      await e.close();
      s.cleanup();
    }
  });

  it('answers a recall while the index is still embedding, with the model, before the embedding ends', async () => {
    const s = openTestStore();
    const e = await load();
    try {
      const engine = new Engine({ db: s.db, clock: s.clock, embedder: e });
      const run = engine.index(new WorkspaceFileSource(FIXTURE), { embedBatchSize: 1 });
      let step = await run.next();
      while (!step.done && step.value.phase !== 'embed') step = await run.next();
      assert.ok(!step.done, 'the run reached its embedding');
      // The next batch is in flight while recall runs: its query embedding takes the next turn.
      const next = run.next();
      const recall = await engine.recall({ query: 'restart stuck workers' });
      assert.ok(recall.results.length > 0, 'recall answers from the lexical index');
      const pending = engine.indexStatus().pending;
      assert.ok(pending > 0, `the embedding is not over when recall has answered (${pending} pending)`);
      step = await next;
      while (!step.done) step = await run.next();
      assert.equal(engine.indexStatus().pending, 0);
    } finally {
      await e.close();
      s.cleanup();
    }
  });
});
