// `lore model download`: the one consented network fetch. A local HTTP server stands in for the
// model hub (LORE_MODEL_HOST) and serves a tiny generated model in the Hugging Face layout; the
// real command downloads it, loads it through transformers.js, and `lore index` then embeds with
// it. Refusals fetch nothing; failures leave nothing that looks like a model.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { makeTinyModel, type TinyModel } from '../../scripts/makeTinyModel';
import { makeSpace, ok, runCli, runCliAsync, runCliInTerminal, type CliSpace } from '../support/cli';

const MODEL = 'acme/tiny-bert';

interface Hub {
  url: string;
  requests: string[];
  /** Files answered 404, or cut off halfway through. */
  missing: Set<string>;
  cut: Set<string>;
  close(): Promise<void>;
}

async function startHub(model: TinyModel): Promise<Hub> {
  const requests: string[] = [];
  const missing = new Set<string>();
  const cut = new Set<string>();
  const prefix = `/${MODEL}/resolve/main/`;
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const file = (req.url ?? '').startsWith(prefix) ? decodeURIComponent((req.url ?? '').slice(prefix.length)) : '';
    const path = join(model.path, file);
    if (!file || file.includes('..') || missing.has(file) || !existsSync(path)) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = readFileSync(path);
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    if (cut.has(file)) {
      res.write(body.subarray(0, body.length >> 1));
      res.socket?.destroy();
      return;
    }
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    missing,
    cut,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('lore model download', function () {
  this.timeout(90_000);
  let space: CliSpace;
  let hub: Hub;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    space = makeSpace('lore-model-');
    hub = await startHub(makeTinyModel(join(space.root, 'published'), { name: 'tiny-bert', dtypes: ['fp32', 'q8'] }));
    env = { LORE_MODEL_HOST: hub.url, LORE_MODEL: MODEL };
  });
  after(async () => {
    await hub.close();
    space.cleanup();
  });
  beforeEach(() => {
    hub.requests.length = 0;
    hub.missing.clear();
    hub.cut.clear();
  });

  const modelsFolder = () => join(space.home, 'models', 'acme');
  const leftovers = () => (existsSync(modelsFolder()) ? readdirSync(modelsFolder()) : []);
  // Asynchronous: the hub answers from this process, so a blocking spawn would starve it.
  const lore = (...args: string[]) =>
    runCliAsync(['--json', ...args], { home: space.home, workspace: space.workspace, env });

  it('asks first: a script without --yes and a person who says no fetch nothing', async () => {
    const script = await lore('model', 'download', '--model', MODEL);
    assert.equal(script.code, 2);
    assert.match(script.stderr, /consent/);
    assert.match(script.stderr, /--yes/);
    const declined = runCliInTerminal(['model', 'download', '--model', MODEL], {
      home: space.home,
      workspace: space.workspace,
      env,
      input: 'n\n',
    });
    assert.match(declined.stdout, /Download the embedding model acme\/tiny-bert/);
    assert.match(declined.stdout, /not downloaded/);
    assert.deepEqual(hub.requests, []);
    assert.deepEqual(leftovers(), []);
  });

  it('a missing file on the server fails with the URL and leaves nothing behind', async () => {
    hub.missing.add('onnx/model_quantized.onnx');
    const failed = await lore('model', 'download', '--yes', '--model', MODEL);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /onnx\/model_quantized\.onnx answered HTTP 404/);
    assert.deepEqual(leftovers(), []);
  });

  it('a transfer that breaks off fails and leaves nothing behind', async () => {
    hub.cut.add('tokenizer.json');
    const failed = await lore('model', 'download', '--yes', '--model', MODEL);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /tokenizer\.json/);
    assert.deepEqual(leftovers(), []);
  });

  it('without a model, status says so and names the variables to set', async () => {
    const status = await lore('model', 'status');
    assert.equal(status.code, 1);
    assert.equal(status.json.ok, false);
    assert.match(status.json.reason, /LORE_MODEL_DIR/);
    const elsewhere = runCli(['--json', 'model', 'status'], {
      home: space.home,
      workspace: space.workspace,
      env: { LORE_MODEL_DIR: join(space.root, 'nowhere') },
    });
    assert.match(elsewhere.json.reason, /point LORE_MODEL_DIR at a folder/);
  });

  it('with --yes downloads the model, loads it, and the index embeds with it', async () => {
    const done = ok(await lore('model', 'download', '--yes', '--model', MODEL), 'lore model download').json;
    assert.equal(done.downloaded, true);
    assert.equal(done.check.ok, true, JSON.stringify(done.check));
    assert.equal(done.check.loaded.dims, 32);
    assert.deepEqual(leftovers(), ['tiny-bert'], 'only the finished model folder remains');
    assert.equal(statSync(join(modelsFolder(), 'tiny-bert', 'onnx', 'model_quantized.onnx')).mode & 0o777, 0o600);
    assert.equal(hub.requests.length, 4);

    const status = ok(await lore('model', 'status'), 'lore model status').json;
    assert.equal(status.ok, true);
    assert.match(status.loaded.model_id, /^acme\/tiny-bert@q8#/);
    assert.equal(status.loaded.threads, 1, 'one ONNX thread by default');
    const twoThreads = ok(
      await runCliAsync(['--json', 'model', 'status'], {
        home: space.home,
        workspace: space.workspace,
        env: { ...env, LORE_EMBED_THREADS: '2' },
      }),
    ).json;
    assert.equal(twoThreads.loaded.threads, 2, 'LORE_EMBED_THREADS reaches the runtime');

    const again = await lore('model', 'download', '--yes', '--model', MODEL);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists/);

    space.lore(
      'remember',
      '--type',
      'decision',
      '--title',
      'Queue in Postgres',
      '--description',
      'Jobs use SKIP LOCKED',
    );
    const index = ok(await lore('index'), 'lore index').json;
    assert.match(index.status.model, /^acme\/tiny-bert@q8#/);
  });
});
