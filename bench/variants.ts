// `npx tsx bench/variants.ts [--sizes 10000,50000] [--queries N] [--reps N]`
//
// Where recall's and save's time goes, and what alternatives to the current SQL would cost, on
// the bench's stores. Not part of `npm run bench`: it backs the proposals in the bench notes.
//
// Recall candidates (the statement recall runs, 50 rows):
//   fts-only    the floor: top-50 rowids by bm25 from FTS5 alone, no rows (not an answer)
//   current     FTS5 MATCH joined to memories, filters, ORDER BY bm25 LIMIT 50 (as in recall.ts)
//   two-phase   top-k rowids by bm25 from FTS5 alone, then the memories rows of just those,
//               filtered; k grows until 50 survive or the matches run out (same answer)
//   fts-rank    two-phase with FTS5's own rank sorting (rank MATCH 'bm25(…)', ORDER BY rank)
//   and-first   all query terms required; the OR query only when that finds fewer than 10
//               (recall's default limit). A different answer: its top-10 overlap is reported
//   2ph+and     and-first, each step two-phase
//   big-cache   current, with a 64 MiB page cache instead of SQLite's 2 MiB default
// Save's dead-end probe (findResemblingDeadEnds, run on every non-dead-end save):
//   probe       as in deadEnds.ts: FTS5 MATCH over the new record's words, joined, type filter
//   probe-fts   a second FTS5 table holding dead ends only
//   commit      a one-row write transaction: the fsync floor under every save
// (Restricting the probe's FTS rowids to dead ends with `rowid IN (SELECT id …)` is far slower:
// SQLite then runs the MATCH once per dead end.)
// Variants run interleaved, query by query, so background load hits them alike.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ftsQuery, terms } from '../src/engine/text/words';
import { Corpus } from './corpus';
import { BenchStore, RECALL_FETCH, RECALL_SQL, distribution, makeQueries, median } from './memory';

const W = '4.0, 2.0, 1.0, 2.0';
// The unary + keeps the planner off memories_current: otherwise it walks every current row of the
// index (is_current = 1 AND status IN …) to find 50 ids, ~4× slower at 10k and linear in the store.
const ROWS_BY_ID =
  `SELECT m.* FROM memories m WHERE m.id IN (SELECT value FROM ` +
  `json_each(?)) AND +m.is_current = 1 AND +m.status IN ('active', ` +
  `'deprecated', 'disputed') AND m.valid_from <= ? AND ` +
  `(m.valid_until IS NULL OR m.valid_until > ?)`;
const TOP_IDS =
  `SELECT rowid AS id, bm25(memory_fts, ${W}) AS bm FROM memory_fts ` + `WHERE memory_fts MATCH ? ORDER BY bm LIMIT ?`;
const TOP_IDS_RANK =
  `SELECT rowid AS id, rank AS bm FROM memory_fts WHERE memory_fts ` +
  `MATCH ? AND rank MATCH 'bm25(${W})' ORDER BY rank LIMIT ?`;
const PROBE = `SELECT m.* FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid
  WHERE memory_fts MATCH ? AND m.is_current = 1 AND m.type = 'dead_end'
    AND m.status IN ('active', 'deprecated', 'disputed')
  ORDER BY bm25(memory_fts, ${W}) LIMIT 20`;
const PROBE_FTS = `SELECT m.* FROM dead_end_fts JOIN memories m ON m.id = dead_end_fts.rowid
  WHERE dead_end_fts MATCH ? AND m.is_current = 1 AND m.type = 'dead_end'
    AND m.status IN ('active', 'deprecated', 'disputed')
  ORDER BY bm25(dead_end_fts, ${W}) LIMIT 20`;

