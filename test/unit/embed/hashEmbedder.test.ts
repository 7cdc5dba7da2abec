import { strict as assert } from 'node:assert';
import { createEmbedder } from '../../../src/host/embed/createEmbedder';
import { HashEmbedder, hashStem } from '../../../src/host/embed/hashEmbedder';

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i], 0);

describe('HashEmbedder', () => {
  const e = new HashEmbedder(128);

  it('names its model by version and size', () => {
    assert.equal(e.modelId, 'hash-v1-128');
    assert.equal(e.dims, 128);
  });

  it('returns unit vectors of the right length, in order, the same for the same text', async () => {
    const texts = ['Roll back the Kubernetes deployment', '', '!!!', 'roll back the kubernetes deployment', 'Postgres migrations'];
    const vs = await e.embed(texts);
    assert.equal(vs.length, texts.length);
    for (const v of vs) {
      assert.equal(v.length, 128);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    }
    assert.deepEqual(vs[0], vs[3]); // case-insensitive
    assert.deepEqual(vs[1], vs[2]); // no words: one fixed direction
    assert.deepEqual((await e.embed([texts[4]]))[0], vs[4]);
  });

  it('ranks texts sharing stemmed words above unrelated ones', async () => {
    const [q, near, far] = await e.embed(['migrating the database', 'database migrations failed', 'the cat sat on a mat']);
    assert.ok(dot(q, near) > dot(q, far) + 0.2, `${dot(q, near)} vs ${dot(q, far)}`);
    for (const w of ['migrations', 'migrating', 'migrated', 'migrate', 'migration']) assert.equal(hashStem(w), 'migrat', w);
    assert.equal(hashStem('policies'), 'policy');
    assert.equal(hashStem('status'), 'status');
  });

  it('rejects with an AbortError when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(e.embed(['x'], controller.signal), { name: 'AbortError' });
  });

  it('is picked by createEmbedder only when configured', async () => {
    const hash = await createEmbedder({ provider: 'hash', hashDims: 64 });
    assert.ok(hash instanceof HashEmbedder);
    assert.equal(hash.modelId, 'hash-v1-64');
    const none = await createEmbedder({ dataDir: '/nonexistent/lore-home' });
    assert.ok('reason' in none && /Xenova\/all-MiniLM-L6-v2/.test(none.reason));
  });
});
