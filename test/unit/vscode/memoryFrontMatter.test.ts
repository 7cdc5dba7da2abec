// A memory as an editable document: rendered as front matter + body, parsed back, and a mistake
// in the front matter named by its line and field (nothing is saved then).

import assert from 'node:assert/strict';
import { FrontMatterError, parseEditable, renderEditable } from '../../../src/vscode/memoryFrontMatter';
import type { Memory } from '../../../src/engine';

const memory = {
  key: 'decision/jobs-in-postgres',
  version: 3,
  status: 'active',
  title: 'Jobs: in Postgres',
  description: 'Rows claimed with SKIP LOCKED.',
  anchors: ['src/queue.ts#enqueue'],
  links: [],
  tags: ['queue', 'db'],
  body: '# Why\n\nOne database.\n',
} as unknown as Memory;

describe('vscode editable memory', () => {
  it('round-trips title, description, anchors, links, tags and body', () => {
    const text = renderEditable(memory);
    assert.match(text, /^---\n# decision\/jobs-in-postgres · version 3 · active\./);
    assert.deepEqual(parseEditable(text), {
      title: 'Jobs: in Postgres',
      description: 'Rows claimed with SKIP LOCKED.',
      anchors: ['src/queue.ts#enqueue'],
      links: [],
      tags: ['queue', 'db'],
      body: '# Why\n\nOne database.\n',
    });
  });

  it('names the line and the field of a mistake', () => {
    const text = renderEditable(memory);
    assert.throws(
      () => parseEditable(text.replace('tags:', 'labels:')),
      (e: Error) =>
        e instanceof FrontMatterError &&
        /line \d+: unknown field "labels" \(fields: title, description, anchors, links, tags\)/.test(e.message),
    );
    assert.throws(() => parseEditable(text.replace('title: Jobs: in Postgres', 'title:')), /title is empty/);
    assert.throws(() => parseEditable('no front matter'), /must start with its front matter/);
    assert.deepEqual(
      parseEditable(text.replace(/anchors:\n {2}- src\/queue.ts#enqueue/, 'anchors: [a.md, b.ts#x]')).anchors,
      ['a.md', 'b.ts#x'],
    );
  });
});
