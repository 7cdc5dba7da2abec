// Test helpers: a fresh real SQLite store in a temp folder, a controllable clock, a test actor.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type Actor, type Clock, type RememberInput } from '../../src/engine';
import { WasmSqlDatabase } from '../../src/host/sqlite';

export class TestClock implements Clock {
  constructor(private current = new Date('2026-01-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
  advanceDays(days: number): void {
    this.current = new Date(this.current.getTime() + days * 86_400_000);
  }
}

export const person: Actor = { door: 'test', name: 'alice' };
export const confirmedPerson: Actor = { door: 'test', name: 'alice', human: true };
export const agent: Actor = { door: 'mcp', name: 'copilot' };

export interface TestStore {
  engine: Engine;
  db: WasmSqlDatabase;
  clock: TestClock;
  dir: string;
  path: string;
  reopen(): TestStore;
  cleanup(): void;
}

/** Every folder tempDir() made in this process: gone when the test run exits, whatever a test did. */
const madeHere: string[] = [];
process.once('exit', () => {
  for (const dir of madeHere) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'lore-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeHere.push(dir);
  return dir;
}

export function openTestStore(dir = tempDir(), clock = new TestClock()): TestStore {
  const path = join(dir, 'lore.db');
  const db = new WasmSqlDatabase(path);
  const engine = new Engine({ db, clock });
  const store: TestStore = {
    engine,
    db,
    clock,
    dir,
    path,
    reopen: () => {
      db.close();
      return openTestStore(dir, clock);
    },
    cleanup: () => {
      if (db) {
        try {
          db.close();
        } catch {
          // already closed by a test
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return store;
}

export function memory(overrides: Partial<RememberInput> = {}): RememberInput {
  return {
    type: 'decision',
    title: 'Use Postgres for the job queue',
    description: 'Background jobs go through Postgres with SKIP LOCKED rather than a separate broker',
    body: 'We already run Postgres; one fewer system to operate.',
    provenance: { source: 'user', client: 'test' },
    ...overrides,
  };
}
