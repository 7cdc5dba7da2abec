// dist/cli.js, the `lore` executable: picks V8's WebAssembly tier for the command, answers the
// pre-tool-use hook from dist/hookFast.js when it can, and otherwise runs the command bundle
// (dist/cliMain.js) through V8's code cache, so a one-shot command does not compile the same
// JavaScript on every start. Node ≥ 22.1 has module.enableCompileCache(); Node 20 does not, hence
// vm.Script's cachedData. The cache sits beside the bundle (the same trust as the code it caches,
// never LORE_HOME), named by the bundle's size and mtime, the tier (V8 rejects a cache made under
// other flags) and the command; a read-only install or LORE_COMPILE_CACHE=off runs uncached.

import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { handOffSessionEnd, isBackgroundSessionEnd } from './commands/hookBackground';

// One-shot commands spend most of their start tiering SQLite's WebAssembly up to the optimising
// compiler; Liftoff alone starts them about twice as fast. Long-running servers keep tier-up, and
// so does `index`: a bulk index runs long enough in SQLite that optimised code pays for itself.
// This must run before the bundle compiles the WebAssembly.
const TIERED = ['serve', 'mcp', 'watch', 'index'];
const tiered = process.argv.slice(2).some((arg) => TIERED.includes(arg));
if (!tiered) setFlagsFromString('--liftoff-only');

const BUNDLE = join(__dirname, 'cliMain.js');
const CACHE_PREFIX = 'cliMain.';
const CACHE_SUFFIX = '.v8cache';

interface CliMain {
  start(): void;
}

/**
 * One cache per build, tier and command: a cache holds the functions its command ran, so `recall`
 * does not inherit the few that `--help` compiled. The name only picks a file (V8 checks what it
 * loads), so a rough guess at the command word is enough.
 */
function cachePath(): { path: string; build: string } | null {
  try {
    const { size, mtimeMs } = statSync(BUNDLE);
    const build = `${CACHE_PREFIX}${size}-${Math.floor(mtimeMs)}.`;
    const args = process.argv.slice(2);
    const afterWorkspace = (i: number) => args[i - 1] === '-w' || args[i - 1] === '--workspace';
    const word = (arg: string, i: number) => /^[a-z][a-z-]{0,30}$/.test(arg) && !afterWorkspace(i);
    const command = args.find(word) ?? 'none';
    return { path: join(__dirname, `${build}${tiered ? 'tiered' : 'liftoff'}.${command}${CACHE_SUFFIX}`), build };
  } catch {
    return null;
  }
}

/** Writes the cache whole (a rename), and drops caches of earlier builds. Any failure leaves none. */
function saveCache(path: string, build: string, data: Buffer): void {
  const temp = `${path}.${process.pid}`;
  try {
    writeFileSync(temp, data, { mode: 0o644 });
    renameSync(temp, path);
    for (const other of readdirSync(__dirname)) {
      const stale = other.startsWith(CACHE_PREFIX) && other.endsWith(CACHE_SUFFIX) && !other.startsWith(build);
      if (stale) rmSync(join(__dirname, other), { force: true });
    }
  } catch {
    // A read-only install: every start compiles, as without a cache.
    rmSync(temp, { force: true });
  }
}

function loadCached(): CliMain | null {
  const cache = process.env.LORE_COMPILE_CACHE === 'off' ? null : cachePath();
  if (!cache) return null;
  const { path, build } = cache;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(path);
  } catch {
    cachedData = undefined;
  }
  // The bundle is ASCII (esbuild.mjs checks): Latin-1 is a plain copy, where UTF-8 would be decoded.
  const source = readFileSync(BUNDLE, 'latin1');
  // The bundle calls no import() (esbuild.mjs checks): a script from the cache would have no loader for it.
  const script = new Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  // Made at exit, so it holds the functions this command compiled as well as the top level.
  const save = () => saveCache(path, build, script.createCachedData());
  if (!cachedData || script.cachedDataRejected) process.once('exit', save);
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = module.paths;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(bundle.exports, bundle.exports, createRequire(BUNDLE), bundle, BUNDLE, __dirname);
  bundle.loaded = true;
  return bundle.exports as CliMain;
}

function runMain(): void {
  (loadCached() ?? (require(BUNDLE) as CliMain)).start();
}

// Two hooks must not wait for the 2 MB bundle. Claude Code cancels a plugin's SessionEnd hook after
// 1.5 s, so that capture is handed off first (./commands/hookBackground.ts); and it runs
// `lore hook pre-tool-use` before every edit (and waits for `session-start` before the first
// prompt), so dist/hookFast.js answers them from their snapshots and hands over to the bundle only
// when it cannot.
const args = process.argv.slice(2);
if (isBackgroundSessionEnd(args)) void handOffSessionEnd(args);
else if (args.includes('pre-tool-use') || args.includes('session-start')) {
  const fast = require(join(__dirname, 'hookFast.js')) as { hookFast(argv: string[]): Promise<boolean> };
  fast.hookFast(args).then((done) => {
    if (!done) runMain();
  }, runMain);
} else runMain();
