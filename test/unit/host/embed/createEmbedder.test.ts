// Which embedder createEmbedder picks from settings, and the reason it gives when there is none.

import { strict as assert } from 'node:assert';
import { createEmbedder } from '../../../../src/host/embed/createEmbedder';

describe('createEmbedder', () => {
  it('defaults to the local model and, when it is missing, says which model it looked for', async () => {
    const none = await createEmbedder({ dataDir: '/nonexistent/lore-home' });
    assert.ok('reason' in none && /Xenova\/all-MiniLM-L6-v2/.test(none.reason));
  });

  it('names the providers it knows when given another', async () => {
    const settings = { provider: 'hash' } as unknown as Parameters<typeof createEmbedder>[0];
    const none = await createEmbedder(settings);
    assert.ok('reason' in none);
    assert.match(none.reason, /Unknown embedding provider "hash": use "transformers" \(a local model\) or "endpoint"/);
  });
});
