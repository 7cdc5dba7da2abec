// Builds the bundles: dist/cli.js (the `lore` command; the MCP server joins it) and
// dist/extension.js (VS Code). node-sqlite3-wasm loads its .wasm from beside the bundle, so it is
// copied into dist/.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, chmodSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
// One-shot commands spend most of their start tiering SQLite's WebAssembly up to the optimising
// compiler; Liftoff alone starts them about twice as fast. Long-running servers keep tier-up, and
// so does `index`: a bulk index runs long enough in SQLite that optimised code pays for itself.
// This must run before the bundle compiles the WebAssembly, hence the banner.
const CLI_BANNER = [
  '#!/usr/bin/env node',
  "'use strict';",
  "if (!process.argv.slice(2).some((a) => a === 'serve' || a === 'mcp' || a === 'watch' || a === 'index')) require('node:v8').setFlagsFromString('--liftoff-only');",
].join('\n');
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };
// The embedding worker (dist/embedWorker.js, started by src/host/embed/transformersEmbedder.ts).
// transformers.js and ONNX Runtime load from node_modules at run time: onnxruntime-node finds its
// native binding inside its own package, and the WebAssembly fallback reads onnxruntime-web's files.
const EMBED_EXTERNAL = ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-web', 'onnxruntime-common', 'sharp'];

mkdirSync('dist', { recursive: true });
await Promise.all([
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: CLI_BANNER } }),
  build({ ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['src/host/embed/embedWorker.ts'], outfile: 'dist/embedWorker.js', external: EMBED_EXTERNAL }),
]);
chmodSync('dist/cli.js', 0o755);
const wasm = join(dirname(require.resolve('node-sqlite3-wasm')), 'node-sqlite3-wasm.wasm');
copyFileSync(wasm, 'dist/node-sqlite3-wasm.wasm');
// Drift's symbol parser (src/host/symbols/treeSitter.ts) loads the tree-sitter runtime and the
// grammars of src/host/symbols/declarations.ts from dist/tree-sitter/.
const TREE_SITTER_GRAMMARS = ['typescript', 'tsx', 'javascript', 'go', 'python', 'rust', 'java', 'ruby', 'bash'];
const treeSitter = dirname(require.resolve('@vscode/tree-sitter-wasm'));
mkdirSync('dist/tree-sitter', { recursive: true });
for (const file of ['tree-sitter.wasm', ...TREE_SITTER_GRAMMARS.map((g) => `tree-sitter-${g}.wasm`)]) copyFileSync(join(treeSitter, file), join('dist/tree-sitter', file));
console.log('built dist/cli.js, dist/extension.js, dist/embedWorker.js');
