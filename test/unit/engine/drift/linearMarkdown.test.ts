// Hostile markdown read in linear time, shown by what the parsers find on inputs the old patterns
// took minutes over (a line of `[`: 110 s at 256 KiB; 60,000 code spans on one line: 38 s; a
// front-matter title of spaces; a page of reference definitions), each ending in a real reference
// that must still be found. No clock is read: on the old code these runs outlast mocha's 60 s
// timeout; the speed itself is held in `npm run bench` (its adversarial section).

import assert from 'node:assert/strict';
import { extractFromMarkdown } from '../../../../src/engine/drift/extract';
import { documentTitle } from '../../../../src/engine/indexing/chunk';
import { procedureShape } from '../../../../src/engine/indexing/procedure';

const KiB = 1024;
const paths = (text: string) =>
  extractFromMarkdown(text, 'docs/hostile.md', 'guide').map((r) => r.path ?? r.fragment ?? r.raw);

describe('hostile markdown is read in one pass', () => {
  it('a 1 MiB line of `[` still yields the link at its end', () => {
    assert.deepEqual(paths(`${'['.repeat(1024 * KiB)}[the guide](docs/guide.md)`), ['docs/guide.md']);
  });

  it('a line of `![`, of escaped `\\[` and of half links `[a](` each yields only the whole link after it', () => {
    for (const unit of ['![', '\\[', '[a](', '<http://'])
      assert.deepEqual(paths(`${unit.repeat((256 * KiB) / unit.length)} [ok](docs/ok.md)`), ['docs/ok.md'], unit);
  });

  it('100,000 code spans on one line are each read', () => {
    const line = Array.from({ length: 100_000 }, (_, i) => `\`src/f${i}.ts\``).join(' ');
    const found = extractFromMarkdown(line, 'docs/hostile.md', 'guide');
    assert.equal(found.filter((r) => r.form === 'path').length, 100_000);
    assert.equal(found[99_999].path, 'src/f99999.ts');
  });

  it('a run of backticks opens no span from inside itself, and a span after it is read', () => {
    assert.deepEqual(paths(`${'`'.repeat(512 * KiB)} then \`src/app.ts\``), ['src/app.ts']);
  });

  it('a page of 50,000 reference definitions keeps only the one a link uses', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `[s${i}]: #s${i}`);
    const refs = extractFromMarkdown(
      `# T\n\nSee [the last][s49999].\n\n${lines.join('\n')}\n`,
      'docs/hostile.md',
      'guide',
    );
    assert.deepEqual(
      refs.filter((r) => r.form === 'heading').map((r) => r.fragment),
      ['s49999'],
    );
  });

  it('prose words of 512 KiB of `)` or `.` are trimmed without a retry at every offset', () => {
    assert.deepEqual(paths(`see ${')'.repeat(512 * KiB)} and docs/setup.md)`), ['docs/setup.md']);
    assert.deepEqual(paths(`\`\`\`\nrun ${'.'.repeat(512 * KiB)}x ./scripts/go.sh\n\`\`\``), ['./scripts/go.sh']);
  });

  it('keeps what the link pattern read before: nested images, bracketed route files, link text with code', () => {
    assert.deepEqual(paths('[![badge](img/b.svg)](docs/d.md)'), ['img/b.svg']);
    assert.deepEqual(paths('the page [id](pages/[id].tsx)'), ['pages/[id].tsx']);
    assert.deepEqual(paths('see [the `run` step](docs/run.md)'), ['docs/run.md']);
    assert.deepEqual(paths('an escaped \\[not a link](x.md) and [a link](y.md)'), ['y.md']);
  });

  it('a front-matter title of 512 KiB of spaces is read, trimmed, as the title', () => {
    const text = `---\ntitle: "Deploy${' '.repeat(512 * KiB)}now"  \n---\n# Other\n`;
    assert.equal(documentTitle('docs/x.md', text), `Deploy${' '.repeat(194)}`);
    assert.equal(documentTitle('docs/y.md', '---\ntitle: "Restart the API"\n---\nbody'), 'Restart the API');
    assert.equal(procedureShape(`---\ntitle: Restart the API\n---\n${'\n'.repeat(10)}`).steps, 1);
  });
});
