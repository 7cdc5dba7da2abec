// engine/text is the one reader of markdown fences, headings, front matter and paths: chunking,
// kind features, procedures, drift sections and the editor's anchors all read a page the same way.
// A fence closes only with its own character, at least as long (CommonMark), so `~~~` inside a
// ``` block is code to every reader; and no reader backtracks on a heading line of spaces.

import { strict as assert } from 'node:assert';
import { markdownHeadings } from '../../../../src/engine';
import { fingerprintOf } from '../../../../src/engine/drift/target';
import type { WorkspaceReader } from '../../../../src/engine/drift/types';
import { Workspace } from '../../../../src/engine/drift/workspace';
import { chunkDocument } from '../../../../src/engine/indexing/chunk';
import { procedureShape } from '../../../../src/engine/indexing/procedure';
import { FenceTracker, markdownLines, openFence } from '../../../../src/engine/text/fences';
import { frontMatter, withoutFrontMatter } from '../../../../src/engine/text/frontMatter';
import { ancestors, baseName, dirName, extension, stem } from '../../../../src/engine/text/paths';

/** A page whose ``` block holds a `~~~` line and a `# comment`: all code, until the ``` that closes it. */
const TILDES_IN_BACKTICKS = [
  '# Runbook',
  '',
  '```sh',
  '~~~',
  '# not a heading',
  '```',
  '',
  '## Steps',
  'Drain the node.',
].join('\n');

function oneFile(path: string, text: string): Workspace {
  const reader: WorkspaceReader = {
    list: () => [{ path, size: text.length, mtimeMs: 1 }],
    stat: (p) => (p === path ? { size: text.length, mtimeMs: 1 } : null),
    read: (p) => (p === path ? text : null),
    digest: () => null,
  };
  return new Workspace(reader);
}

describe('engine/text: one reading of markdown fences', () => {
  it('closes a fence only with its own character, at least as long', () => {
    const kinds = markdownLines('```\n~~~\n``\n````\nx\n').map((l) => l.fence);
    assert.deepEqual(kinds, ['open', 'code', 'code', 'close', 'text', 'text']);
    assert.equal(openFence('~~~~\n```\n~~~\n'), '~~~~');
    assert.equal(openFence('~~~\n```\n~~~\n'), null);
    const tracker = new FenceTracker();
    tracker.step('```bash title="x"');
    assert.equal(tracker.info, 'bash title="x"');
  });

  it('a ``` block holding ~~~ is code to chunking, procedures, headings and drift sections', () => {
    // Chunking: the `# not a heading` line is inside the block, so the page has two sections, not three.
    const chunks = chunkDocument('runbook', TILDES_IN_BACKTICKS).map((c) => c.heading);
    assert.deepEqual(chunks, ['Runbook', 'Runbook > Steps']);
    assert.equal(procedureShape(TILDES_IN_BACKTICKS).commands, 1);
    assert.deepEqual(
      markdownHeadings(TILDES_IN_BACKTICKS).map((h) => h.slug),
      ['runbook', 'steps'],
    );
    // Drift: the section `#runbook` runs to `## Steps`, not to the comment in the block.
    const ws = oneFile('docs/run.md', TILDES_IN_BACKTICKS);
    const whole = fingerprintOf(ws, { path: 'docs/run.md', kind: 'heading', symbol: 'not-a-heading' });
    assert.equal(whole, null, 'a # line inside code is no section');
  });

  it('reads a heading line of 200,000 spaces in one pass (the old pattern was cubic)', () => {
    const text = `# Runbook${' '.repeat(200_000)}restart\n\n## Steps${' '.repeat(200_000)}\n`;
    assert.deepEqual(
      markdownHeadings(text).map((h) => [h.level, h.text.length > 100 ? 'long' : h.text]),
      [
        [1, 'long'],
        [2, 'Steps'],
      ],
    );
    const ws = oneFile('docs/run.md', text);
    assert.ok(fingerprintOf(ws, { path: 'docs/run.md', kind: 'heading', symbol: 'steps' }));
    const spaces = `#${' '.repeat(200_000)}#\n## Steps\n`;
    assert.deepEqual(
      markdownHeadings(spaces).map((h) => h.text),
      ['Steps'],
    );
  });

  it("reads a fence opened on a list item line as the item's block, so headings after it stay headings", () => {
    // kubernetes/enhancements KEP-5710: `  - ```json` opens the fence, `    ```` (the item's width) closes it;
    // the old reader took the closer for an opener and hid every later heading (7 false "gone" anchors).
    const kep = [
      '- [Dependencies](#dependencies)',
      '',
      '- [X] Events',
      '  - ```json',
      '    {"kind": "Event"}',
      '    ```',
      '- [X] API .status',
      '',
      '### Dependencies',
      '',
      '```sh',
      'echo in a top-level fence',
      '```',
    ].join('\n');
    assert.deepEqual(
      markdownLines(kep).map((l) => l.fence),
      ['text', 'text', 'text', 'open', 'code', 'close', 'text', 'text', 'text', 'text', 'open', 'code', 'close'],
    );
    assert.deepEqual(
      markdownHeadings(kep).map((h) => h.slug),
      ['dependencies'],
    );
    const ws = oneFile('keps/5710/README.md', kep);
    assert.ok(fingerprintOf(ws, { path: 'keps/5710/README.md', kind: 'heading', symbol: 'dependencies' }));
    // A list item's fence left open ends with its item, at a line written left of the item's text.
    assert.deepEqual(
      markdownLines('1. ~~~\n   code\n## After\n').map((l) => l.fence),
      ['open', 'code', 'text', 'text'],
    );
    assert.deepEqual(
      markdownHeadings('1. ~~~\n   code\n## After\n').map((h) => h.slug),
      ['after'],
    );
    // A code span on a list item is no opener.
    assert.equal(openFence('- ```x``` is inline\n'), null);
  });

  it('reads headings as a page renders them: indented up to three spaces and in block quotes', () => {
    const headings = markdownHeadings('   ## Indented\n> ### Quoted\n    # code block\n#hashtag\n');
    assert.deepEqual(
      headings.map((h) => [h.level, h.slug]),
      [
        [2, 'indented'],
        [3, 'quoted'],
      ],
    );
  });
});

describe('engine/text: front matter and paths', () => {
  it('reads the front matter block and its title, and nothing when it is never closed', () => {
    const text = '---\ntitle: "Restart the queue"\ntags: [ops]\n---\n# Body\n';
    assert.deepEqual(frontMatter(text), { lines: 4, title: 'Restart the queue' });
    assert.equal(withoutFrontMatter(text), '# Body\n');
    assert.deepEqual(frontMatter('---\ntitle: x\n# never closed\n'), { lines: 0, title: null });
    assert.deepEqual(frontMatter('---\r\ntitle: Windows\r\n...\r\nbody'), { lines: 3, title: 'Windows' });
  });

  it('cuts workspace paths the one way', () => {
    assert.equal(baseName('docs/adr/0001-x.md'), '0001-x.md');
    assert.equal(baseName('README.md'), 'README.md');
    assert.equal(dirName('docs/adr/0001-x.md'), 'docs/adr');
    assert.equal(dirName('README.md'), '');
    assert.equal(stem('charts/app.tar.gz'), 'app');
    assert.equal(extension('docs/README.MD'), 'md');
    assert.equal(extension('.env'), '');
    assert.deepEqual(ancestors('a/b/c.md'), ['a/b', 'a']);
  });
});
