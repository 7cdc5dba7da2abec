// The anchor "Remember Selection as …" and "Remember…" prefill, valid for every kind of file:
// `path#Symbol` for code, `path#heading-slug` for Markdown, the path alone otherwise; and the
// check that flags a typed anchor that would not resolve.

import assert from 'node:assert/strict';
import {
  anchorAt,
  anchorProblem,
  markdownHeadings,
  type Definition,
  type SymbolLike,
} from '../../../src/vscode/anchorAt';

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
});