type Row = { id: number; bm?: number; key: string };

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function time<T>(work: () => T): { ms: number; value: T } {
  const start = process.hrtime.bigint();
  const value = work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** k starts at the rows wanted: in a store without archived or retired records nothing is filtered out. */
function twoPhase(store: BenchStore, topSql: string, match: string, now: string): Row[] {
  for (let k = RECALL_FETCH; ; k *= 4) {
    const top = store.db.all<{ id: number; bm: number }>(topSql, [match, k]);
    const bm = new Map(top.map((t) => [t.id, t.bm]));
    const rows = store.db
      .all<Row>(ROWS_BY_ID, [JSON.stringify(top.map((t) => t.id)), now, now])
      .map((r) => ({ ...r, bm: bm.get(r.id)! }))
      .sort((a, b) => a.bm - b.bm || a.id - b.id);
    if (rows.length >= RECALL_FETCH || top.length < k) return rows.slice(0, RECALL_FETCH);
  }
}

/** Same candidates, allowing ties in bm25 to come in any order. */
function sameAnswer(a: Row[], b: Row[]): boolean {
  const norm = (rows: Row[]) =>
    rows
      .map((r) => `${r.bm!.toFixed(9)} ${r.id}`)
      .sort()
      .join(',');
  return a.length === b.length && norm(a) === norm(b);
}

function top10Overlap(a: Row[], b: Row[]): number {
  const keys = new Set(a.slice(0, 10).map((r) => r.id));
  const hits = b.slice(0, 10).filter((r) => keys.has(r.id)).length;
  return Math.min(10, a.length) === 0 ? 1 : hits / Math.min(10, a.length);
}

const sizes = arg('--sizes', '10000,50000').split(',').map(Number);
const queryCount = Number(arg('--queries', '100'));
const reps = Number(arg('--reps', '3'));
const seed = 20260101;
const queries = makeQueries(seed + 1, queryCount);
const probeCorpus = new Corpus(seed + 2);
const probes = Array.from({ length: 50 }, (_, i) => probeCorpus.memory(10_000_000 + i)).map((m) =>
  ftsQuery(`${m.title} ${m.description}`),
);

const store = new BenchStore(mkdtempSync(join(tmpdir(), 'lore-variants-')), seed);
try {
  for (const size of sizes) {
    store.populate(size);
    const now = new Date().toISOString();
    const currentSql = (match: string) => store.db.all<Row>(RECALL_SQL, [match, now, now, RECALL_FETCH]);
    const andMatch = (q: string) =>
      terms(q)
        .map((t) => `"${t}"`)
        .join(' AND ');
    let fallbacks = 0;
    const variants: Record<string, (q: string) => Row[]> = {
      'fts-only': (q) => store.db.all<Row>(TOP_IDS, [ftsQuery(q), RECALL_FETCH]),
      current: (q) => currentSql(ftsQuery(q)),
      'two-phase': (q) => twoPhase(store, TOP_IDS, ftsQuery(q), now),
      'fts-rank': (q) => twoPhase(store, TOP_IDS_RANK, ftsQuery(q), now),
      'and-first': (q) => {
        const rows = currentSql(andMatch(q));
        if (rows.length >= 10) return rows;
        fallbacks++;
        return currentSql(ftsQuery(q));
      },
      '2ph+and': (q) => {
        const rows = twoPhase(store, TOP_IDS, andMatch(q), now);
        return rows.length >= 10 ? rows : twoPhase(store, TOP_IDS, ftsQuery(q), now);
      },
    };
    const reference = new Map(queries.map((q) => [q, variants.current(q)]));
    const lines: string[] = [];
    /** Runs every variant on every query, interleaved; the cache variants flip cache_size around their runs. */
    const runAll = (entries: Array<[string, (q: string) => Row[], number]>) => {
      const samples = new Map(entries.map(([name]) => [name, [] as number[][]]));
      const same = new Map(entries.map(([name]) => [name, 0]));
      const overlap = new Map(entries.map(([name]) => [name, 0]));
      for (let rep = -1; rep < reps; rep++) {
        for (const [name] of entries) samples.get(name)!.push([]);
        for (const q of queries) {
          for (const [name, run, cachePages] of entries) {
            store.db.exec(`PRAGMA cache_size = ${cachePages}`);
            const { ms, value } = time(() => run(q));
            if (rep < 0) continue; // warm-up pass
            samples.get(name)![rep + 1].push(ms);
            if (rep === 0) {
              if (sameAnswer(value, reference.get(q)!)) same.set(name, same.get(name)! + 1);
              overlap.set(name, overlap.get(name)! + top10Overlap(reference.get(q)!, value));
            }
          }
        }
      }
      store.db.exec('PRAGMA cache_size = -2000');
      for (const [name] of entries) {
        const runs = samples.get(name)!.slice(1).map(distribution);
        const p50 = median(runs.map((r) => r.p50))
          .toFixed(2)
          .padStart(7);
        const p95 = median(runs.map((r) => r.p95))
          .toFixed(2)
          .padStart(7);
        const overlapPct = ((overlap.get(name)! / queries.length) * 100).toFixed(0);
        lines.push(
          `${name.padEnd(10)} p50 ${p50} ms  p95 ${p95} ms  same answer ` +
            `${same.get(name)}/${queries.length}  top-10 overlap ` +
            `${overlapPct}%`,
        );
      }
    };
    runAll([
      ...Object.entries(variants).map(([name, run]): [string, (q: string) => Row[], number] => [name, run, -2000]),
      ['big-cache', variants.current, -65536],
    ]);
    lines.push(`and-first fell back to OR for ${Math.round(fallbacks / (reps + 1))}/${queries.length} queries`);

    const timeProbe = (sql: string) => {
      for (const p of probes.slice(0, 5)) store.db.all(sql, [p]);
      const runs = Array.from(
        { length: reps },
        () => distribution(probes.map((p) => time(() => store.db.all(sql, [p])).ms)).p50,
      );
      return median(runs);
    };
    store.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS dead_end_fts USING ` +
        `fts5(title, description, body, tags, content = 'memories', ` +
        `content_rowid = 'id', tokenize = 'porter unicode61 ` +
        `remove_diacritics 2')`,
    );
    store.db.exec("INSERT INTO dead_end_fts (dead_end_fts) VALUES ('delete-all')");
    store.db.exec(
      'INSERT INTO dead_end_fts (rowid, title, description, body, tags) ' +
        'SELECT id, title, description, body, tags FROM memories WHERE ' +
        "type = 'dead_end' AND is_current = 1",
    );
    const probeMatches = median(
      probes.map(
        (p) => store.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH ?', [p])!.n,
      ),
    );
    const commit = median(
      Array.from(
        { length: 20 },
        () =>
          time(() =>
            store.db.transaction(() =>
              store.db.run(
                "INSERT INTO meta (name, value) VALUES ('bench', ?) ON CONFLICT " +
                  '(name) DO UPDATE SET value = excluded.value',
                [String(Math.random())],
              ),
            ),
          ).ms,
      ),
    );
    lines.push(
      `probe      p50 ${timeProbe(PROBE).toFixed(2).padStart(7)} ms  (median ${probeMatches} matches to score)`,
      `probe-fts  p50 ${timeProbe(PROBE_FTS).toFixed(2).padStart(7)} ms`,
      `commit     p50 ${commit.toFixed(2).padStart(7)} ms  (one-row write transaction, synchronous=FULL)`,
    );
    store.db.exec('DROP TABLE dead_end_fts');
    console.log(`\n${size} memories\n${lines.join('\n')}`);
  }
} finally {
  store.close();
}
