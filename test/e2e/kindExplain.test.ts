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
    mkdirSync(join(space.workspace, 'docs', 'adr'), { recursive: true });
    for (const [n, title] of [
      [1, 'Record decisions'],
      [3, 'Queue jobs in Postgres'],
      [4, 'Deploy with Helm'],
    ] as const)
      writeFileSync(
        join(space.workspace, 'docs', 'adr', `000${n}-${title.toLowerCase().replace(/ /g, '-')}.md`),
        `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\nAccepted\n\n` +
          `## Context\n\nWe need to choose how to ${title.toLowerCase()}.\n\n` +
          `## Decision\n\nWe will ${title.toLowerCase()}.\n\n## Consequences\n\nThe team keeps one way of doing it.\n`,
      );
    writeFileSync(
      join(space.workspace, 'docs', 'adr', '0006-logging.md'),
      '# 6. Logging\n\nWe log in JSON to standard output, one event a line, and the platform ships the lines ' +
        'to the log store.\n',
    );
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

  it('with the second pass off by default, a page is decided by its own text, as the index stores it', () => {
    const text = ok(space.lore('index', '--explain', 'docs/adr/0006-logging.md')).stdout;
    assert.doesNotMatch(text, /siblings/);
    const json = ok(space.lore('--json', 'index', '--explain', 'docs/adr/0006-logging.md')).json;
    assert.equal(json.decided_by, 'model');
    assert.equal(json.own_kind, undefined);
  });

  it('refuses a path the index does not read, saying what to give', () => {
    const result = space.lore('index', '--explain', 'docs/missing.md');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /docs\/missing\.md is not a file the index reads/);
  });
});
