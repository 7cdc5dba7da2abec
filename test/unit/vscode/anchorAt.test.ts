// The anchor "Remember Selection as …" and "Remember…" prefill, valid for every kind of file:
// `path#Symbol` for code, `path#heading-slug` for Markdown, the path alone otherwise; and the
// check that flags a typed anchor that would not resolve.

import assert from 'node:assert/strict';
import {
  anchorAt,
  anchorLengthProblem,
  anchorProblem,
  selectedLines,
  type Definition,
  type SymbolLike,
} from '../../../src/vscode/anchorAt';
import { markdownHeadings } from '../../../src/engine';

const sym = (name: string, start: number, end: number, children: SymbolLike[] = []): SymbolLike => ({
  name,
  range: { start: { line: start }, end: { line: end } },
  children,
});
const def = (name: string, start: number, end: number): Definition => ({ name, start, end });

describe('vscode anchor at the cursor', () => {
  const symbols = [sym('JobQueue', 0, 20, [sym('enqueue', 2, 8), sym('drain', 10, 18)]), sym('helper', 22, 25)];
  const definitions = [
    def('JobQueue', 0, 20),
    def('JobQueue.enqueue', 2, 8),
    def('JobQueue.drain', 10, 18),
    def('helper', 22, 25),
  ];

  it('names the innermost symbol from the provider, qualified by its container, when drift can find it', () => {
    assert.equal(anchorAt('src/queue.ts', 4, '', definitions, symbols), 'src/queue.ts#JobQueue.enqueue');
    assert.equal(anchorAt('src/queue.ts', 9, '', definitions, symbols), 'src/queue.ts#JobQueue');
    assert.equal(anchorAt('src/queue.ts', 23, '', definitions, symbols), 'src/queue.ts#helper');
  });

  it('anchors a whole-line, multi-line or triple-click selection inside one symbol to that symbol', () => {
    // Shift+↓ from the start of line 3, and a triple-click on line 3: both end at column 0 of line 4.
    const shiftDown = selectedLines({ start: { line: 3, character: 0 }, end: { line: 4, character: 0 } });
    assert.deepEqual(shiftDown, { start: 3, end: 3 });
    // A triple-click on the last line of enqueue (8) ends at column 0 of line 9, outside it.
    const lastLine = selectedLines({ start: { line: 8, character: 0 }, end: { line: 9, character: 0 } });
    assert.equal(anchorAt('src/queue.ts', lastLine, '', definitions, symbols), 'src/queue.ts#JobQueue.enqueue');
    const lines = selectedLines({ start: { line: 2, character: 0 }, end: { line: 9, character: 0 } });
    assert.equal(anchorAt('src/queue.ts', lines, '', definitions, symbols), 'src/queue.ts#JobQueue.enqueue');
    assert.equal(anchorAt('src/queue.ts', lines, '', definitions), 'src/queue.ts#JobQueue.enqueue');
  });

  it('anchors a selection spanning symbols to the innermost symbol holding it, or the file', () => {
    const spanning = selectedLines({ start: { line: 4, character: 2 }, end: { line: 12, character: 5 } });
    assert.equal(anchorAt('src/queue.ts', spanning, '', definitions, symbols), 'src/queue.ts#JobQueue');
    assert.equal(anchorAt('src/queue.ts', spanning, '', definitions), 'src/queue.ts#JobQueue');
    const acrossTop = selectedLines({ start: { line: 18, character: 0 }, end: { line: 23, character: 3 } });
    assert.equal(anchorAt('src/queue.ts', acrossTop, '', definitions, symbols), 'src/queue.ts');
    const text = '# Top\n\n## A\n\na\n\n### A1\n\nx\n\n## B\n\nb\n';
    const inA = { start: 4, end: 8 };
    assert.equal(anchorAt('docs/x.md', inA, text, []), 'docs/x.md#a');
    assert.equal(anchorAt('docs/x.md', { start: 4, end: 12 }, text, []), 'docs/x.md#top');
    assert.equal(anchorAt('docs/x.md', { start: 0, end: 12 }, text, []), 'docs/x.md#top');
    assert.equal(anchorAt('docs/nohead.md', { start: 0, end: 2 }, 'a\n# H\nb\n', []), 'docs/nohead.md');
  });

  it('falls back to drift’s own definitions when the provider has none, or names one drift cannot find', () => {
    assert.equal(anchorAt('src/queue.ts', 4, '', definitions), 'src/queue.ts#JobQueue.enqueue');
    assert.equal(
      anchorAt('src/queue.ts', 4, '', definitions, [sym('describe() callback', 0, 30)]),
      'src/queue.ts#JobQueue.enqueue',
    );
  });

  it('is the path alone outside any symbol, and for files that define none', () => {
    assert.equal(anchorAt('src/queue.ts', 21, '', definitions, symbols), 'src/queue.ts');
    assert.equal(anchorAt('LICENSE.txt', 0, 'MIT', [], [sym('MIT', 0, 0)]), 'LICENSE.txt');
  });

  it('uses the heading slug of the section the cursor is in for Markdown, never the heading text', () => {
    const text =
      '# Upgrading EKS clusters\n\nIntro.\n\n## Roll back, if needed!\n\n```sh\n# not a heading\n```\nstep\n';
    const providerNames = [sym('# Upgrading EKS clusters', 0, 10, [sym('## Roll back, if needed!', 4, 10)])];
    assert.equal(anchorAt('docs/eks.md', 2, text, [], providerNames), 'docs/eks.md#upgrading-eks-clusters');
    assert.equal(anchorAt('docs/eks.md', 9, text, [], providerNames), 'docs/eks.md#roll-back-if-needed');
    assert.deepEqual(
      markdownHeadings(text).map((h) => h.slug),
      ['upgrading-eks-clusters', 'roll-back-if-needed'],
    );
    assert.equal(anchorAt('docs/empty.md', 0, 'no headings', []), 'docs/empty.md');
  });
});

