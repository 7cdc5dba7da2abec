// A one-shot read loads only what it needs: a lexical `lore recall` and `lore hook session-start`
// never load drift's tree-sitter grammars (about a tenth of a second of a cold command), while a
// command that may fingerprint symbols still does; and only the commands that serve MCP load the
// MCP SDK and zod (dist/mcpSdk.js, three fifths of the CLI's code). What a command loads is read
// from a preload that lists the WebAssembly files and scripts the child reads
// (test/support/traceWasmLoads.cjs).

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
    const run = ok(
      runCli(args, { home: space.home, workspace: space.workspace, input, env }),
      `lore ${args.join(' ')}`,
    );
    return {
      loaded: existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [],
      stdout: run.stdout,
    };
  }

  before(() => {
    space = makeSpace('lore-cold-');
    const saved = ok(
      space.lore(
        'remember',
        '--json',
        '--type',
        'decision',
        '--title',
        'Rotate gateway certificates',
        '--description',
        'Gateway certificates rotate every ninety days',
        '--body',
        'Rotation runs from the ops runbook.',
      ),
    );
    key = (saved.json as { key: string }).key;
  });
  after(() => space.cleanup());

  it('a command that may locate symbols loads the grammars (the trace sees them)', () => {
    const { loaded } = wasmLoadedBy(['get', key]);
    assert.ok(
      loaded.some((f) => f.endsWith('tree-sitter-typescript.wasm')),
      `lore get loads the grammars: ${loaded.join(', ')}`,
    );
  });

  it('lore recall opens SQLite and loads no tree-sitter grammar', () => {
    const { loaded, stdout } = wasmLoadedBy(['recall', 'gateway certificates']);
    assert.match(stdout, /Rotate gateway certificates/);
    assert.ok(
      loaded.some((f) => f.endsWith('node-sqlite3-wasm.wasm')),
      `recall opened the store: ${loaded.join(', ')}`,
    );
    assert.deepEqual(
      loaded.filter((f) => f.includes('tree-sitter')),
      [],
    );
    assert.ok(
      loaded.some((f) => f.endsWith('cliMain.js')),
      `the trace sees the CLI's own script: ${loaded.join(', ')}`,
    );
    assert.deepEqual(
      loaded.filter((f) => f.endsWith('mcpSdk.js')),
      [],
      'a lexical recall does not load the MCP SDK',
    );
    // …and the script it does compile carries neither the SDK's server nor zod.
    const cli = readFileSync(
      loaded.find((f) => f.endsWith('cliMain.js'))!,
      'utf8',
    );
    assert.equal(/McpServer = class|ZodError/.test(cli), false, 'dist/cliMain.js holds no MCP SDK or zod code');
  });

  it('lore hook session-start answers with its block and loads no tree-sitter grammar', () => {
    const { loaded, stdout } = wasmLoadedBy(['hook', 'session-start'], JSON.stringify({ cwd: space.workspace }));
    assert.match(stdout, /Rotate gateway certificates/);
    assert.ok(
      loaded.some((f) => f.endsWith('node-sqlite3-wasm.wasm')),
      `the hook opened the store: ${loaded.join(', ')}`,
    );
    assert.deepEqual(
      loaded.filter((f) => f.includes('tree-sitter')),
      [],
    );
    assert.deepEqual(
      loaded.filter((f) => f.endsWith('mcpSdk.js')),
      [],
      'the hook does not load the MCP SDK',
    );
  });

  it('lore mcp loads the MCP SDK from beside the CLI and answers tools/list', () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const { loaded, stdout } = wasmLoadedBy(['mcp'], messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    assert.ok(
      loaded.some((f) => f.endsWith(join('dist', 'mcpSdk.js'))),
      `lore mcp loads dist/mcpSdk.js: ${loaded.join(', ')}`,
    );
    const replies = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: number; result?: { tools?: Array<{ name: string }> } });
    const tools = replies.find((r) => r.id === 2)?.result?.tools ?? [];
    assert.ok(
      tools.some((t) => t.name === 'recall'),
      `tools/list names recall: ${stdout.slice(0, 300)}`,
    );
  });
});
