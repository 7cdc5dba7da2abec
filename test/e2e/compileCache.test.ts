// dist/cli.js runs the commands (dist/cliMain.js) through V8's code cache (src/cli/start.ts): a
// command writes its own cache beside the bundle, later runs use it without writing again, a
// rebuilt bundle's first run drops the old caches, a cache that V8 rejects (here: garbage) is
// replaced and the command still answers, a cache that cannot be written leaves the command
// uncached and nothing half-written, and LORE_COMPILE_CACHE=off writes nothing. Each case runs a
// copy of dist/ in a temporary folder, so the repository's build is not touched.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/store';

const DIST = resolve(__dirname, '..', '..', 'dist');
const FILES = ['cli.js', 'cliMain.js', 'mcpSdk.js', 'node-sqlite3-wasm.wasm'];

describe("the CLI's compile cache", function () {
  this.timeout(60_000);
  let root: string;
  let dist: string;

  beforeEach(() => {
    root = tempDir('lore-cache-');
    dist = join(root, 'dist');
    mkdirSync(dist);
    for (const file of FILES) copyFileSync(join(DIST, file), join(dist, file));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const caches = () => readdirSync(dist).filter((f) => f.endsWith('.v8cache'));
  function lore(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
    const run = spawnSync(process.execPath, [join(dist, 'cli.js'), ...args], {
      cwd: tmpdir(),
      env: { ...process.env, LORE_HOME: join(root, 'home'), LORE_EMBED: 'off', ...env },
      encoding: 'utf8',
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  }

  it('a command writes its cache beside the bundle; the next run uses it and writes nothing', () => {
    assert.equal(lore(['help']).code, 0);
    const [cache] = caches();
    assert.match(cache ?? '', /^cliMain\.\d+-\d+\.liftoff\.help\.v8cache$/, `caches: ${caches().join(', ')}`);
    const written = statSync(join(dist, cache)).mtimeMs;
    const help = lore(['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /lore 0\.1\.0 — a durable engineering memory/);
    assert.deepEqual(caches(), [cache]);
    assert.equal(statSync(join(dist, cache)).mtimeMs, written, 'a cache V8 accepted is not written again');
    // Another command keeps its own (it compiles other functions); a rebuilt bundle drops the old ones.
    assert.equal(lore(['--workspace', root, 'list']).code, 0);
    assert.deepEqual(caches().sort(), [cache, cache.replace('.help.', '.list.')].sort());
    appendFileSync(join(dist, 'cliMain.js'), '\n');
    assert.equal(lore(['help']).code, 0);
    assert.equal(caches().length, 1, `after a rebuild: ${caches().join(', ')}`);
    assert.notEqual(caches()[0], cache);
  });

  it('a cache V8 rejects is replaced, and the command still answers', () => {
    lore(['help']);
    const [cache] = caches();
    writeFileSync(join(dist, cache), Buffer.alloc(4096, 7));
    const run = lore(['help']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /lore help COMMAND/);
    assert.deepEqual(caches(), [cache]);
    assert.notEqual(statSync(join(dist, cache)).size, 4096, 'the garbage was replaced by a real cache');
  });

  it('runs uncached where it cannot write the cache, and writes nothing with LORE_COMPILE_CACHE=off', () => {
    assert.equal(lore(['help'], { LORE_COMPILE_CACHE: 'off' }).code, 0);
    assert.deepEqual(caches(), []);
    // A folder where the cache would go: neither read nor replaced (as in a read-only install, even for root).
    const { size, mtimeMs } = statSync(join(dist, 'cliMain.js'));
    const blocked = join(dist, `cliMain.${size}-${Math.floor(mtimeMs)}.liftoff.help.v8cache`);
    mkdirSync(join(blocked, 'inside'), { recursive: true });
    const run = lore(['help']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /lore help COMMAND/);
    assert.ok(statSync(blocked).isDirectory());
    assert.deepEqual(
      readdirSync(dist).filter((f) => f.includes('.v8cache.')),
      [],
      'no half-written cache is left',
    );
  });
});
