// The memory bench's measurements: populate a real store (WasmSqlDatabase + Engine in a temp
// folder), then time individual saves and recalls, and the SQL that recall is built on as
// baselines. bench/run.ts drives it across store sizes and writes the results.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, type Actor } from '../src/engine';
import { findResemblingDeadEnds } from '../src/engine/record/deadEnds';
import { IntegrityChecker, ephemeralSigner } from '../src/engine/record/integrity';
import { ftsQuery } from '../src/engine/text/words';
import { WasmSqlDatabase } from '../src/host/sqlite';
import { Corpus } from './corpus';

const actor: Actor = { door: 'import', name: 'bench' };

/** Mirrors the bm25 column weights in src/engine/search/recall.ts (title, description, body, tags). */
const FTS_WEIGHTS = '4.0, 2.0, 1.0, 2.0';

/**
 * The memory statement recall runs (src/engine/search/recall.ts, no type filter, no as_of), timed
 * on its own. Recall also queries the document index (empty here) and, with a model, vectors
 * (none here): the bench measures lexical recall over memories.
 */
export const RECALL_SQL = `SELECT m.*, bm25(memory_fts, ${FTS_WEIGHTS}) AS bm
     FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid
     WHERE memory_fts MATCH ? AND m.is_current = 1 AND m.status IN ('active', 'deprecated', 'disputed')
       AND m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?) ORDER BY bm LIMIT ?`;

/** The floor under recall: FTS5 alone ranking the same terms, no join, no filters. */
export const FTS_SQL =
  `SELECT rowid, bm25(memory_fts, ${FTS_WEIGHTS}) AS bm FROM ` +
  `memory_fts WHERE memory_fts MATCH ? ORDER BY bm LIMIT ?`;

/** Rows recall over-fetches for its default limit (max(50, limit × 5)). */
export const RECALL_FETCH = 50;

