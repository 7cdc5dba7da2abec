// An OpenAI-compatible embeddings endpoint instead of the local model, through the built CLI and
// a real server that computes embeddings with the generated ONNX model: vectors carry the
// endpoint's model id, the token comes from a file and is stored nowhere, and an endpoint that
// does not answer leaves recall lexical with a status that says why.

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTinyModel } from '../../scripts/makeTinyModel';
import { createEmbedder, isEmbedderUnavailable } from '../../src/host/embed/createEmbedder';
import { openStore } from '../../src/host/openStore';
import { makeSpace, ok, runCliAsync, type CliSpace } from '../support/cli';
import { startEmbedServer, type EmbedServer } from '../support/embedServer';

const TOKEN = 'lore-test-token-5f1e9c0a7b';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('an embedding endpoint', () => {
  let space: CliSpace;
  let server: EmbedServer;
  let env: NodeJS.ProcessEnv;
  let model: string;
  before(async () => {
    space = makeSpace('lore-endpoint-');
    model = makeTinyModel(join(space.root, 'served'), { name: 'tiny-bert', dtypes: ['q8'] }).path;
    server = await startEmbedServer(model, { token: TOKEN });
    const tokenFile = join(space.root, 'embed-token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    env = { LORE_EMBED_URL: server.url, LORE_EMBED_MODEL: 'tiny-bert', LORE_EMBED_TOKEN_FILE: tokenFile };
    writeFileSync(join(space.workspace, 'README.md'), '# Deploying\n\nRun make deploy from a clean checkout.\n');
  });
  after(async () => {
    await server.stop().catch(() => undefined);
    space.cleanup();
  });
  // Async: the server answering these calls runs in this process.
  const lore = async (args: string[], extra: NodeJS.ProcessEnv = env) =>
    ok(await runCliAsync(args, { home: space.home, workspace: space.workspace, env: extra }));

  it("indexes and recalls with the endpoint's vectors, the token read from its file and stored nowhere", async () => {
    const indexed = await lore(['index']);
    assert.match(indexed.stdout, /model: endpoint:tiny-bert\/\d+; 1 embedded, 0 pending/);
    const recalled = await lore(['--json', 'recall', 'how do I deploy']);
    assert.equal(recalled.json.vectors, true);
    assert.ok(server.authorizations.length >= 2 && server.authorizations.every((a) => a === `Bearer ${TOKEN}`));
    for (const file of filesUnder(space.home))
      assert.ok(!readFileSync(file).includes(TOKEN), `the token is not in ${file}`);
    assert.ok(!indexed.stdout.includes(TOKEN) && !indexed.stderr.includes(TOKEN));
  });

  it("never compares its vectors with a local model's: switching re-embeds under the other id", async () => {
    makeTinyModel(join(space.home, 'models'), { name: 'tiny-bert', dtypes: ['q8'] });
    const local = await lore(['index'], { LORE_MODEL: 'tiny-bert' });
    assert.match(local.stdout, /model: tiny-bert@q8#[0-9a-f]{12}; 1 embedded/);
  });

  it('says why when the token is refused, without echoing it', async () => {
    const wrong = join(space.root, 'wrong-token');
    writeFileSync(wrong, 'not-the-token-at-all');
    const r = await lore(['--json', 'index'], { ...env, LORE_EMBED_TOKEN_FILE: wrong });
    assert.match(r.json.status.model_problem, /refused the token \(HTTP 401\)/);
    assert.ok(!r.stdout.includes('not-the-token-at-all'));
    const missing = await lore(['--json', 'index'], { ...env, LORE_EMBED_TOKEN_FILE: join(space.root, 'nope') });
    assert.match(
      missing.json.status.model_problem,
      /token file .*nope cannot be read \(ENOENT\): fix LORE_EMBED_TOKEN_FILE/,
    );
  });

  it('falls back to lexical with a clear status when the endpoint stops answering', async () => {
    // The workspace's vectors are the local model's after the test before: the endpoint's again.
    assert.match((await lore(['index'])).stdout, /model: endpoint:tiny-bert\/\d+; 1 embedded/);
    // In one process: the endpoint answers at start, then goes away mid-session.
    const embedder = await createEmbedder({
      provider: 'endpoint',
      endpoint: { url: server.url, model: 'tiny-bert', token: TOKEN },
    });
    assert.ok(!isEmbedderUnavailable(embedder));
    const store = openStore({ workspace: space.workspace, home: space.home, door: 'test' });
    try {
      store.engine.useEmbedder(embedder);
      assert.equal((await store.engine.recall({ query: 'deploy from a clean checkout' })).vectors, true);
      await server.stop();
      const lexical = await store.engine.recall({ query: 'deploy from a clean checkout' });
      assert.equal(lexical.vectors, false);
      assert.ok(lexical.results.length > 0, 'lexical recall still answers');
      assert.match(
        store.engine.indexStatus().model_problem ?? '',
        /did not answer \(ECONNREFUSED\); recall is lexical until it answers/,
      );
    } finally {
      store.close();
    }
    // A process that starts while it is down: lexical from the start, and status says so.
    const r = await lore(['--json', 'index']);
    assert.equal(r.json.status.model, null);
    assert.match(
      r.json.status.model_problem,
      /did not answer \(ECONNREFUSED\): recall is lexical-only until it answers \(LORE_EMBED_URL\)/,
    );
    assert.equal((await lore(['--json', 'recall', 'deploy'])).json.results.length > 0, true);
  });
});
