// What a user or a new maintainer reads names no internal issue numbers ("issue 23", "#23"): the
// README, CONTRIBUTING, the changelog, docs/ and the bench and eval READMEs say what a thing does,
// not which ticket asked for it. The README stays a page a user reads (at most README_MAX_LINES;
// measurements live in docs/quality.md and docs/performance.md), and CONTRIBUTING names the test
// tiers a maintainer runs, each with how long it takes.

import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markedSection } from '../../scripts/markedSection';

const ROOT = join(__dirname, '..', '..');
const README_MAX_LINES = 350;
const ISSUE_NUMBER = /\bissues?\s+#?\d+\b|(^|[\s(])#\d{1,4}\b(?![-\w])/im;

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdown(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

describe('user-facing docs', () => {
  const files = [
    ...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/README.md', 'eval/README.md', 'eval/kinds/README.md']
      .map((f) => join(ROOT, f))
      .filter(existsSync),
    ...markdown(join(ROOT, 'docs')),
  ];

  it('recognises an issue number and leaves headings, anchors and versions alone', () => {
    for (const text of ['fixed in issue 23', 'see Issue #7', '(#31)', 'as #12 asked'])
      assert.ok(ISSUE_NUMBER.test(text), `missed: ${text}`);
    for (const text of ['## Recall', '[x](#section-2)', 'v1.2.3', '`#beta-1`', 'one issue at a time', 'colour #fff'])
      assert.ok(!ISSUE_NUMBER.test(text), `false alarm: ${text}`);
  });

  it('name no internal issue numbers', () => {
    assert.ok(files.length > 5, `found only ${files.length} docs`);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(found, [], 'say what it does instead of which issue asked for it');
  });

  it(`README.md is at most ${README_MAX_LINES} lines: what Lore is and how to use it, not measurements`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines: move detail to docs/ or CONTRIBUTING.md`);
  });

  it('CONTRIBUTING.md names the fast unit tier, the whole suite and the editor tier, each with its time', () => {
    const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const tiers = markedSection(text, 'tiers') ?? '';
    for (const command of ['npm run test:unit', 'npm test', 'npm run test:editor']) {
      const row = tiers.split('\n').find((line) => line.includes(`\`${command}\``) || line.includes(`&& ${command}\``));
      assert.ok(row, `no tier row runs ${command}`);
      assert.match(row, /\|\s*[^|]*\b(\d+(\.\d+)? (min|s)|not timed alone)[^|]*\|\s*$/, `${command}: no time`);
    }
  });
});