describe('vscode anchor check before a save', () => {
  const files: Record<string, string> = {
    'src/queue.ts': 'export function enqueue() {}\n',
    'docs/eks.md': '# Upgrades\n\n## Procedure\n',
  };
  const read = async (path: string) => files[path];
  const definitionsOf = async (path: string) => (path === 'src/queue.ts' ? [def('enqueue', 0, 0)] : []);
  const problem = (anchor: string) => anchorProblem(anchor, read, definitionsOf);

  it('accepts anchors that resolve, and URLs', async () => {
    for (const anchor of [
      'src/queue.ts',
      'src/queue.ts#enqueue',
      'docs/eks.md#procedure',
      'src/queue.ts#L1-L2',
      'https://example.com/x',
    ]) {
      assert.equal(await problem(anchor), undefined, anchor);
    }
  });

  it('says in one sentence why an anchor would not resolve', async () => {
    assert.equal(await problem('src/missing.ts#x'), 'src/missing.ts is not a file in this folder');
    assert.equal(await problem('src/queue.ts#submitJob'), 'src/queue.ts defines no submitJob');
    assert.equal(
      await problem('docs/eks.md#Procedure steps'),
      'docs/eks.md has no heading #Procedure steps (it has #upgrades, #procedure)',
    );
    assert.match((await problem('../outside.ts'))!, /relative to the workspace folder/);
  });

  it('refuses an anchor over the engine’s limit as it is typed, saying the limit (issue 25: 138 characters)', () => {
    const long = `src/${'nested/'.repeat(17)}queue.ts#claims`;
    assert.equal(long.length, 138);
    assert.equal(
      anchorLengthProblem(['src/queue.ts', long]),
      `${long.slice(0, 40)}… is 138 characters; an anchor holds at most 120`,
    );
    assert.equal(anchorLengthProblem(['src/queue.ts#enqueue']), undefined);
  });
});
