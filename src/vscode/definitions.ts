// What drift locates in a file, for the editor's anchors (anchorAt.ts): tree-sitter's
// declarations where it has a grammar — the process's one parser, the one the store's drift
// check uses — then drift's patterns, so a proposed anchor is one a drift check finds again.

import { findDefinitions, type Logger } from '../engine';
import { treeSitterSymbols } from '../host/symbols/treeSitter';
import type { Definition } from './anchorAt';

export async function definitionsOf(path: string, text: string, logger?: Logger): Promise<Definition[]> {
  const parser = treeSitterSymbols(logger);
  await parser.whenReady;
  const parsed = parser.finderFor(path) ? parser.declarations(path, text) : [];
  return [...parsed, ...findDefinitions(path, text)].map(({ name, start, end }) => ({ name, start, end }));
}
