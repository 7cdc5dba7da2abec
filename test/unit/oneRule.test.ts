// One rule, one place: the engine spells these out once. A second copy is a test failure, not a
// review comment — a status write that skips signing would be refused on the next read.

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// A rule's home: one file, or the SQLite engine's file and the PostgreSQL adapter's (the two sides
// of the memory store port, record/memoryStore.ts), which must write the rule the same way.
const RULES: Array<[RegExp, string | string[], string]> = [
  [/['"]active['"],\s*['"]deprecated['"],\s*['"]disputed['"]/, 'engine/model/types.ts', 'the list of live statuses'],
  [
    /UPDATE memories SET[^'"`]*\bstatus\s*=/,
    // PostgreSQL writes a status only together with the seal record/state.ts made over it.
    'host/store/postgres/memoryQueries.ts',
    'a status written by SQL (record/state.ts writeStatus signs every change)',
  ],
  [
    /UPDATE memories SET is_current = 0/,
    ['engine/record/rows.ts', 'host/store/postgres/records.ts'],
    'archiving the current version',
  ],
  [/provenance: \{ source: p\.source/, '', 'a hand-written rebuild of a record as remember input'],
];

describe('one rule, one place', () => {
  const files = sourceFiles(SRC).map((path) => ({ name: relative(SRC, path), text: readFileSync(path, 'utf8') }));
  for (const [pattern, home, what] of RULES) {
    const homes = typeof home === 'string' ? (home ? [home] : []) : home;
    it(`${what} is written ${homes.length ? `only in ${homes.join(' and ')}` : 'nowhere'}`, () => {
      const where = files.filter((f) => pattern.test(f.text)).map((f) => f.name);
      assert.deepEqual(where.sort(), [...homes].sort());
    });
  }
});
