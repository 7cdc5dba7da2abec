// Builds the bundles: dist/cli.js (the `lore` command: start.ts, which runs dist/cliMain.js),
// dist/mcpSdk.js (the MCP SDK and zod, which only the commands that serve MCP load) and
// dist/extension.js (VS Code). node-sqlite3-wasm loads its .wasm from beside the bundle, so it is
// copied into dist/.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, chmodSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
// dist/cli.js is src/cli/start.ts: it chooses V8's WebAssembly tier and runs dist/cliMain.js (the
// commands) through V8's code cache.
const CLI_BANNER = ['#!/usr/bin/env node', "'use strict';"].join('\n');
// The MCP SDK, zod and what they pull in (ajv, hono...) are about 60% of the CLI's code, and every
// command used to compile them. dist/cliMain.js leaves them out: each specifier below becomes a shim
// that takes its module from dist/mcpSdk.js when first evaluated, which only the MCP code does (it
// is reached through dynamic imports: `lore mcp`, `serve`, `watch`). An import of any other
// specifier of these packages fails the build rather than running as undefined.
const MCP_SDK = [
  'zod',
  '@modelcontextprotocol/sdk/server/mcp.js',
  '@modelcontextprotocol/sdk/server/streamableHttp.js',
  '@modelcontextprotocol/sdk/client/streamableHttp.js',
  '@modelcontextprotocol/sdk/inMemory.js',
  '@modelcontextprotocol/sdk/types.js',
];
const MCP_SDK_PACKAGES = /^(zod|@modelcontextprotocol\/sdk)(\/|$)/;
const mcpSdkShims = {
  name: 'mcp-sdk-shims',
  setup(b) {
    // Left as a run-time require: it resolves beside dist/cliMain.js.
    b.onResolve({ filter: /^\.\/mcpSdk\.js$/, namespace: 'mcp-sdk' }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: MCP_SDK_PACKAGES }, (args) => {
      const text = `${args.path} is not in esbuild.mjs's MCP_SDK list: add it there`;
      if (!MCP_SDK.includes(args.path)) return { errors: [{ text }] };
      return { path: args.path, namespace: 'mcp-sdk' };
    });
    b.onLoad({ filter: /.*/, namespace: 'mcp-sdk' }, (args) => ({
      contents: `module.exports = require('./mcpSdk.js')[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};
const getters = MCP_SDK.map((s) => `  get ${JSON.stringify(s)}() { return require(${JSON.stringify(s)}); },`);
const MCP_SDK_ENTRY = `module.exports = {\n${getters.join('\n')}\n};\n`;
// dist/cliMain.js runs from V8's code cache (src/cli/start.ts), where Node 20 gives import() no
// loader. tree-sitter's runtime is the only code that uses it, for two built-in modules; it gets
// them from the bundle's require instead (not its own: it declares a local `require`). The build
// fails if any other import() is left.
const BUILTIN_IMPORT = /\bimport\(("(?:module|fs\/promises)")\)/g;
const builtinImports = {
  name: 'builtin-imports',
  setup(b) {
    b.onLoad({ filter: /@vscode[\\/]tree-sitter-wasm[\\/].*\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(BUILTIN_IMPORT, '__loreBuiltin($1)'),
      loader: 'js',
    }));
  },
};
// secretlint's preset (src/engine/model/maintainedRules.ts) imports node:fs, node:path and node-forge
// lazily, only to read a .p12 file from disk by its path: Lore hands it text, never a .p12 path, so
// that branch is cut (and node-forge, 870 KB, stays out of the bundle).
const SECRETLINT_P12_IMPORT = /\bimport\('(?:node:fs|node:path|\.\/index-[A-Za-z0-9_-]+\.js)'\)/g;
const secretlintP12 = {
  name: 'secretlint-p12',
  setup(b) {
    b.onLoad({ filter: /secretlint-rule-preset-recommend[\\/]module[\\/]index-.*\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(
        SECRETLINT_P12_IMPORT,
        "Promise.reject(new Error('Lore does not read .p12 files'))",
      ),
      loader: 'js',
    }));
  },
};
const CLI_MAIN_BANNER = "'use strict';\nconst __loreBuiltin = (id) => Promise.resolve(require(id));";
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // jsonc-parser's main build is UMD, whose inner require()s esbuild cannot follow; its ES build bundles.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};
// The embedding worker (dist/embedWorker.js, started by src/host/embed/transformersEmbedder.ts).
// transformers.js and ONNX Runtime load from node_modules at run time: onnxruntime-node finds its
// native binding inside its own package, and the WebAssembly fallback reads onnxruntime-web's files.
const EMBED_EXTERNAL = [
  '@huggingface/transformers',
  'onnxruntime-node',
  'onnxruntime-web',
  'onnxruntime-common',
  'sharp',
];

mkdirSync('dist', { recursive: true });
await Promise.all([
  build({ ...common, entryPoints: ['src/cli/start.ts'], outfile: 'dist/cli.js', banner: { js: CLI_BANNER } }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cliMain.js',
    banner: { js: CLI_MAIN_BANNER },
    // Every cold command reads and hashes this file before it runs: without comments and
    // indentation it is about half the size. Names are kept (stack traces, error classes), and the
    // source map still points into src/. ASCII only, so start.ts reads it as Latin-1 (checked below).
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    plugins: [mcpSdkShims, builtinImports, secretlintP12],
    // A one-shot recall runs the model in-process (src/host/embed/modelSession.ts), from
    // node_modules as the worker does.
    external: EMBED_EXTERNAL,
  }),
  // `lore hook pre-tool-use`'s own small bundle (src/cli/hookFast.ts), which start.ts runs first.
  build({ ...common, entryPoints: ['src/cli/hookFast.ts'], outfile: 'dist/hookFast.js' }),
  build({
    ...common,
    stdin: { contents: MCP_SDK_ENTRY, resolveDir: process.cwd(), sourcefile: 'mcpSdk.js' },
    outfile: 'dist/mcpSdk.js',
  }),
  build({
    ...common,
    entryPoints: ['src/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    plugins: [secretlintP12],
    external: ['vscode', ...EMBED_EXTERNAL],
  }),
  build({
    ...common,
    entryPoints: ['src/host/embed/embedWorker.ts'],
    outfile: 'dist/embedWorker.js',
    external: EMBED_EXTERNAL,
  }),
  // The PostgreSQL store's worker (dist/pgMemoryWorker.js, started by src/host/store/postgres/syncBridge.ts).
  build({
    ...common,
    entryPoints: ['src/host/store/postgres/memoryWorker.ts'],
    outfile: 'dist/pgMemoryWorker.js',
    plugins: [secretlintP12],
    external: EMBED_EXTERNAL,
  }),
]);
chmodSync('dist/cli.js', 0o755);
const leftImport = /\bimport\(/.exec(readFileSync('dist/cliMain.js', 'utf8'));
if (leftImport) {
  throw new Error(
    `dist/cliMain.js still calls import() (at ${leftImport.index}): start.ts cannot run it from the code cache`,
  );
}
// start.ts reads dist/cliMain.js as Latin-1 (a copy, not a UTF-8 decode): a byte above 0x7f would be misread.
const nonAscii = readFileSync('dist/cliMain.js').findIndex((byte) => byte > 0x7f);
if (nonAscii >= 0) throw new Error(`dist/cliMain.js has a non-ASCII byte at ${nonAscii}: start.ts reads it as Latin-1`);
const wasm = join(dirname(require.resolve('node-sqlite3-wasm')), 'node-sqlite3-wasm.wasm');
copyFileSync(wasm, 'dist/node-sqlite3-wasm.wasm');
// Drift's symbol parser (src/host/symbols/treeSitter.ts) loads the tree-sitter runtime and the
// grammars of src/host/symbols/declarations.ts from dist/tree-sitter/.
const TREE_SITTER_GRAMMARS = ['typescript', 'tsx', 'javascript', 'go', 'python', 'rust', 'java', 'ruby', 'bash'];
const treeSitter = dirname(require.resolve('@vscode/tree-sitter-wasm'));
mkdirSync('dist/tree-sitter', { recursive: true });
for (const file of ['tree-sitter.wasm', ...TREE_SITTER_GRAMMARS.map((g) => `tree-sitter-${g}.wasm`)])
  copyFileSync(join(treeSitter, file), join('dist/tree-sitter', file));
console.log(
  'built dist/cli.js, dist/cliMain.js, dist/hookFast.js, dist/mcpSdk.js, dist/extension.js, dist/embedWorker.js, ' +
    'dist/pgMemoryWorker.js',
);
// The Claude Code plugin (plugins/lore) starts the CLI built here: Claude Code copies the plugin
// away from the clone, so its launcher (bin/lore.cjs) reads this absolute path.
const cli = resolve('dist/cli.js');
writeFileSync('plugins/lore/bin/cli-path.txt', cli + '\n');
// Whether `lore` is a command yet; if not, how to make it one (lore init writes `node dist/cli.js` meanwhile).
const onPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter(Boolean)
  .map((dir) => join(dir, 'lore'))
  .find((file) => {
    try {
      return realpathSync(file) === realpathSync(cli);
    } catch {
      return false;
    }
  });
console.log(
  onPath
    ? `lore on PATH is this build (${onPath})`
    : `lore is not on your PATH yet: run \`npm install -g .\` here to make it a command ` +
        `(until then, run node ${cli}; lore init writes that path into the hosts' configuration)`,
);
