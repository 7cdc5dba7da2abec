// The engine stays pure: no 'vscode', no process I/O, no environment, no stdout. A test fails if one appears.

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENGINE = join(__dirname, '..', '..', 'src', 'engine');

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
      "import { readFileSync } from 'fs';", "import * as fs from \"node:fs\";",
      "export { readFile } from 'fs/promises';",
      "import 'node:os';", "const fs = require('fs');", "const cp = require( 'node:child_process' );",
      "const fs = await import('fs');", "const fs = await import('node:fs');",
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
