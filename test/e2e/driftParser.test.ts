// The built `lore` locates symbols with tree-sitter, loading the runtime and grammars copied into
// dist/tree-sitter/: a Go constant declared in a `const ( … )` block (which the patterns do not
// see) is a tracked reference, and a TypeScript string that reads like a declaration of the name
// is not part of the symbol (the patterns would take it for one).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, makeSpace, ok, type CliSpace } from '../support/cli';

const GO = ['package retry', '', 'const (', '\tMaxRetries = 5', '\tBackoffSeconds = 2', ')', ''].join('\n');
const TS = [
  'export function claimNext(db) {',
  '  return db.query("SKIP LOCKED");',
  '}',
  '',
  'export const HELP = `',
  'function claimNext() { was the old signature',
  '`;',
  '',
].join('\n');

describe('lore drift with the tree-sitter parser, end to end', function () {
  this.timeout(60_000);
  let space: CliSpace;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(space.workspace, path)), { recursive: true });
    writeFileSync(join(space.workspace, path), text);
  };
  const stateOf = (raw: string): string => {
    const all = ok(
      space.lore(
        'drift',
        'list',
        '--json',
        '--state',
        'current',
        '--state',
        'changed',
        '--state',
        'gone',
        '--state',
        'relocated',
        '--state',
        'broken',
      ),
    ).json as Array<{ reference: { raw: string }; state: string }>;
    const found = all.filter((f) => f.reference.raw === raw);
    assert.equal(found.length, 1, `one reference ${raw}: ${JSON.stringify(all.map((f) => f.reference.raw))}`);
    return found[0].state;
  };

  before(() =>
    assert.ok(
      existsSync(join(dirname(CLI), 'tree-sitter', 'tree-sitter-go.wasm')),
      'the build copies the grammars into dist/tree-sitter',
    ),
  );
  beforeEach(() => {
    space = makeSpace('lore-drift-parser-');
    write('internal/retry/retry.go', GO);
    write('src/jobs/queue.ts', TS);
    write('docs/ops.md', '# Ops\nA job is tried `MaxRetries` times; workers call `claimNext()`.\n');
    ok(
      space.lore(
        'remember',
        '--type',
        'decision',
        '--title',
        'Retry five times',
        '--description',
        'Jobs are retried five times',
        '--anchor',
        'internal/retry/retry.go#MaxRetries',
      ),
    );
    ok(space.lore('drift', 'scan'));
  });
  afterEach(() => space.cleanup());

  it('tracks a constant of a Go const block, and finds it changed', () => {
    assert.equal(stateOf('MaxRetries'), 'current');
    write('internal/retry/retry.go', GO.replace('BackoffSeconds = 2', 'BackoffSeconds = 3'));
    ok(space.lore('drift', 'check', 'internal/retry/retry.go'));
    assert.equal(stateOf('MaxRetries'), 'current', 'its neighbour in the block changed, not it');
    write('internal/retry/retry.go', GO.replace('MaxRetries = 5', 'MaxRetries = 3'));
    const check = ok(space.lore('drift', 'check', 'internal/retry/retry.go'));
    assert.match(check.stdout, /changed +docs\/ops\.md:2 → MaxRetries/);
    assert.match(check.stdout, /changed +decision\/retry-five-times → internal\/retry\/retry\.go#MaxRetries/);
  });

  it('an edit to a string that reads like the declaration is not drift; an edit to the function is', () => {
    write('src/jobs/queue.ts', TS.replace('was the old signature', 'is no longer the signature'));
    ok(space.lore('drift', 'check', 'src/jobs/queue.ts'));
    assert.equal(stateOf('claimNext()'), 'current');
    write('src/jobs/queue.ts', TS.replace('SKIP LOCKED', 'NOWAIT'));
    ok(space.lore('drift', 'check', 'src/jobs/queue.ts'));
    assert.equal(stateOf('claimNext()'), 'changed');
  });
});
