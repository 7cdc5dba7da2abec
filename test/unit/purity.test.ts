// The engine stays pure: no 'vscode', no process I/O, no environment, no stdout. A test fails if one appears.
// And the doors (CLI, MCP server, VS Code extension) reach the engine only through its barrel, src/engine/index.ts;
// the MCP server imports nothing from src/host.

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');
const ENGINE = join(SRC, 'engine');
const DOORS = ['cli', 'mcp', 'vscode'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// One list of process-I/O modules, checked in every form a module can be loaded: static import or
// re-export, side-effect import, require() and dynamic import().
const IO_MODULES = String.raw`(node:)?(fs|fs/promises|child_process|net|http|https|os|worker_threads|readline)`;
const loads = (module: string): RegExp =>
  new RegExp(String.raw`(\bfrom\s*|\bimport\s+|\b(require|import)\s*\(\s*)['"]${module}['"]`);

const FORBIDDEN: Array<[RegExp, string]> = [
  [loads('vscode'), "imports 'vscode'"],
  [loads(IO_MODULES), 'imports process I/O'],
  [/\bprocess\./, 'touches process (env, stdout, exit…)'],
  [/\bconsole\./, 'writes to the console'],
];

describe('engine purity', () => {
  const files = sourceFiles(ENGINE);

  it('has source files to check', () => {
    assert.ok(files.length > 10, `found only ${files.length} engine files`);
  });

  it('recognises every way of loading a process-I/O module, and leaves look-alikes alone', () => {
    const io = loads(IO_MODULES);
    const loading = [
      "import { readFileSync } from 'fs';",
      'import * as fs from "node:fs";',
      "export { readFile } from 'fs/promises';",
      "import 'node:os';",
      "const fs = require('fs');",
      "const cp = require( 'node:child_process' );",
      "const fs = await import('fs');",
      "const fs = await import('node:fs');",
    ];
    for (const line of loading) assert.ok(io.test(line), `missed: ${line}`);
    for (const line of ["import { x } from './fs';", "const s = 'fs';", "import { y } from 'fsevents';"]) {
      assert.ok(!io.test(line), `false alarm: ${line}`);
    }
  });

  for (const [pattern, what] of FORBIDDEN) {
    it(`no engine module ${what}`, () => {
      const offenders = files.filter((file) => pattern.test(readFileSync(file, 'utf8')));
      assert.deepEqual(offenders, [], `${offenders.join(', ')} ${what}`);
    });
  }
});

describe('doors use only the engine barrel', () => {
  // Any specifier that goes up to src/engine and then further in: '../engine/drift/symbols', '../../engine/index'.
  const deep = loads(String.raw`(\.\./)+engine/[^'"]+`);
  const files = DOORS.flatMap((door) => sourceFiles(join(SRC, door))).filter((file) => !file.endsWith('.test.ts'));

  it('has door files to check', () => {
    assert.ok(files.length > 10, `found only ${files.length} door files`);
  });

  it('recognises a deep import and leaves the barrel alone', () => {
    const deepLines = [
      "import { keyFor } from '../../engine/model/keys';",
      "import type { X } from '../engine/drift/symbols';",
      "const m = require('../engine/indexing/discovery');",
    ];
    for (const line of deepLines) assert.ok(deep.test(line), `missed: ${line}`);
    const barrelLines = [
      "import { Engine } from '../engine';",
      "import { LIMITS } from '../../engine';",
      "import { x } from '../host/engineApi';",
    ];
    for (const line of barrelLines) assert.ok(!deep.test(line), `false alarm: ${line}`);
  });

  it('the MCP server does not reach into src/host: hosts hand it what it needs (the file reader) as ports', () => {
    const intoHost = loads(String.raw`(\.\./)+host/[^'"]+`);
    const mcp = files.filter((file) => file.startsWith(join(SRC, 'mcp')));
    assert.ok(mcp.length > 5, `found only ${mcp.length} MCP files`);
    const offenders = mcp.filter((file) => intoHost.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, [], `${offenders.join(', ')} import from src/host`);
  });

  it('no door module imports from inside src/engine', () => {
    const offenders = files.filter((file) => deep.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, [], `${offenders.join(', ')} import past the barrel: import from src/engine/index.ts`);
  });
});
