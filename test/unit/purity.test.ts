// The engine stays pure: no 'vscode', no process I/O, no environment, no stdout. A test fails if one appears.
// And the doors (CLI, MCP server, VS Code extension) reach the engine only through its barrel, src/engine/index.ts;
// the MCP server imports nothing from src/host.

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

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

// The engine is a stack. A module imports only from its own layer's folder or from layers below;
// never up the stack, and never a sibling feature of its own layer (features meet in L3, engine.ts,
// through record hooks). Root files are named on their own.
const LAYERS: Array<{ layer: string; parts: string[]; siblingsApart?: boolean }> = [
  { layer: 'L0 vocabulary', parts: ['text', 'model', 'embed', 'errors.ts', 'ports.ts'] },
  { layer: 'L1 record', parts: ['record', 'store', 'context.ts'] },
  {
    layer: 'L2 features',
    parts: ['memory', 'indexing', 'search', 'drift', 'steward', 'team'],
    siblingsApart: true,
  },
  { layer: 'L3 composition', parts: ['engine.ts', 'anchored.ts', 'annotate.ts', 'driftReads.ts'] },
  { layer: 'L4 barrel', parts: ['index.ts'] },
];

/** Every engine file's relative imports (static, re-export, type-only, dynamic), as engine-relative paths. */
function engineImports(): Edge[] {
  const specifier = /(?:\bfrom\s*|\bimport\s+|\b(?:require|import)\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  const edges: Edge[] = [];
  const files = new Set(sourceFiles(ENGINE));
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(specifier)) {
      const base = join(dirname(file), m[1]);
      const target = [`${base}.ts`, join(base, 'index.ts'), base].find((c) => files.has(c));
      if (target) edges.push({ from: relative(ENGINE, file), to: relative(ENGINE, target) });
    }
  }
  return edges;
}

/** The part (a folder or a root file) of an engine-relative path, and its layer's index. */
function placeOf(path: string): { part: string; layer: number } {
  const part = path.split(/[\\/]/)[0];
  const layer = LAYERS.findIndex((l) => l.parts.includes(part));
  return { part, layer };
}

type Edge = { from: string; to: string };

/** The imports that go up the stack or across to a sibling feature, as `from -> to`. */
function againstOrder(edges: readonly Edge[]): string[] {
  const found = new Set<string>();
  for (const { from, to } of edges) {
    const a = placeOf(from);
    const b = placeOf(to);
    const up = b.layer > a.layer;
    const sideways = a.layer === b.layer && a.part !== b.part && LAYERS[a.layer].siblingsApart;
    if (up || sideways) found.add(`${from} -> ${to}`);
  }
  return [...found].sort();
}

/** The import circles, each as its files (sorted), by Tarjan's strongly connected components. */
function circlesOf(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      // A component of two or more files is a circle.
      if (component.length > 1) circles.push(component.sort().join(' '));
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('the engine is a stack with a tested order', () => {
  const edges = engineImports();

  it('every engine folder and root file has a layer', () => {
    const parts = new Set(sourceFiles(ENGINE).map((f) => placeOf(relative(ENGINE, f)).part));
    const unplaced = [...parts].filter((p) => placeOf(p).layer < 0);
    assert.deepEqual(unplaced, [], `add ${unplaced.join(', ')} to LAYERS`);
    assert.ok(edges.length > 100, `read only ${edges.length} imports`);
  });

  it('no import goes up the stack or across to a sibling feature, with no exception', () => {
    assert.deepEqual(againstOrder(edges), [], 'imports against the layer order (see LAYERS in this file)');
  });

  it('no import circle in src/engine', () => {
    assert.deepEqual(circlesOf(edges), [], 'import circles');
  });

  it('reads an upward import, a sibling import and a circle as such', () => {
    assert.equal(placeOf('record/rows.ts').layer, 1);
    assert.equal(placeOf('text/fences.ts').layer, 0);
    const wrong: Edge[] = [
      { from: 'drift/extract.ts', to: 'indexing/classify.ts' },
      { from: 'model/kinds.ts', to: 'record/rows.ts' },
      { from: 'memory/save.ts', to: 'engine.ts' },
    ];
    const right: Edge[] = [
      { from: 'drift/extract.ts', to: 'text/fences.ts' },
      { from: 'engine.ts', to: 'drift/service.ts' },
      { from: 'drift/extract.ts', to: 'drift/commands.ts' },
    ];
    assert.deepEqual(againstOrder([...wrong, ...right]), wrong.map((e) => `${e.from} -> ${e.to}`).sort());
    const circle: Edge[] = [
      { from: 'trust/a.ts', to: 'trust/b.ts' },
      { from: 'trust/b.ts', to: 'trust/c.ts' },
      { from: 'trust/c.ts', to: 'trust/a.ts' },
      { from: 'trust/c.ts', to: 'trust/d.ts' },
    ];
    assert.deepEqual(circlesOf(circle), ['trust/a.ts trust/b.ts trust/c.ts']);
    assert.deepEqual(circlesOf(right), []);
  });
});
