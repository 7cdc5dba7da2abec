// DeferredEmbedder (src/host/embed/deferredEmbedder.ts): the engine has the model's id before the
// model has loaded, the first embed loads it (a recall with no vectors for the model never does),
// and a load that fails leaves recall lexical with the reason in status. The loads here are
// promises the test settles; the store is real.

import { strict as assert } from 'node:assert';
import type { Embedder, EmbedderUnavailable } from '../../../../src/engine/embed/embedder';
import { storeVector } from '../../../../src/engine/indexing/docStore';
import { bumpVectorGeneration } from '../../../../src/engine/indexing/indexer';
import { centreFor } from '../../../../src/engine/record/vectors';
import { DeferredEmbedder } from '../../../../src/host/embed/deferredEmbedder';
import { confirmedPerson, memory, openTestStore, type TestStore } from '../../../support/store';

const MODEL = 'fixed@fp32#000000000000';

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (v) => v / norm);
}

/** Answers every text with one vector, and counts the calls. */
function fixedEmbedder(vector: Float32Array): Embedder & { calls: number; closed: boolean } {
  return {
    modelId: MODEL,
    dims: vector.length,
    calls: 0,
    closed: false,
    async embed(texts) {
      this.calls++;
      return texts.map(() => vector);
    },
    async close() {
      this.closed = true;
    },
  };
}

function settled<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('DeferredEmbedder', () => {
  let s: TestStore;
  const vector = unit([1, 2, 3, 4]);
  beforeEach(() => {
    s = openTestStore();
    const key = s.engine.remember(
      confirmedPerson,
      memory({ title: 'Rotate the gateway certificates', description: 'Quarterly, from the runbook' }),
    ).key;
    const id = s.db.get<{ id: number }>('SELECT id FROM memories WHERE key = ?', [key])!.id;
    s.db.transaction(() =>
      storeVector(s.db, { table: 'memory', id, text: '' }, MODEL, vector, centreFor(s.db, MODEL, [vector])),
    );
    bumpVectorGeneration({ db: s.db } as never);
  });
  afterEach(() => s.cleanup());

  it('gives the id at once; the first embed waits for the load, then recall uses the vectors', async () => {
    const load = settled<Embedder | EmbedderUnavailable>();
    const deferred = new DeferredEmbedder(MODEL, () => load.promise);
    s.engine.useEmbedder(deferred);
    assert.equal(s.engine.indexStatus().model, MODEL, 'status names the model before it has loaded');
    assert.equal(deferred.dims, 0);
    let answered = false;
    const recalled = s.engine.recall({ query: 'gateway certificates' }).then((r) => ((answered = true), r));
    await new Promise((r) => setImmediate(r));
    assert.equal(answered, false, 'recall waits for the model to embed the question');
    const model = fixedEmbedder(vector);
    load.resolve(model);
    const result = await recalled;
    assert.equal(result.vectors, true);
    assert.equal(model.calls, 1);
    assert.equal(deferred.dims, 4);
    await deferred.close();
    assert.equal(model.closed, true);
  });

  it('loads the model only when a question is embedded, and only once', async () => {
    let loads = 0;
    const load = async () => (loads++, fixedEmbedder(vector));
    const unused = new DeferredEmbedder('unused@fp32#222222222222', load);
    s.engine.useEmbedder(unused);
    assert.equal((await s.engine.recall({ query: 'gateway certificates' })).vectors, false);
    assert.equal(loads, 0, 'the store has no vectors for that model: nothing to embed the question for');
    await unused.close();
    const deferred = new DeferredEmbedder(MODEL, load);
    s.engine.useEmbedder(deferred);
    await s.engine.recall({ query: 'gateway certificates' });
    await s.engine.recall({ query: 'certificates' });
    assert.equal(loads, 1);
    await deferred.close();
  });

  it('a model that fails to load leaves recall lexical, with the reason in status', async () => {
    const deferred = new DeferredEmbedder(MODEL, async () => ({ reason: 'the ONNX file is damaged' }));
    s.engine.useEmbedder(deferred);
    const result = await s.engine.recall({ query: 'gateway certificates' });
    assert.equal(result.vectors, false);
    assert.equal(result.results.length, 1, 'the lexical answer');
    assert.match(s.engine.indexStatus().model_problem ?? '', /the ONNX file is damaged/);
    await deferred.close();
  });

  it('refuses a model that is not the one its id named', async () => {
    const other = { ...fixedEmbedder(vector), modelId: 'other@fp32#111111111111' };
    const deferred = new DeferredEmbedder(MODEL, async () => other);
    await assert.rejects(
      deferred.embed(['x']),
      (e: Error) => e.name === 'EmbedderUnreachable' && /changed/.test(e.message),
    );
  });
});
