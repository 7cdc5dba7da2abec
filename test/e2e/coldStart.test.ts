// A one-shot read loads only what it needs: a lexical `lore recall` and `lore hook session-start`
// never load drift's tree-sitter grammars (about a tenth of a second of a cold command), while a
// command that may fingerprint symbols still does. What a command loads is read from a preload
// that lists the WebAssembly files the child reads (test/support/traceWasmLoads.cjs).

import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeSpace, ok, runCli, type CliSpace } from '../support/cli';

const PRELOAD = resolve(__dirname, '../support/traceWasmLoads.cjs');

describe('cold one-shot commands load only what they need', function () {
  this.timeout(60_000);
  let space: CliSpace;
  let key: string;

  function wasmLoadedBy(args: string[], input = ''): { loaded: string[]; stdout: string } {
    const trace = join(space.root, 'wasm-trace.txt');
    rmSync(trace, { force: true });
    const env = { NODE_OPTIONS: `--require ${PRELOAD}`, LORE_TRACE_WASM: trace };
    const run = ok(runCli(args, { home: space.home, workspace: space.workspace, input, env }), `lore ${args.join(' ')}`);
    return { loaded: existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [], stdout: run.stdout };
  }

  before(() => {
    space = makeSpace('lore-cold-');
    const saved = ok(space.lore('remember', '--json', '--type', 'decision', '--title', 'Rotate gateway certificates',
      '--description', 'Gateway certificates rotate every ninety days', '--body', 'Rotation runs from the ops runbook.'));
    key = (saved.json as { key: string }).key;
  });
  after(() => space.cleanup());

  it('a command that may locate symbols loads the grammars (the trace sees them)', () => {
    const { loaded } = wasmLoadedBy(['get', key]);
    assert.ok(loaded.some((f) => f.endsWith('tree-sitter-typescript.wasm')), `lore get loads the grammars: ${loaded.join(', ')}`);
  });

  it('lore recall opens SQLite and loads no tree-sitter grammar', () => {
    const { loaded, stdout } = wasmLoadedBy(['recall', 'gateway certificates']);
    assert.match(stdout, /Rotate gateway certificates/);
    assert.ok(loaded.some((f) => f.endsWith('node-sqlite3-wasm.wasm')), `recall opened the store: ${loaded.join(', ')}`);
    assert.deepEqual(loaded.filter((f) => f.includes('tree-sitter')), []);
  });

  it('lore hook session-start answers with its block and loads no tree-sitter grammar', () => {
    const { loaded, stdout } = wasmLoadedBy(['hook', 'session-start'], JSON.stringify({ cwd: space.workspace }));
    assert.match(stdout, /Rotate gateway certificates/);
    assert.ok(loaded.some((f) => f.endsWith('node-sqlite3-wasm.wasm')), `the hook opened the store: ${loaded.join(', ')}`);
    assert.deepEqual(loaded.filter((f) => f.includes('tree-sitter')), []);
  });
});
