// One client process of the engine-level many-writers test: `node --import tsx
// test/support/engineWriter.ts '<json options>'`. It runs Lore's engine on the shared PostgreSQL
// store (its own key, its own local SQLite file, as another machine would) and saves `count`
// versions of a few shared records, each with the version it read as expected_version. One JSON
// line per outcome on stdout: an acknowledged save, or a refusal with the winner it names.

import { rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, LoreError } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';
import { parsePostgresSettings } from '../../src/host/store/postgres/connectionSettings';
import { openPostgresMemoryStore } from '../../src/host/store/postgres/postgresMemoryStore';
import { tempDir } from './store';
import { readyThenWait } from './writerProcess';

export interface EngineWriterOptions {
  url: string;
  remote: string;
  writer: number;
  count: number;
  keys: number;
}

export type EngineWriterLine =
  | { type: 'ack'; writer: number; key: string; version: number; body: string }
  /** The store could not be reached: a read (retried by the writer) or a save that was not acknowledged. */
  | { type: 'unavailable'; writer: number; op: 'get' | 'remember'; message: string }
  | {
      type: 'refused';
      writer: number;
      key: string;
      expected: number;
      winner: number | null;
      winnerBody: string | null;
    };

export const contendedTitle = (k: number) => `Contended record ${k}`;

/** Written at once (the engine's thread blocks between saves, so a buffered write would wait for the end). */
function emit(line: EngineWriterLine): void {
  writeSync(1, `${JSON.stringify(line)}\n`);
}

function unavailable(error: unknown): error is LoreError {
  return error instanceof LoreError && error.code === 'STORE_UNAVAILABLE';
}

/** How long a read keeps being retried while the store is away: a writer never waits for ever. */
const READ_RETRY_MS = 60_000;

/**
 * The key's current version (0 before its first save). A read while the server is away fails with
 * the store named; this writer, as any caller may, reads again a moment later.
 */
function readVersion(engine: Engine, key: string, writer: number): number {
  const deadline = Date.now() + READ_RETRY_MS;
  for (;;) {
    try {
      return engine.get(key).memory.version;
    } catch (error) {
      if (error instanceof LoreError && error.code === 'NOT_FOUND') return 0;
      if (!unavailable(error) || Date.now() > deadline) throw error;
      emit({ type: 'unavailable', writer, op: 'get', message: error.message });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

function main(): void {
  const options = JSON.parse(process.argv[2]) as EngineWriterOptions;
  const dir = tempDir('lore-writer-');
  const shared = openPostgresMemoryStore(parsePostgresSettings(options.url), options.remote, 'test');
  const db = new WasmSqlDatabase(join(dir, 'lore.db'));
  const engine = new Engine({ db, memoryStore: shared });
  readyThenWait();
  const actor = { door: 'test' as const, name: `writer-${options.writer}` };
  // Deterministic spread of keys per writer: a failure replays the same way.
  let state = options.writer * 7919 + 17;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  try {
    for (let i = 0; i < options.count; i++) {
      const title = contendedTitle(next() % options.keys);
      const key = `decision/${title.toLowerCase().replace(/ /g, '-')}`;
      const expected = readVersion(engine, key, options.writer);
      const body = `writer ${options.writer} save ${i}`;
      let result: ReturnType<Engine['remember']>;
      try {
        result = engine.remember(actor, {
          type: 'decision',
          title,
          description: 'A record every writer saves',
          body,
          expected_version: expected,
          provenance: { source: 'user', client: 'test' },
        });
      } catch (error) {
        if (!unavailable(error)) throw error;
        emit({ type: 'unavailable', writer: options.writer, op: 'remember', message: error.message });
        continue;
      }
      const line: EngineWriterLine = result.saved
        ? { type: 'ack', writer: options.writer, key, version: result.version, body }
        : {
            type: 'refused',
            writer: options.writer,
            key,
            expected,
            winner: result.conflict.current_version,
            winnerBody: result.conflict.current?.body ?? null,
          };
      emit(line);
    }
  } finally {
    shared.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
