// The workspace's edges, the same for every reader of files: the indexer's walk and reads, drift's
// disk reader, and read_file (which the MCP resources use too). Hard links count as links, a
// refusal says the same whether an outside target exists or not, a NUL byte makes a file binary
// for all of them, and one list of secret-bearing files decides for all of them.

import { strict as assert } from 'node:assert';
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Engine, LoreError, type IndexSummary } from '../../../src/engine';
import { discoveryMatcher, discoveryRulesFrom, type DiscoveryConfig } from '../../../src/engine/indexing/discovery';
import { WorkspaceFileSource } from '../../../src/host/fileSource';
import { WasmSqlDatabase } from '../../../src/host/sqlite';
import { readWorkspaceFile } from '../../../src/host/workspaceFiles';
import { DiskWorkspaceReader } from '../../../src/host/workspaceReader';
import { tempDir, TestClock } from '../../support/store';

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof LoreError, String(error));
    return error.message;
  }
  assert.fail('expected a refusal');
}

describe('workspace boundaries (indexer, drift, read_file)', () => {
  let base: string;
  let root: string;
  let outside: string;
  let db: WasmSqlDatabase;
  let engine: Engine;
  beforeEach(() => {
    base = tempDir('lore-edges-');
    root = join(base, 'repo');
    outside = join(base, 'outside');
    mkdirSync(join(root, 'docs'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\n');
    writeFileSync(join(outside, 'notes.md'), "# The neighbour's notes\n");
    db = new WasmSqlDatabase(join(base, 'lore.db'));
    engine = new Engine({ db, clock: new TestClock() });
  });
  afterEach(() => {
    db.close();
    rmSync(base, { recursive: true, force: true });
  });

  async function index(): Promise<IndexSummary> {
    const run = engine.index(new WorkspaceFileSource(root));
    for (;;) {
      const step = await run.next();
      if (step.done) return step.value;
    }
  }
  const docs = () => db.all<{ path: string }>('SELECT path FROM docs ORDER BY path').map((d) => d.path);

  it('refuses a hard link to a file outside the workspace like a symbolic link, everywhere', async () => {
    linkSync(join(outside, 'notes.md'), join(root, 'docs', 'hard.md'));
    symlinkSync(join(outside, 'notes.md'), join(root, 'docs', 'soft.md'));
    assert.match(
      refusal(() => readWorkspaceFile(root, 'docs/hard.md')),
      /docs\/hard\.md is reached through a symbolic or hard link/,
    );
    assert.match(
      refusal(() => readWorkspaceFile(root, 'docs/soft.md')),
      /docs\/soft\.md is reached through a symbolic or hard link/,
    );
    const reader = new DiskWorkspaceReader(root);
    assert.equal(reader.read('docs/hard.md'), null);
    assert.equal(reader.digest('docs/hard.md'), null);
    assert.deepEqual(
      reader.list().map((f) => f.path),
      ['docs/guide.md'],
    );
    await index();
    assert.deepEqual(docs(), ['docs/guide.md']);
    assert.ok(!db.all<{ text: string }>('SELECT text FROM doc_chunks').some((c) => c.text.includes('neighbour')));
  });

  it('indexes a file reached by a symlink inside the workspace once, as its target; a link outside never', async () => {
    mkdirSync(join(root, 'shared'));
    writeFileSync(join(root, 'shared', 'agents.md'), '# Agent notes\n\nRun the linters first.\n');
    symlinkSync(join(root, 'shared', 'agents.md'), join(root, 'AGENTS.md'));
    symlinkSync(join(root, 'shared'), join(root, 'docs', 'shared'));
    symlinkSync(join(outside, 'notes.md'), join(root, 'docs', 'soft.md'));
    await index();
    assert.deepEqual(docs(), ['docs/guide.md', 'shared/agents.md']);
    assert.equal(db.all<{ n: number }>("SELECT count(*) AS n FROM doc_chunks WHERE text LIKE '%linters%'")[0].n, 1);
  });

  it('answers the same whether or not the outside target of a path or link exists', () => {
    symlinkSync(join(outside, 'notes.md'), join(root, 'docs', 'there.md'));
    symlinkSync(join(outside, 'missing.md'), join(root, 'docs', 'nothere.md'));
    symlinkSync(outside, join(root, 'out'));
    const said = (path: string) => refusal(() => readWorkspaceFile(root, path)).replace(path, '<path>');
    assert.equal(said('docs/there.md'), said('docs/nothere.md'));
    assert.equal(said('out/notes.md'), said('out/missing.md'));
    assert.equal(said('../outside/notes.md'), said('../outside/missing.md'));
    assert.equal(said(join(outside, 'notes.md')), said(join(outside, 'missing.md')));
    assert.match(said('../outside/notes.md'), /outside the workspace/);
  });

  it('treats a file with a NUL byte as binary in the indexer as in read_file and drift', async () => {
    writeFileSync(join(root, 'docs', 'blob.md'), Buffer.from('# Looks like text\n\0\x01\x02 binary after all\n'));
    assert.match(
      refusal(() => readWorkspaceFile(root, 'docs/blob.md')),
      /is a binary file/,
    );
    assert.equal(new DiskWorkspaceReader(root).read('docs/blob.md'), null);
    const summary = await index();
    assert.deepEqual(docs(), ['docs/guide.md'], 'the binary file is not in the index, not even as an empty document');
    assert.equal(summary.skipped, 1);
  });

  it('uses one list of secret-bearing files: none is read, served or indexed; drift lists them by name', async () => {
    const secrets = [
      '.npmrc',
      '.ssh/id_rsa',
      'certs/site.p12',
      'deploy/PROD.TFVARS',
      'config/credentials.json',
      '.env.local',
      'charts/app/secrets.yaml',
    ];
    for (const path of secrets) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), 'token = "t0k3n-value-here"\n');
    }
    const reader = new DiskWorkspaceReader(root);
    // Drift knows they exist (a link to one is no broken link), by size and time only.
    assert.deepEqual(
      reader
        .list()
        .map((f) => f.path)
        .sort(),
      [...secrets, 'docs/guide.md'].sort(),
    );
    for (const path of secrets) {
      assert.equal(reader.read(path), null, path);
      assert.match(reader.digest(path) ?? '', /^stat:\d+:\d+$/, path);
      assert.match(
        refusal(() => readWorkspaceFile(root, path)),
        /may hold secrets/,
        path,
      );
    }
    await index();
    assert.deepEqual(docs(), ['docs/guide.md']);
    // Only drift's own reader lists them: a person's or a client's settings cannot ask for it.
    const configured = discoveryRulesFrom({ listSecrets: true } as DiscoveryConfig);
    assert.equal(discoveryMatcher(configured).accepts('deploy/PROD.TFVARS'), false);
  });

  it('serves through read_file a secret-bearing file a person allowed into the index, redacted', async () => {
    mkdirSync(join(root, '.lore'));
    writeFileSync(join(root, '.lore', 'config.json'), JSON.stringify({ index: { allow: ['deploy/staging.tfvars'] } }));
    mkdirSync(join(root, 'deploy'));
    writeFileSync(join(root, 'deploy', 'staging.tfvars'), 'region = "eu-west-2"\ndb_password = "s3cr3t-staging-pw"\n');
    const file = readWorkspaceFile(root, 'deploy/staging.tfvars');
    assert.match(file.text, /region = "eu-west-2"/);
    assert.ok(!file.text.includes('s3cr3t'), file.text);
    assert.equal(file.redactions, 1);
  });

  it('redacts a private key in read_file even when the lines asked for start inside its block', () => {
    const body = [
      'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
      'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
    ];
    writeFileSync(
      join(root, 'docs', 'tls.md'),
      ['# TLS', '-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----', 'done'].join('\n'),
    );
    const file = readWorkspaceFile(root, 'docs/tls.md', 4, 6);
    assert.equal(file.total_lines, 6);
    assert.ok(!file.text.includes(body[1]) && !file.text.includes('-----END'), file.text);
    assert.match(file.text, /done$/);
    assert.equal(file.redactions, 1);
  });
});
