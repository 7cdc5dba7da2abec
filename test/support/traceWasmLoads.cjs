// Preloaded into a `lore` child (NODE_OPTIONS=--require) by tests that check what a command loads:
// every WebAssembly file it reads, and every script the module loader reads (dist/cliMain.js, the lazily
// loaded dist/mcpSdk.js, .cjs packages; worker threads too), is appended, one path a line, to $LORE_TRACE_WASM.
'use strict';
const fs = require('node:fs');
const out = process.env.LORE_TRACE_WASM;
const note = (file) => {
  const name = String(file instanceof URL ? file.pathname : file);
  if (out && /\.(wasm|js|cjs)$/.test(name)) fs.appendFileSync(out, `${name}\n`);
};
for (const [owner, key] of [
  [fs, 'readFileSync'],
  [fs, 'readFile'],
  [fs.promises, 'readFile'],
]) {
  const original = owner[key];
  owner[key] = function (file, ...rest) {
    note(file);
    return original.call(this, file, ...rest);
  };
}
