// The drift engine's SymbolParser on tree-sitter (@vscode/tree-sitter-wasm: the runtime and the
// grammars built together by the VS Code team, so they always fit). Loading is asynchronous and
// happens once per process, started when a store opens; parsing is synchronous once loaded.
// Until every grammar has loaded (or failed to), finderFor answers null and drift uses its
// patterns; a grammar that fails to load leaves its language to the patterns for good.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { Logger, ParsedDeclaration, SymbolParser } from '../../engine';
import { declarationsIn, EXTENSIONS, GRAMMARS } from './declarations';

/**
 * Part of every finder id. Bump it when what a symbol's span is changes (declarations.ts), so
 * stored fingerprints are re-taken only where the file is unchanged instead of reading as drift.
 */
const SPAN_RULES = 1;

/** Where the .wasm files are: beside the bundle (dist/tree-sitter/), else in the package. */
export function wasmDirectory(): string {
  const bundled = join(__dirname, 'tree-sitter');
  if (existsSync(join(bundled, 'tree-sitter.wasm'))) return bundled;
  // Resolved at run time (from source, in tests and development), not by the bundler.
  return dirname(createRequire(__filename).resolve('@vscode/tree-sitter-wasm'));
}

function grammarOf(path: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? (EXTENSIONS[base.slice(dot + 1).toLowerCase()] ?? null) : null;
}

export class TreeSitterSymbols implements SymbolParser {
  private readonly languages = new Map<string, Language>();
  private parser: Parser | null = null;
  private loaded = false;
  /** Settles when loading has finished, whatever loaded. */
  readonly whenReady: Promise<void>;

  constructor(directory: string, logger?: Logger) {
    this.whenReady = this.load(directory, logger);
  }

  private async load(directory: string, logger?: Logger): Promise<void> {
    try {
      await initRuntime(directory);
      this.parser = new Parser();
      await Promise.all(
        Object.keys(GRAMMARS).map(async (grammar) => {
          try {
            this.languages.set(grammar, await Language.load(join(directory, `tree-sitter-${grammar}.wasm`)));
          } catch (error) {
            logger?.warn(
              `drift: no ${grammar} grammar (${(error as Error).message}); its symbols are found by patterns`,
            );
          }
        }),
      );
      logger?.info(
        `drift: symbols located by tree-sitter for ` +
          `${[...this.languages.keys()].sort().join(', ')}; by patterns ` +
          `elsewhere`,
      );
    } catch (error) {
      logger?.warn(
        `drift: the tree-sitter runtime did not load (${(error as Error).message}); symbols are found by patterns`,
      );
    } finally {
      this.loaded = true;
    }
  }

  ready(): boolean {
    return this.loaded;
  }

  finderFor(path: string): string | null {
    if (!this.loaded || !this.parser) return null;
    const grammar = grammarOf(path);
    return grammar && this.languages.has(grammar) ? `tree-sitter:${grammar}/${SPAN_RULES}` : null;
  }

  declarations(path: string, text: string): ParsedDeclaration[] {
    const grammar = grammarOf(path);
    const language = grammar ? this.languages.get(grammar) : undefined;
    if (!this.parser || !grammar || !language) return [];
    this.parser.setLanguage(language);
    const tree = this.parser.parse(text);
    if (!tree) return [];
    try {
      return declarationsIn(tree.rootNode, GRAMMARS[grammar]);
    } finally {
      tree.delete();
    }
  }
}

// The runtime is one WebAssembly instance per process: initialising it again would strand the
// grammars loaded into the first.
let runtime: Promise<void> | undefined;

function initRuntime(directory: string): Promise<void> {
  runtime ??= Parser.init({ locateFile: (file: string) => join(directory, file) });
  return runtime;
}

let shared: TreeSitterSymbols | undefined;

/** The process's parser, loading from the first call on (the runtime is one per process). */
export function treeSitterSymbols(logger?: Logger): TreeSitterSymbols {
  shared ??= new TreeSitterSymbols(wasmDirectory(), logger);
  return shared;
}
