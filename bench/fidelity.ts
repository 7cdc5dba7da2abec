// `npx tsx bench/fidelity.ts [--size N] [--queries N]`
//
// Checks the bench's fast bulk load (FTS triggers lifted, index rebuilt: BenchStore.populate)
// against the production path (every save keeping the index up to date): the same memories
// loaded both ways must give an index that passes FTS5's integrity-check and the same recall
// answers, and recall should cost about the same on both. Exits non-zero if answers differ.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchStore, distribution, makeQueries, median } from './memory';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const size = arg('--size', 5000);
const queryCount = arg('--queries', 100);
const seed = 20260101;

function build(liftFts: boolean): { store: BenchStore; seconds: number } {
  const store = new BenchStore(mkdtempSync(join(tmpdir(), 'lore-fidelity-')), seed);
  const { seconds } = store.populate(size, { liftFts });
  store.db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('integrity-check')");
  return { store, seconds };
}

async function main(): Promise<void> {
  const queries = makeQueries(seed + 1, queryCount);
  const incremental = build(false);
  const lifted = build(true);
  let differences = 0;
  try {
    for (const query of queries) {
      const a = (await incremental.store.engine.recall({ query })).results.map((r) => `${r.key} ${r.score.lexical}`);
      const b = (await lifted.store.engine.recall({ query })).results.map((r) => `${r.key} ${r.score.lexical}`);
      if (a.join('\n') !== b.join('\n')) {
        differences++;
        if (differences <= 3)
          console.error(
            `"${query}" differs:\n  incremental: ` +
              `${a.slice(0, 3).join(' | ')}\n  lifted:      ` +
              `${b.slice(0, 3).join(' | ')}`,
          );
      }
    }
    const segments = (s: BenchStore) => s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_fts_data')!.n;
    // Alternate the two stores' runs so background load hits both alike.
    const times: Record<'incremental' | 'lifted', number[]> = { incremental: [], lifted: [] };
    for (let rep = 0; rep < 5; rep++) {
      times.incremental.push(distribution((await incremental.store.timeRecall(queries)).latencies).p50);
      times.lifted.push(distribution((await lifted.store.timeRecall(queries)).latencies).p50);
    }
    console.log(`${size} memories, ${queries.length} queries`);
    console.log(
      `incremental load: ${incremental.seconds.toFixed(1)} s, ` +
        `${segments(incremental.store)} FTS data rows, recall p50 ` +
        `${median(times.incremental).toFixed(2)} ms`,
    );
    console.log(
      `lifted load:      ${lifted.seconds.toFixed(1)} s, ` +
        `${segments(lifted.store)} FTS data rows, recall p50 ` +
        `${median(times.lifted).toFixed(2)} ms`,
    );
    console.log(differences === 0 ? 'recall answers identical' : `${differences} queries answered differently`);
  } finally {
    incremental.store.close();
    lifted.store.close();
  }
  process.exitCode = differences === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
