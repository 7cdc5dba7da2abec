// Bundled by the embed tests next to a bundled embedWorker.js, to prove the worker runs from an
// esbuild bundle: embeds argv[3..] with the model in argv[2] and prints one JSON line.

import { createTransformersEmbedder, isEmbedderUnavailable } from '../../src/host/embed/transformersEmbedder';

async function main(): Promise<void> {
  const [modelDir, ...texts] = process.argv.slice(2);
  const embedder = await createTransformersEmbedder({ modelDir, dtype: 'fp32' });
  if (isEmbedderUnavailable(embedder)) {
    console.log(JSON.stringify(embedder));
    return;
  }
  const vectors = await embedder.embed(texts);
  console.log(
    JSON.stringify({
      modelId: embedder.modelId,
      backend: embedder.backend,
      dims: embedder.dims,
      vectors: vectors.map((v) => Array.from(v)),
    }),
  );
  await embedder.close();
}

void main();
