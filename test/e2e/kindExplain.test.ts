// `lore index --explain PATH` through the built CLI: a prose page's kind with its confidence, the
// runner-up and the signals in plain words; a file whose kind is a definition says which; a path the
// index does not read is a clear error that names the option's fix, and nothing is written.

import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSpace, ok, type CliSpace } from '../support/cli';

describe('lore index --explain', function () {
  this.timeout(60_000);
  let space: CliSpace;
  before(() => {
    space = makeSpace();
    mkdirSync(join(space.workspace, 'docs', 'decisions'), { recursive: true });
    writeFileSync(
      join(space.workspace, 'docs', 'decisions', '0003-use-queues.md'),
      '# 3. Use queues\n\n## Status\n\nAccepted\n\n## Context\n\nJobs.\n\n' +
        '## Decision\n\nQueues.\n\n## Consequences\n\nMore.\n',
    );
    writeFileSync(join(space.workspace, 'Dockerfile'), 'FROM alpine\n');
  });
  after(() => space.cleanup());

  it('says the kind, its confidence, the runner-up and the signals that decided it', () => {
    const text = ok(space.lore('index', '--explain', 'docs/decisions/0003-use-queues.md')).stdout;
    assert.match(text, /^docs\/decisions\/0003-use-queues\.md: adr \(\d+%\), runner-up \w+ \(\d+%\)/);
    assert.match(text, /\+ a “decision” section|\+ sections of a decision/);
    const json = ok(space.lore('--json', 'index', '--explain', 'Dockerfile')).json;
    assert.deepEqual([json.kind, json.decided_by, json.confidence], ['dockerfile', 'rule', 1]);
    assert.match(json.signals[0].signal, /Dockerfile/);
    assert.equal(existsSync(space.paths().database), false, 'explaining writes no store');
  });

  it('refuses a path the index does not read, saying what to give', () => {
    const result = space.lore('index', '--explain', 'docs/missing.md');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /docs\/missing\.md is not a file the index reads/);
  });
});
