// The anchor "Remember Selection as …" prefills: `path#symbol` for the symbol around the cursor.

import assert from 'node:assert/strict';
import { anchorAt, declarationAbove, type SymbolLike } from '../../../src/vscode/anchorAt';

const sym = (name: string, start: number, end: number, children: SymbolLike[] = []): SymbolLike => ({ name, range: { start: { line: start }, end: { line: end } }, children });

describe('vscode anchor at the cursor', () => {
  const symbols = [sym('JobQueue', 0, 20, [sym('enqueue', 2, 8), sym('drain', 10, 18)]), sym('helper', 22, 25)];

  it('names the innermost symbol, qualified by its container', () => {
    assert.equal(anchorAt('src/queue.ts', 4, symbols), 'src/queue.ts#JobQueue.enqueue');
    assert.equal(anchorAt('src/queue.ts', 9, symbols), 'src/queue.ts#JobQueue');
    assert.equal(anchorAt('src/queue.ts', 23, symbols), 'src/queue.ts#helper');
  });

  it('is the path alone outside any symbol', () => {
    assert.equal(anchorAt('src/queue.ts', 21, symbols), 'src/queue.ts');
    assert.equal(anchorAt('README.md', 0, []), 'README.md');
  });

  it('uses the nearest declaration above the cursor when the editor has no symbol provider', () => {
    const text = 'import x from "y";\n\nfunction parseConfig(raw) {\n  return JSON.parse(raw);\n}\n';
    assert.equal(declarationAbove(text, 3), 'parseConfig');
    assert.equal(anchorAt('src/config.js', 3, undefined, text), 'src/config.js#parseConfig');
    assert.equal(anchorAt('src/config.js', 0, undefined, text), 'src/config.js');
  });
});