export interface Distribution {
  p50: number;
  p95: number;
  mean: number;
  n: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export function distribution(samples: number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: samples.reduce((s, x) => s + x, 0) / samples.length,
    n: samples.length,
  };
}

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export class BenchStore {
  readonly path: string;
  readonly db: WasmSqlDatabase;
  readonly engine: Engine;
  private readonly corpus: Corpus;
  private next = 0;

  constructor(
    readonly dir: string,
    seed: number,
  ) {
    this.path = join(dir, 'lore.db');
    this.db = new WasmSqlDatabase(this.path);
    this.engine = new Engine({ db: this.db });
    this.corpus = new Corpus(seed);
  }

  get memories(): number {
    return this.engine.stats().memories;
  }

  /**
   * Grows the store to `target` memories through engine.remember, in engine.batch transactions.
   *
   * With `liftFts` (the default) the load is one transaction during which the full-text index is
   * out of the way: its sync triggers dropped and its contents cleared ('delete-all'); afterwards
   * the triggers are restored from their own SQL and the index rebuilt from the table
   * ('rebuild'). Why: every save other than a dead end probes the index for resembling dead ends,
   * and that probe scores every memory sharing a word with the new one, so loading through a
   * live index is quadratic (hours to 50k on this machine). Rows, events and the audit chain are
   * exactly what remember writes; the rebuilt index holds the same terms and statistics, so
   * recall answers identically (bench/fidelity.ts checks this against a store loaded through the
   * live index). Without `liftFts`, loads go in transactions of `chunk` saves, as in production.
   */
  populate(target: number, { chunk = 5000, liftFts = true } = {}): { added: number; seconds: number } {
    const start = process.hrtime.bigint();
    const from = this.next;
    if (this.next >= target) return { added: 0, seconds: 0 };
    const triggers = liftFts
      ? this.db.all<{ name: string; sql: string }>(
          "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND " +
            "tbl_name = 'memories' AND name LIKE 'memories_fts_%'",
        )
      : [];
    if (liftFts && triggers.length !== 3)
      throw new Error(
        `expected the three FTS sync triggers on memories, found ${triggers.map((t) => t.name).join(', ') || 'none'}`,
      );
    const load = (end: number) => {
      for (; this.next < end; this.next++) this.save();
    };
    if (liftFts) {
      this.engine.batch(() => {
        for (const trigger of triggers) this.db.exec(`DROP TRIGGER ${trigger.name}`);
        this.db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('delete-all')");
        load(target);
        for (const trigger of triggers) this.db.exec(trigger.sql);
        this.db.exec("INSERT INTO memory_fts (memory_fts) VALUES ('rebuild')");
      });
    } else {
      while (this.next < target) {
        const end = Math.min(target, this.next + chunk);
        this.engine.batch(() => load(end));
      }
    }
    return { added: this.next - from, seconds: elapsedMs(start) / 1000 };
  }

  private save(): void {
    const result = this.engine.remember(actor, this.corpus.memory(this.next));
    if (!result.saved || !result.created)
      throw new Error(`bench memory ${this.next} was not created: ${JSON.stringify(result)}`);
  }

  /** `count` individual saves, each its own transaction (and fsync). Latencies in ms. */
  timeSaves(count: number): number[] {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++, this.next++) {
      const start = process.hrtime.bigint();
      this.save();
      latencies.push(elapsedMs(start));
    }
    return latencies;
  }

  /** engine.recall for each query (default limit). Latencies in ms, and how many queries found anything. */
  async timeRecall(queries: string[]): Promise<{ latencies: number[]; answered: number }> {
    const latencies: number[] = [];
    let answered = 0;
    for (const query of queries) {
      const start = process.hrtime.bigint();
      const result = await this.engine.recall({ query });
      latencies.push(elapsedMs(start));
      if (result.results.length > 0) answered++;
    }
    return { latencies, answered };
  }

  /** One SQL statement per query, with the same MATCH expression recall builds. Latencies in ms. */
  timeSql(sql: 'recall' | 'fts', queries: string[]): number[] {
    const latencies: number[] = [];
    const now = new Date().toISOString();
    for (const query of queries) {
      const match = ftsQuery(query);
      const start = process.hrtime.bigint();
      if (sql === 'recall') this.db.all(RECALL_SQL, [match, now, now, RECALL_FETCH]);
      else this.db.all(FTS_SQL, [match, RECALL_FETCH]);
      latencies.push(elapsedMs(start));
    }
    return latencies;
  }

  /**
   * The dead-end probe every non-dead-end save runs (findResemblingDeadEnds over the new record's
   * title and description), timed alone on the given texts. Latencies in ms.
   */
  private get probeContext() {
    const storeId = this.db.get<{ value: string }>("SELECT value FROM meta WHERE name = 'store_id'")!.value;
    return {
      db: this.db,
      storeId,
      integrity: new IntegrityChecker({ db: this.db, storeId, signer: ephemeralSigner() }),
    };
  }

  timeDeadEndProbe(texts: string[]): number[] {
    return texts.map((text) => {
      const start = process.hrtime.bigint();
      findResemblingDeadEnds(this.probeContext, text);
      return elapsedMs(start);
    });
  }

  /** How many documents each query's MATCH selects (what bm25 has to score). */
  matchCounts(queries: string[]): number[] {
    return queries.map(
      (q) =>
        this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH ?', [ftsQuery(q)])!.n,
    );
  }

  close(remove = true): void {
    this.db.close();
    if (remove) rmSync(this.dir, { recursive: true, force: true });
  }
}

export function makeQueries(seed: number, count: number): string[] {
  const corpus = new Corpus(seed);
  return Array.from({ length: count }, () => corpus.query());
}

/** Title and description of fresh memories: what a save's dead-end probe searches for. */
export function makeProbeTexts(seed: number, count: number): string[] {
  const corpus = new Corpus(seed);
  return Array.from({ length: count }, (_, i) => {
    const m = corpus.memory(1_000_000_000 + i);
    return `${m.title} ${m.description}`;
  });
}
