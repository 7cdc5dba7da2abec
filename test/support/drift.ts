// Drift test helpers: a real workspace folder written file by file, and a real store whose engine
// reads that folder through the same disk reader the CLI and MCP server use.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DRIFT_STATES, Engine, type DriftFinding, type DriftState, type SymbolParser } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { DiskWorkspaceReader } from '../../src/host/workspaceReader';
import { TestClock, tempDir } from './store';

export const ALL_STATES: DriftState[] = [...DRIFT_STATES];

export interface DriftSpace {
  root: string;
  engine: Engine;
  clock: TestClock;
  write(path: string, text: string): void;
  move(from: string, to: string): void;
  remove(path: string): void;
  /** Every stored reference, whatever its state. */
  all(): DriftFinding[];
  /** The stored references a document makes with this raw text. */
  refs(source: string, raw: string): DriftFinding[];
  /** The stored rows of a source's reference (the finder is not part of a finding). */
  rows(
    source: string,
    raw: string,
  ): Array<{
    state: DriftState;
    finder: string | null;
    fingerprint: string | null;
    detail: string;
    symbol_kind: string | null;
  }>;
  /** Rewrites stored rows as an older Lore would have left them. */
  sql(statement: string, params: Array<string | number | null>): void;
  /** Opens the engine again on the same store; `parser` replaces the symbol parser (none: patterns only). */
  reopen(parser?: SymbolParser): void;
  cleanup(): void;
}

export function driftSpace(
  files: Record<string, string> = {},
  repositories: string[] = [],
  parser?: SymbolParser,
): DriftSpace {
  const dir = tempDir('lore-drift-');
  const root = join(dir, 'repo');
  mkdirSync(root);
  const clock = new TestClock();
  let db = new WasmSqlDatabase(join(dir, 'lore.db'));
  const open = () => new Engine({ db, clock, files: new DiskWorkspaceReader(root, parser), repositories });
  const space: DriftSpace = {
    root,
    engine: open(),
    clock,
    write(path, text) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    move(from, to) {
      mkdirSync(dirname(join(root, to)), { recursive: true });
      renameSync(join(root, from), join(root, to));
    },
    remove(path) {
      rmSync(join(root, path), { recursive: true, force: true });
    },
    all: () => space.engine.driftFindings({ states: ALL_STATES }),
    refs: (source, raw) =>
      space.all().filter((f) => (f.source.path ?? f.source.key) === source && f.reference.raw === raw),
    rows: (source, raw) =>
      db.all(
        'SELECT state, finder, fingerprint, detail, symbol_kind FROM drift_refs ' +
          'WHERE source = ? AND raw = ? ORDER BY id',
        [source, raw],
      ),
    sql: (statement, params) => void db.run(statement, params),
    reopen(next?: SymbolParser) {
      parser = next;
      db.close();
      db = new WasmSqlDatabase(join(dir, 'lore.db'));
      space.engine = open();
    },
    cleanup() {
      try {
        db.close();
      } catch {
        // closed already
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (const [path, text] of Object.entries(files)) space.write(path, text);
  return space;
}

/** Runs `work` in a fresh drift space and removes it afterwards, whatever `work` does. */
export function withDriftSpace(
  files: Record<string, string>,
  work: (space: DriftSpace) => void,
  repositories: string[] = [],
): void {
  const space = driftSpace(files, repositories);
  try {
    work(space);
  } finally {
    space.cleanup();
  }
}
